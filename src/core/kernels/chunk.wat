;; chunk(k, total, first, last, slots, powers, micro, macro): replicates first … last − 1 of the
;; chunk bootstrap of a 0/1 metric, written as doubles to micro[b] and macro[b]. Oracle:
;; chunkBootstrapBinaryJs (src/core/bootstrap/chunkBootstrap.ts), replicate for replicate, in
;; test/core/bootstrap/chunkBootstrapKernel.test.ts: the same uniforms, the same branches and
;; the same floating-point operations in the same order, so the same doubles.
;;
;; Why WebAssembly: two binomial draws per document and replicate (400,000 for K = 20 and
;; B = 10,000) are the largest cost of a small `ragci analyze`; in JS they run on a cold JIT and
;; their PCG64 state is multiplied in 32-bit limbs held in doubles.
;;
;; Memory (byte offsets; chunkBootstrapKernel.ts writes all but the outputs):
;;   0–31      the PCG64 generator: s_lo, s_hi, c_lo, c_hi (little-endian i64)
;;   64–143    STIRLING_SMALL, fc(0) … fc(9) (src/core/numeric/binomial.ts)
;;   slots     for the 2k slots j (2d: document d's share of the results still to draw,
;;             2d + 1: its rate), as binomialsAtFixedProbabilities lays them out: the
;;             probability p_j, min(p_j, 1 − p_j), q_j = 1 − min, the odds min/q (f64 each), then
;;             where slot j's cached qⁿ start in `powers` (−1: none), how many there are, and
;;             whether p_j > ½ (i32 each)
;;   powers    the cached P(0) = qⁿ (−1: not computed yet)
;;
;; Uniforms: numpy's next_double, (x ≫ 11)·2⁻⁵³ of each PCG64 output x (bounded.wat has the step
;; and its derivation). Binomials: binomial.ts (inversion for n·p < 10, else Hörmann's BTRD),
;; whose comments give the formulas. Math.log and `**` come from JS (imports), so that they are
;; the very functions the oracle calls; both are off the common path (BTRD's last tests, and the
;; first draw of each (slot, n)).
(global $lo (mut i64) (i64.const 0))
(global $hi (mut i64) (i64.const 0))
(global $clo (mut i64) (i64.const 0))
(global $chi (mut i64) (i64.const 0))
;; the slot arrays (set by $chunk from `slots` and k)
(global $probability (mut i32) (i32.const 0))
(global $small (mut i32) (i32.const 0))
(global $q (mut i32) (i32.const 0))
(global $odds (mut i32) (i32.const 0))
(global $powerAt (mut i32) (i32.const 0))
(global $powerLength (mut i32) (i32.const 0))
(global $flipped (mut i32) (i32.const 0))
(global $powers (mut i32) (i32.const 0))

;; One uniform on [0, 1): a PCG64 step, its XSL-RR output x, then (x ≫ 11)·2⁻⁵³.
(func $uniform (result f64)
  (local $a0 i64) (local $a1 i64) (local $p01 i64) (local $p10 i64) (local $mid i64)
  (local $nlo i64) (local $lo i64) (local $hi i64)
  (local.set $lo (global.get $lo))
  (local.set $a0 (i64.and (local.get $lo) (i64.const 0xffffffff)))
  (local.set $a1 (i64.shr_u (local.get $lo) (i64.const 32)))
  (local.set $p01 (i64.mul (local.get $a0) (i64.const 0x4385df64)))
  (local.set $p10 (i64.mul (local.get $a1) (i64.const 0x9fccf645)))
  (local.set $mid
    (i64.add
      (i64.add
        (i64.shr_u (i64.mul (local.get $a0) (i64.const 0x9fccf645)) (i64.const 32))
        (i64.and (local.get $p01) (i64.const 0xffffffff)))
      (i64.and (local.get $p10) (i64.const 0xffffffff))))
  (local.set $nlo (i64.add (i64.mul (local.get $lo) (i64.const 0x4385df649fccf645)) (global.get $clo)))
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
              (i64.shr_u (local.get $mid) (i64.const 32)))
            (i64.mul (local.get $lo) (i64.const 0x2360ed051fc65da4)))
          (i64.mul (global.get $hi) (i64.const 0x4385df649fccf645)))
        (global.get $chi))
      (i64.extend_i32_u (i64.lt_u (local.get $nlo) (global.get $clo)))))
  (global.set $lo (local.get $nlo))
  (global.set $hi (local.get $hi))
  (f64.mul
    (f64.convert_i64_u
      (i64.shr_u
        (i64.rotr (i64.xor (local.get $hi) (local.get $nlo)) (i64.shr_u (local.get $hi) (i64.const 58)))
        (i64.const 11)))
    (f64.const 0x1p-53)))

