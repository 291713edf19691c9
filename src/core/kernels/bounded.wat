;; bounded(K, threshold, count, scale): `count` integers in [0, K), each times `scale`, written
;; as i32 from byte 64 on — what numpy's Generator.integers(0, K) gives for 2 ≤ K < 2^32, drawn
;; from the PCG64 generator kept at bytes 0–39 of the module's memory, which it leaves where
;; numpy would. Oracle: fillBoundedIntegersJs (src/core/numeric/boundedIntegers.ts), draw for
;; draw, in test/core/numeric/pcg64Kernel.test.ts.
;;
;; Why WebAssembly: it has 64-bit integers, where JS multiplies the 128-bit state in 32-bit
;; limbs held in doubles (about five times slower for the same integers).
;;
;; Memory: s_lo at 0, s_hi at 8, c_lo at 16, c_hi at 24 (little-endian i64: the state s and the
;; increment c), has_uint32 at 32 and the buffered half at 36 (i32), the output from 64.
;;
;; PCG64 step (XSL-RR 128/64, numpy/random/src/pcg64/pcg64.h): s ← s·M + c mod 2^128,
;;   s_lo' = s_lo·M_lo + c_lo mod 2^64,
;;   s_hi' = mulhi(s_lo, M_lo) + s_lo·M_hi + s_hi·M_lo + c_hi + carry(s_lo') mod 2^64,
;; output rotr64(s_hi' ⊕ s_lo', s_hi' ≫ 58). mulhi, the high half of a 64 × 64 product, is built
;; from 32 × 32 products (WebAssembly 1.0 has no widening multiply): with a0, a1 the halves of
;; s_lo and b0 = 0x9fccf645, b1 = 0x4385df64 those of M_lo = 0x4385df649fccf645,
;;   mid = hi32(a0·b0) + lo32(a0·b1) + lo32(a1·b0)      (below 3·2^32)
;;   mulhi = a1·b1 + hi32(a0·b1) + hi32(a1·b0) + hi32(mid).
;; M_hi = 0x2360ed051fc65da4 (2549297995355413924).
;; next_uint32 (numpy): a fresh output gives its low half and buffers its high half.
;; Lemire (numpy's buffered_bounded_lemire_uint32): m = x·K; rejected when m mod 2^32 < threshold
;; (threshold = 2^32 mod K), else the integer is ⌊m / 2^32⌋.
;;
;; The step and the Lemire test are written out where they are used (WebAssembly has no macros,
;; and a call per draw would cost more than the draw).
(func $bounded (export "bounded")
  (param $K i32) (param $threshold i32) (param $count i32) (param $scale i32)
  (local $lo i64) (local $hi i64) (local $clo i64) (local $chi i64) (local $half i64)
  (local $v i64) (local $a0 i64) (local $a1 i64) (local $p01 i64) (local $p10 i64)
  (local $nlo i64) (local $x i64) (local $m i64) (local $kx i64)
  (local $has i32) (local $ptr i32) (local $end i32)
  ;; load the generator
  (local.set $lo (i64.load (i32.const 0)))
  (local.set $hi (i64.load offset=8 (i32.const 0)))
  (local.set $clo (i64.load offset=16 (i32.const 0)))
  (local.set $chi (i64.load offset=24 (i32.const 0)))
  (local.set $has (i32.load offset=32 (i32.const 0)))
  (local.set $half (i64.extend_i32_u (i32.load offset=36 (i32.const 0))))
  (local.set $kx (i64.extend_i32_u (local.get $K)))
  (local.set $ptr (i32.const 64))
  (local.set $end (i32.add (i32.const 64) (i32.shl (local.get $count) (i32.const 2))))

  ;; 1. a buffered high half, if there is one, is the first draw
  (if (i32.and (local.get $has) (i32.lt_u (local.get $ptr) (local.get $end)))
    (then
      (local.set $x (local.get $half))
      (local.set $has (i32.const 0))
      ;; Lemire on x
      (local.set $m (i64.mul (local.get $x) (local.get $kx)))
      (if (i32.eqz (i32.lt_u (i32.wrap_i64 (local.get $m)) (local.get $threshold)))
        (then
          (i32.store (local.get $ptr)
            (i32.mul (i32.wrap_i64 (i64.shr_u (local.get $m) (i64.const 32))) (local.get $scale)))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 4)))))))

  ;; 2. while two or more are wanted: both halves of each fresh output, low then high
  ;;    (next_uint32's order, without its buffer in between)
  (block $done
    (loop $next
      (br_if $done (i32.lt_u (i32.sub (local.get $end) (local.get $ptr)) (i32.const 8)))
      ;; PCG64 step: a0, a1 the halves of s_lo; p01 = a0·b1, p10 = a1·b0; v ← mid
      (local.set $a0 (i64.and (local.get $lo) (i64.const 0xffffffff)))
      (local.set $a1 (i64.shr_u (local.get $lo) (i64.const 32)))
      (local.set $p01 (i64.mul (local.get $a0) (i64.const 0x4385df64)))
      (local.set $p10 (i64.mul (local.get $a1) (i64.const 0x9fccf645)))
      (local.set $v
        (i64.add
          (i64.add
            (i64.shr_u (i64.mul (local.get $a0) (i64.const 0x9fccf645)) (i64.const 32))
            (i64.and (local.get $p01) (i64.const 0xffffffff)))
          (i64.and (local.get $p10) (i64.const 0xffffffff))))
      ;; s_lo' = s_lo·M_lo + c_lo (its carry is s_lo' < c_lo)
      (local.set $nlo (i64.add (i64.mul (local.get $lo) (i64.const 0x4385df649fccf645)) (local.get $clo)))
      ;; s_hi' = a1·b1 + hi32(p01) + hi32(p10) + hi32(mid) + s_lo·M_hi + s_hi·M_lo + c_hi + carry
      (local.set $hi
        (i64.add
          (i64.add
            (i64.add
              (i64.add
                (i64.add
                  (i64.add
                    (i64.add
                      (i64.mul (local.get $a1) (i64.const 0x4385df64))
                      (i64.shr_u (local.get $p01) (i64.const 32)))
                    (i64.shr_u (local.get $p10) (i64.const 32)))
                  (i64.shr_u (local.get $v) (i64.const 32)))
                (i64.mul (local.get $lo) (i64.const 0x2360ed051fc65da4)))
              (i64.mul (local.get $hi) (i64.const 0x4385df649fccf645)))
            (local.get $chi))
          (i64.extend_i32_u (i64.lt_u (local.get $nlo) (local.get $clo)))))
      (local.set $lo (local.get $nlo))
      ;; XSL-RR output: v ← rotr64(s_hi ⊕ s_lo, s_hi ≫ 58)
      (local.set $v
        (i64.rotr (i64.xor (local.get $hi) (local.get $lo)) (i64.shr_u (local.get $hi) (i64.const 58))))
      ;; Lemire on the low half
      (local.set $x (i64.and (local.get $v) (i64.const 0xffffffff)))
      (local.set $m (i64.mul (local.get $x) (local.get $kx)))
      (if (i32.eqz (i32.lt_u (i32.wrap_i64 (local.get $m)) (local.get $threshold)))
        (then
          (i32.store (local.get $ptr)
            (i32.mul (i32.wrap_i64 (i64.shr_u (local.get $m) (i64.const 32))) (local.get $scale)))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 4)))))
      ;; Lemire on the high half
      (local.set $x (i64.shr_u (local.get $v) (i64.const 32)))
      (local.set $m (i64.mul (local.get $x) (local.get $kx)))
      (if (i32.eqz (i32.lt_u (i32.wrap_i64 (local.get $m)) (local.get $threshold)))
        (then
          (i32.store (local.get $ptr)
            (i32.mul (i32.wrap_i64 (i64.shr_u (local.get $m) (i64.const 32))) (local.get $scale)))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 4)))))
      (br $next)))

  ;; 3. the last ones one draw at a time, through next_uint32's buffer
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $ptr) (local.get $end)))
      (if (local.get $has)
        (then (local.set $x (local.get $half)) (local.set $has (i32.const 0)))
        (else
          ;; the PCG64 step of part 2
          (local.set $a0 (i64.and (local.get $lo) (i64.const 0xffffffff)))
          (local.set $a1 (i64.shr_u (local.get $lo) (i64.const 32)))
          (local.set $p01 (i64.mul (local.get $a0) (i64.const 0x4385df64)))
          (local.set $p10 (i64.mul (local.get $a1) (i64.const 0x9fccf645)))
          (local.set $v
            (i64.add
              (i64.add
                (i64.shr_u (i64.mul (local.get $a0) (i64.const 0x9fccf645)) (i64.const 32))
                (i64.and (local.get $p01) (i64.const 0xffffffff)))
              (i64.and (local.get $p10) (i64.const 0xffffffff))))
          (local.set $nlo
            (i64.add (i64.mul (local.get $lo) (i64.const 0x4385df649fccf645)) (local.get $clo)))
          (local.set $hi
            (i64.add
              (i64.add
                (i64.add
                  (i64.add
                    (i64.add
                      (i64.add
                        (i64.add
                          (i64.mul (local.get $a1) (i64.const 0x4385df64))
                          (i64.shr_u (local.get $p01) (i64.const 32)))
                        (i64.shr_u (local.get $p10) (i64.const 32)))
                      (i64.shr_u (local.get $v) (i64.const 32)))
                    (i64.mul (local.get $lo) (i64.const 0x2360ed051fc65da4)))
                  (i64.mul (local.get $hi) (i64.const 0x4385df649fccf645)))
                (local.get $chi))
              (i64.extend_i32_u (i64.lt_u (local.get $nlo) (local.get $clo)))))
          (local.set $lo (local.get $nlo))
          (local.set $v
            (i64.rotr (i64.xor (local.get $hi) (local.get $lo)) (i64.shr_u (local.get $hi) (i64.const 58))))
          ;; use the low half now, buffer the high half
          (local.set $half (i64.shr_u (local.get $v) (i64.const 32)))
          (local.set $has (i32.const 1))
          (local.set $x (i64.and (local.get $v) (i64.const 0xffffffff)))))
      ;; Lemire on x
      (local.set $m (i64.mul (local.get $x) (local.get $kx)))
      (if (i32.eqz (i32.lt_u (i32.wrap_i64 (local.get $m)) (local.get $threshold)))
        (then
          (i32.store (local.get $ptr)
            (i32.mul (i32.wrap_i64 (i64.shr_u (local.get $m) (i64.const 32))) (local.get $scale)))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 4)))))
      (br $next)))

  ;; store the generator back (the increment does not change)
  (i64.store (i32.const 0) (local.get $lo))
  (i64.store offset=8 (i32.const 0) (local.get $hi))
  (i32.store offset=32 (i32.const 0) (local.get $has))
  (i32.store offset=36 (i32.const 0) (i32.wrap_i64 (local.get $half))))
