;; tails(values, n, low, high, out, flags) → 1 if a value is NaN, else 0.
;; One pass over the n f64 values at `values` keeps the `low` smallest in ascending order and the
;; `high` largest in descending order: the bootstrap's quantiles need only the two tails of its
;; B replicates, and a full sort of B values costs more than the pass. Each value is compared
;; with the inner ends of the two tails and inserted, by a shift loop, only when beyond one.
;; Values whose flag byte (at flags + i) is set are passed over — the bootstrap's degenerate
;; replicates; flags = 0 passes over none. Needs low, high ≥ 1 and at least max(low, high)
;; values not passed over.
;; Oracle: keepTailsInJs (src/core/numeric/tailOrderStatistics.ts), on ties and infinities, in
;; test/core/numeric/tailKernel.test.ts. Why WebAssembly: the same loop in JS spends most of its
;; time in typed-array bounds checks.
;;
;; Layout written at `out`: [−∞, smallest × low, +∞, largest × high]. Each tail sits behind a
;; sentinel slot (−∞ before the ascending one, +∞ before the descending one), so the shift loops
;; stop on it and need no index test.
;;
;; The three passes below share one shape (written out: WebAssembly has no macros): i counts the
;; values, `at` points at value i, `kept` counts the values not passed over.
(func $tails (export "tails")
  (param $values i32) (param $n i32) (param $low i32) (param $high i32) (param $out i32)
  (param $flags i32) (result i32)
  (local $i i32) (local $p i32) (local $at i32) (local $end i32) (local $small i32)
  (local $large i32) (local $nan i32) (local $lastLow i32) (local $lastHigh i32) (local $kept i32)
  (local $x f64) (local $v f64) (local $lowEdge f64) (local $highEdge f64)
  ;; the sentinels; small and large point at the tails' first slots
  (f64.store (local.get $out) (f64.const -inf))
  (f64.store
    (local.tee $p
      (i32.add
        (local.tee $small (i32.add (local.get $out) (i32.const 8)))
        (i32.shl (local.get $low) (i32.const 3))))
    (f64.const inf))
  (local.set $large (i32.add (local.get $p) (i32.const 8)))

  ;; 1. the first `low` kept values, inserted into the ascending tail (the k-th at slot k)
  (local.set $kept (local.tee $i (i32.const 0)))
  (local.set $at (local.get $values))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $kept) (local.get $low)))
      (block $passOver
        (br_if $passOver
          (i32.and
            (i32.eqz (i32.eqz (local.get $flags)))
            (i32.load8_u (i32.add (local.get $flags) (local.get $i)))))
        (local.set $x (f64.load (local.get $at)))
        ;; insert x: values greater than x shift up one slot (the −∞ sentinel never is)
        (local.set $p
          (i32.sub (i32.add (local.get $small) (i32.shl (local.get $kept) (i32.const 3))) (i32.const 8)))
        (block $placed
          (loop $shift
            (br_if $placed (i32.eqz (f64.gt (local.tee $v (f64.load (local.get $p))) (local.get $x))))
            (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $v))
            (local.set $p (i32.sub (local.get $p) (i32.const 8)))
            (br $shift)))
        (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $x))
        (local.set $kept (i32.add (local.get $kept) (i32.const 1))))
      (local.set $at (i32.add (local.get $at) (i32.const 8)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))

  ;; 2. the first `high` kept values, inserted into the descending tail
  (local.set $kept (local.tee $i (i32.const 0)))
  (local.set $at (local.get $values))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $kept) (local.get $high)))
      (block $passOver
        (br_if $passOver
          (i32.and
            (i32.eqz (i32.eqz (local.get $flags)))
            (i32.load8_u (i32.add (local.get $flags) (local.get $i)))))
        (local.set $x (f64.load (local.get $at)))
        ;; insert x: values less than x shift up one slot (the +∞ sentinel never is)
        (local.set $p
          (i32.sub (i32.add (local.get $large) (i32.shl (local.get $kept) (i32.const 3))) (i32.const 8)))
        (block $placed
          (loop $shift
            (br_if $placed (i32.eqz (f64.lt (local.tee $v (f64.load (local.get $p))) (local.get $x))))
            (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $v))
            (local.set $p (i32.sub (local.get $p) (i32.const 8)))
            (br $shift)))
        (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $x))
        (local.set $kept (i32.add (local.get $kept) (i32.const 1))))
      (local.set $at (i32.add (local.get $at) (i32.const 8)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))

  ;; the tails' inner ends: small[low − 1] and large[high − 1]
  (local.set $lastLow (i32.sub (local.get $low) (i32.const 1)))
  (local.set $lastHigh (i32.sub (local.get $high) (i32.const 1)))
  (local.set $lowEdge
    (f64.load (i32.add (local.get $small) (i32.shl (local.get $lastLow) (i32.const 3)))))
  (local.set $highEdge
    (f64.load (i32.add (local.get $large) (i32.shl (local.get $lastHigh) (i32.const 3)))))
  (local.set $end (i32.add (local.get $values) (i32.shl (local.get $n) (i32.const 3))))

  ;; 3. every kept value again, from the first: once a tail is full (kept ≥ its size), x enters
  ;;    it when beyond its inner end (the values x passes shift out over the end), and the end
  ;;    moves; a NaN is remembered (the caller then sorts in JS, where NaN has a defined place)
  (local.set $kept (local.tee $i (i32.const 0)))
  (local.set $at (local.get $values))
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
      (block $passOver
        (br_if $passOver
          (i32.and
            (i32.eqz (i32.eqz (local.get $flags)))
            (i32.load8_u (i32.add (local.get $flags) (local.get $i)))))
        (local.set $x (f64.load (local.get $at)))
        (if (i32.and (f64.lt (local.get $x) (local.get $lowEdge)) (i32.ge_u (local.get $kept) (local.get $low)))
          (then
            (local.set $p
              (i32.sub (i32.add (local.get $small) (i32.shl (local.get $lastLow) (i32.const 3))) (i32.const 8)))
            (block $placed
              (loop $shift
                (br_if $placed (i32.eqz (f64.gt (local.tee $v (f64.load (local.get $p))) (local.get $x))))
                (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $v))
                (local.set $p (i32.sub (local.get $p) (i32.const 8)))
                (br $shift)))
            (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $x))
            (local.set $lowEdge
              (f64.load (i32.add (local.get $small) (i32.shl (local.get $lastLow) (i32.const 3)))))))
        (if (i32.and (f64.gt (local.get $x) (local.get $highEdge)) (i32.ge_u (local.get $kept) (local.get $high)))
          (then
            (local.set $p
              (i32.sub (i32.add (local.get $large) (i32.shl (local.get $lastHigh) (i32.const 3))) (i32.const 8)))
            (block $placed
              (loop $shift
                (br_if $placed (i32.eqz (f64.lt (local.tee $v (f64.load (local.get $p))) (local.get $x))))
                (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $v))
                (local.set $p (i32.sub (local.get $p) (i32.const 8)))
                (br $shift)))
            (f64.store (i32.add (local.get $p) (i32.const 8)) (local.get $x))
            (local.set $highEdge
              (f64.load (i32.add (local.get $large) (i32.shl (local.get $lastHigh) (i32.const 3)))))))
        (local.set $nan (i32.or (local.get $nan) (f64.ne (local.get $x) (local.get $x))))
        (local.set $kept (i32.add (local.get $kept) (i32.const 1))))
      (local.set $at (i32.add (local.get $at) (i32.const 8)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br $next)))
  (local.get $nan))