;; Stirling's remainder fc(k) for a whole k ≥ 0 (binomial.ts's stirlingCorrection).
(func $stirling (param $k f64) (result f64)
  (local $r f64) (local $r2 f64)
  (if (f64.lt (local.get $k) (f64.const 10))
    (then
      (return (f64.load offset=64 (i32.shl (i32.trunc_f64_u (local.get $k)) (i32.const 3))))))
  (local.set $r (f64.div (f64.const 1) (f64.add (local.get $k) (f64.const 1))))
  (local.set $r2 (f64.mul (local.get $r) (local.get $r)))
  ;; (1/12 − (1/360 − r²/1260)·r²)·r
  (f64.mul
    (f64.sub
      (f64.div (f64.const 1) (f64.const 12))
      (f64.mul
        (f64.sub (f64.div (f64.const 1) (f64.const 360)) (f64.div (local.get $r2) (f64.const 1260)))
        (local.get $r2)))
    (local.get $r)))

;; Math.sign(u)·½ − u, with Math.sign's ±0 (so u = ±0 gives +0, as in JS).
(func $reflect (param $u f64) (result f64)
  (f64.sub
    (f64.mul
      (if (result f64) (f64.gt (local.get $u) (f64.const 0))
        (then (f64.const 1))
        (else
          (if (result f64) (f64.lt (local.get $u) (f64.const 0))
            (then (f64.const -1))
            (else (local.get $u)))))
      (f64.const 0.5))
    (local.get $u)))

;; BTRD for p ≤ ½ and n·p ≥ 10 (binomial.ts's btrd, statement for statement).
(func $btrd (param $n f64) (param $p f64) (result f64)
  (local $q f64) (local $m f64) (local $r f64) (local $nr f64) (local $npq f64) (local $spq f64)
  (local $b f64) (local $a f64) (local $c f64) (local $alpha f64) (local $vr f64) (local $urvr f64)
  (local $v f64) (local $u f64) (local $us f64) (local $k f64) (local $km f64) (local $f f64)
  (local $i f64) (local $logV f64) (local $rho f64) (local $t f64) (local $nm f64) (local $h f64)
  (local $nk f64) (local $bound f64)
  (local.set $q (f64.sub (f64.const 1) (local.get $p)))
  (local.set $m (f64.floor (f64.mul (f64.add (local.get $n) (f64.const 1)) (local.get $p))))
  (local.set $r (f64.div (local.get $p) (local.get $q)))
  (local.set $nr (f64.mul (f64.add (local.get $n) (f64.const 1)) (local.get $r)))
  (local.set $npq (f64.mul (f64.mul (local.get $n) (local.get $p)) (local.get $q)))
  (local.set $spq (f64.sqrt (local.get $npq)))
  (local.set $b (f64.add (f64.const 1.15) (f64.mul (f64.const 2.53) (local.get $spq))))
  (local.set $a
    (f64.add
      (f64.add (f64.const -0.0873) (f64.mul (f64.const 0.0248) (local.get $b)))
      (f64.mul (f64.const 0.01) (local.get $p))))
  (local.set $c (f64.add (f64.mul (local.get $n) (local.get $p)) (f64.const 0.5)))
  (local.set $alpha
    (f64.mul (f64.add (f64.const 2.83) (f64.div (f64.const 5.1) (local.get $b))) (local.get $spq)))
  (local.set $vr (f64.sub (f64.const 0.92) (f64.div (f64.const 4.2) (local.get $b))))
  (local.set $urvr (f64.mul (f64.const 0.86) (local.get $vr)))
  (loop $try
    (local.set $v (call $uniform))
    ;; inside the central box: accept at once
    (if (f64.le (local.get $v) (local.get $urvr))
      (then
        (local.set $u (f64.sub (f64.div (local.get $v) (local.get $vr)) (f64.const 0.43)))
        (return
          (f64.floor
            (f64.add
              (f64.mul
                (f64.add
                  (f64.div
                    (f64.mul (f64.const 2) (local.get $a))
                    (f64.sub (f64.const 0.5) (f64.abs (local.get $u))))
                  (local.get $b))
                (local.get $u))
              (local.get $c))))))
    (if (f64.ge (local.get $v) (local.get $vr))
      (then (local.set $u (f64.sub (call $uniform) (f64.const 0.5))))
      (else
        (local.set $u (f64.sub (f64.div (local.get $v) (local.get $vr)) (f64.const 0.93)))
        (local.set $u (call $reflect (local.get $u)))
        (local.set $v (f64.mul (call $uniform) (local.get $vr)))))
    (local.set $us (f64.sub (f64.const 0.5) (f64.abs (local.get $u))))
    (local.set $k
      (f64.floor
        (f64.add
          (f64.mul
            (f64.add (f64.div (f64.mul (f64.const 2) (local.get $a)) (local.get $us)) (local.get $b))
            (local.get $u))
          (local.get $c))))
    (br_if $try
      (i32.or (f64.lt (local.get $k) (f64.const 0)) (f64.gt (local.get $k) (local.get $n))))
    (local.set $v
      (f64.div
        (f64.mul (local.get $v) (local.get $alpha))
        (f64.add
          (f64.div (local.get $a) (f64.mul (local.get $us) (local.get $us)))
          (local.get $b))))
    (local.set $km (f64.abs (f64.sub (local.get $k) (local.get $m))))
    (if (f64.le (local.get $km) (f64.const 15))
      (then
        ;; f(k)/f(m) by the pmf recursion
        (local.set $f (f64.const 1))
        (if (f64.lt (local.get $m) (local.get $k))
          (then
            (local.set $i (f64.add (local.get $m) (f64.const 1)))
            (block $done
              (loop $up
                (br_if $done (i32.eqz (f64.le (local.get $i) (local.get $k))))
                (local.set $f
                  (f64.mul
                    (local.get $f)
                    (f64.sub (f64.div (local.get $nr) (local.get $i)) (local.get $r))))
                (local.set $i (f64.add (local.get $i) (f64.const 1)))
                (br $up))))
          (else
            (if (f64.gt (local.get $m) (local.get $k))
              (then
                (local.set $i (f64.add (local.get $k) (f64.const 1)))
                (block $done
                  (loop $down
                    (br_if $done (i32.eqz (f64.le (local.get $i) (local.get $m))))
                    (local.set $v
                      (f64.mul
                        (local.get $v)
                        (f64.sub (f64.div (local.get $nr) (local.get $i)) (local.get $r))))
                    (local.set $i (f64.add (local.get $i) (f64.const 1)))
                    (br $down)))))))
        (if (f64.le (local.get $v) (local.get $f)) (then (return (local.get $k))))
        (br $try)))
    ;; squeeze with the normal approximation of log f(k)/f(m)
    (local.set $logV (call $log (local.get $v)))
    (local.set $rho
      (f64.mul
        (f64.div (local.get $km) (local.get $npq))
        (f64.add
          (f64.div
            (f64.add
              (f64.mul
                (f64.add (f64.div (local.get $km) (f64.const 3)) (f64.const 0.625))
                (local.get $km))
              (f64.div (f64.const 1) (f64.const 6)))
            (local.get $npq))
          (f64.const 0.5))))
    (local.set $t
      (f64.div
        (f64.mul (f64.neg (local.get $km)) (local.get $km))
        (f64.mul (f64.const 2) (local.get $npq))))
    (if (f64.lt (local.get $logV) (f64.sub (local.get $t) (local.get $rho)))
      (then (return (local.get $k))))
    (br_if $try (f64.gt (local.get $logV) (f64.add (local.get $t) (local.get $rho))))
    ;; exact test with Stirling's formula
    (local.set $nm (f64.add (f64.sub (local.get $n) (local.get $m)) (f64.const 1)))
    (local.set $h
      (f64.add
        (f64.add
          (f64.mul
            (f64.add (local.get $m) (f64.const 0.5))
            (call $log
              (f64.div
                (f64.add (local.get $m) (f64.const 1))
                (f64.mul (local.get $r) (local.get $nm)))))
          (call $stirling (local.get $m)))
        (call $stirling (f64.sub (local.get $n) (local.get $m)))))
    (local.set $nk (f64.add (f64.sub (local.get $n) (local.get $k)) (f64.const 1)))
    (local.set $bound
      (f64.sub
        (f64.sub
          (f64.add
            (f64.add
              (local.get $h)
              (f64.mul
                (f64.add (local.get $n) (f64.const 1))
                (call $log (f64.div (local.get $nm) (local.get $nk)))))
            (f64.mul
              (f64.add (local.get $k) (f64.const 0.5))
              (call $log
                (f64.div
                  (f64.mul (local.get $nk) (local.get $r))
                  (f64.add (local.get $k) (f64.const 1))))))
          (call $stirling (local.get $k)))
        (call $stirling (f64.sub (local.get $n) (local.get $k)))))
    (if (f64.le (local.get $logV) (local.get $bound)) (then (return (local.get $k))))
    (br $try))
  (unreachable))

;; Binomial(trials, min(p_j, 1 − p_j)) (binomialsAtFixedProbabilities's smallDraw).
(func $smallDraw (param $j i32) (param $trials f64) (result f64)
  (local $s f64) (local $at i32) (local $slot i32) (local $probability f64) (local $r f64)
  (local $u f64) (local $x f64)
  (local.set $s (f64.load (i32.add (global.get $small) (i32.shl (local.get $j) (i32.const 3)))))
  (if (f64.ge (f64.mul (local.get $trials) (local.get $s)) (f64.const 10))
    (then (return (call $btrd (local.get $trials) (local.get $s)))))
  (local.set $at (i32.load (i32.add (global.get $powerAt) (i32.shl (local.get $j) (i32.const 2)))))
  (if
    (i32.and
      (i32.ge_s (local.get $at) (i32.const 0))
      (f64.lt
        (local.get $trials)
        (f64.convert_i32_s
          (i32.load (i32.add (global.get $powerLength) (i32.shl (local.get $j) (i32.const 2)))))))
    (then
      ;; the cached qⁿ, computed on first use
      (local.set $slot
        (i32.add
          (global.get $powers)
          (i32.shl
            (i32.add (local.get $at) (i32.trunc_f64_u (local.get $trials)))
            (i32.const 3))))
      (local.set $probability (f64.load (local.get $slot)))
      (if (f64.lt (local.get $probability) (f64.const 0))
        (then
          (local.set $probability
            (call $pow
              (f64.load (i32.add (global.get $q) (i32.shl (local.get $j) (i32.const 3))))
              (local.get $trials)))
          (f64.store (local.get $slot) (local.get $probability)))))
    (else
      (local.set $probability
        (call $pow
          (f64.load (i32.add (global.get $q) (i32.shl (local.get $j) (i32.const 3))))
          (local.get $trials)))))
  ;; inversion, from P(0) on
  (local.set $r (f64.load (i32.add (global.get $odds) (i32.shl (local.get $j) (i32.const 3)))))
  (local.set $u (call $uniform))
  (local.set $x (f64.const 0))
  (block $done
    (loop $step
      (br_if $done
        (i32.eqz
          (i32.and
            (f64.gt (local.get $u) (local.get $probability))
            (f64.lt (local.get $x) (local.get $trials)))))
      (local.set $u (f64.sub (local.get $u) (local.get $probability)))
      (local.set $probability
        (f64.mul
          (local.get $probability)
          (f64.div
            (f64.mul (local.get $r) (f64.sub (local.get $trials) (local.get $x)))
            (f64.add (local.get $x) (f64.const 1)))))
      (local.set $x (f64.add (local.get $x) (f64.const 1)))
      (br $step)))
  (local.get $x))

;; Binomial(trials, p_j) (the function binomialsAtFixedProbabilities returns).
(func $draw (param $j i32) (param $trials f64) (result f64)
  (local $p f64)
  (if (f64.eq (local.get $trials) (f64.const 0)) (then (return (f64.const 0))))
  (local.set $p (f64.load (i32.add (global.get $probability) (i32.shl (local.get $j) (i32.const 3)))))
  (if (f64.le (local.get $p) (f64.const 0)) (then (return (f64.const 0))))
  (if (f64.ge (local.get $p) (f64.const 1)) (then (return (local.get $trials))))
  (if (result f64)
    (i32.load (i32.add (global.get $flipped) (i32.shl (local.get $j) (i32.const 2))))
    (then (f64.sub (local.get $trials) (call $smallDraw (local.get $j) (local.get $trials))))
    (else (call $smallDraw (local.get $j) (local.get $trials)))))

(func $chunk (export "chunk")
  (param $k i32) (param $total f64) (param $first i32) (param $last i32) (param $slots i32)
  (param $powers i32) (param $micro i32) (param $macro i32)
  (local $bytes i32) (local $b i32) (local $d i32) (local $left f64) (local $hits f64)
  (local $rateSum f64) (local $present f64) (local $count f64) (local $h f64)
  ;; 2k slots of 8 bytes, then of 4
  (local.set $bytes (i32.shl (local.get $k) (i32.const 4)))
  (global.set $probability (local.get $slots))
  (global.set $small (i32.add (global.get $probability) (local.get $bytes)))
  (global.set $q (i32.add (global.get $small) (local.get $bytes)))
  (global.set $odds (i32.add (global.get $q) (local.get $bytes)))
  (global.set $powerAt (i32.add (global.get $odds) (local.get $bytes)))
  (global.set $powerLength
    (i32.add (global.get $powerAt) (i32.shr_u (local.get $bytes) (i32.const 1))))
  (global.set $flipped
    (i32.add (global.get $powerLength) (i32.shr_u (local.get $bytes) (i32.const 1))))
  (global.set $powers (local.get $powers))
  (global.set $lo (i64.load (i32.const 0)))
  (global.set $hi (i64.load offset=8 (i32.const 0)))
  (global.set $clo (i64.load offset=16 (i32.const 0)))
  (global.set $chi (i64.load offset=24 (i32.const 0)))
  (local.set $b (local.get $first))
  (block $replicatesDone
    (loop $replicate
      (br_if $replicatesDone (i32.ge_u (local.get $b) (local.get $last)))
      (local.set $left (local.get $total))
      (local.set $hits (f64.const 0))
      (local.set $rateSum (f64.const 0))
      (local.set $present (f64.const 0))
      (local.set $d (i32.const 0))
      (block $documentsDone
        (loop $document
          (br_if $documentsDone
            (i32.eqz
              (i32.and
                (i32.lt_u (local.get $d) (local.get $k))
                (f64.gt (local.get $left) (f64.const 0)))))
          ;; the results drawn from document d (the last takes what is left), then its hits
          (local.set $count
            (if (result f64) (i32.eq (local.get $d) (i32.sub (local.get $k) (i32.const 1)))
              (then (local.get $left))
              (else (call $draw (i32.shl (local.get $d) (i32.const 1)) (local.get $left)))))
          (local.set $left (f64.sub (local.get $left) (local.get $count)))
          (if (f64.ne (local.get $count) (f64.const 0))
            (then
              (local.set $h
                (call $draw
                  (i32.add (i32.shl (local.get $d) (i32.const 1)) (i32.const 1))
                  (local.get $count)))
              (local.set $hits (f64.add (local.get $hits) (local.get $h)))
              (local.set $rateSum
                (f64.add (local.get $rateSum) (f64.div (local.get $h) (local.get $count))))
              (local.set $present (f64.add (local.get $present) (f64.const 1)))))
          (local.set $d (i32.add (local.get $d) (i32.const 1)))
          (br $document)))
      (f64.store
        (i32.add (local.get $micro) (i32.shl (local.get $b) (i32.const 3)))
        (f64.div (local.get $hits) (local.get $total)))
      (f64.store
        (i32.add (local.get $macro) (i32.shl (local.get $b) (i32.const 3)))
        (f64.div (local.get $rateSum) (local.get $present)))
      (local.set $b (i32.add (local.get $b) (i32.const 1)))
      (br $replicate)))
  ;; store the generator back (the increment does not change)
  (i64.store (i32.const 0) (global.get $lo))
  (i64.store offset=8 (i32.const 0) (global.get $hi)))
