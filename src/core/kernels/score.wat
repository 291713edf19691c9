;; score(K, rows, docs, out, total, first, fullMacro, fullMicro) → the number of degenerate
;; replicates among those scored.
;; The document bootstrap's replicate loop: `rows` rows of K drawn documents, written from byte 64
;; by $bounded (each entry the byte offset 24·d of document d), are scored into replicates
;; first … first + rows − 1 of the four `total`-long f64 columns at `out` — macro, micro, macroT,
;; microT, in this order — and their degenerate flags (one byte each, after the columns).
;; Documents are (n, s, r) triples of f64 at `docs` + 24·d: results, their sum and their rate.
;; Oracle: the JS loop of src/core/bootstrap/documentBootstrap.ts, which computes every replicate
;; with the same operations in the same order, so the two agree bit for bit
;; (test/core/bootstrap/documentBootstrapKernel.test.ts). Why WebAssembly: the indices are drawn
;; into the module's memory and scored there, with no copy and no bounds checks in the gathers.
;;
;; Per replicate b (a row d_1 … d_K):
;;   r̄_b = Σ r_d / K,  R_b = Σ s_d / Σ n_d;
;;   degenerate when s_d·n_{d_1} = s_{d_1}·n_d for every d (every drawn rate equal): its t
;;   statistics are stored as 0 and flagged;
;;   otherwise t_macro = (r̄_b − r̄) / (√(Σ(r_d − r̄_b)² / (K − 1)) / √K)
;;   and       t_micro = (R_b − R) / (√(K/(K − 1) · Σ(s_d − R_b n_d)²) / Σ n_d).
;; Two replicates (A and B) are scored side by side: each sum waits on its previous addition,
;; so interleaving two replicates' sums hides that latency. An odd last row is scored alone.

;; What every replicate of one score call shares, set at its entry for $store.
(global $out (mut i32) (i32.const 0))
(global $total (mut i32) (i32.const 0))
(global $first (mut i32) (i32.const 0))
(global $fullMacro (mut f64) (f64.const 0))
(global $fullMicro (mut f64) (f64.const 0))
(global $km1 (mut f64) (f64.const 0))
(global $sqrtK (mut f64) (f64.const 0))
(global $cr1Factor (mut f64) (f64.const 0))

;; Stores replicate first + r: its estimates, its flag and (unless degenerate) its t statistics;
;; returns 1 if degenerate, else 0.
(func $store
  (param $r i32) (param $mean f64) (param $ratio f64) (param $sq f64) (param $res f64)
  (param $sumN f64) (param $eq i32) (result i32)
  (local $at i32)
  ;; the replicate's byte offset within a column
  (local.set $at (i32.shl (i32.add (local.get $r) (global.get $first)) (i32.const 3)))
  (f64.store (i32.add (global.get $out) (local.get $at)) (local.get $mean))
  (f64.store
    (i32.add (i32.add (global.get $out) (i32.mul (global.get $total) (i32.const 8))) (local.get $at))
    (local.get $ratio))
  (i32.store8
    (i32.add
      (i32.add (global.get $out) (i32.mul (global.get $total) (i32.const 32)))
      (i32.add (local.get $r) (global.get $first)))
    (local.get $eq))
  (if (local.get $eq)
    (then
      (f64.store
        (i32.add (i32.add (global.get $out) (i32.mul (global.get $total) (i32.const 16))) (local.get $at))
        (f64.const 0))
      (f64.store
        (i32.add (i32.add (global.get $out) (i32.mul (global.get $total) (i32.const 24))) (local.get $at))
        (f64.const 0)))
    (else
      ;; macroT = (r̄_b − r̄) / (√(sq / (K − 1)) / √K)
      (f64.store
        (i32.add (i32.add (global.get $out) (i32.mul (global.get $total) (i32.const 16))) (local.get $at))
        (f64.div
          (f64.sub (local.get $mean) (global.get $fullMacro))
          (f64.div (f64.sqrt (f64.div (local.get $sq) (global.get $km1))) (global.get $sqrtK))))
      ;; microT = (R_b − R) / (√(K/(K − 1) · res) / Σn)
      (f64.store
        (i32.add (i32.add (global.get $out) (i32.mul (global.get $total) (i32.const 24))) (local.get $at))
        (f64.div
          (f64.sub (local.get $ratio) (global.get $fullMicro))
          (f64.div (f64.sqrt (f64.mul (global.get $cr1Factor) (local.get $res))) (local.get $sumN))))))
  (local.get $eq))

(func $score (export "score")
  (param $K i32) (param $rows i32) (param $docs i32) (param $out i32) (param $total i32)
  (param $first i32) (param $fullMacro f64) (param $fullMicro f64) (result i32)
  (local $q i32) (local $count i32) (local $rowBytes i32) (local $rA i32) (local $rB i32)
  (local $atA i32) (local $atB i32) (local $pA i32) (local $pB i32) (local $endA i32)
  (local $endB i32) (local $eqA i32) (local $eqB i32)
  (local $kf f64) (local $nd f64) (local $sd f64) (local $g f64) (local $u f64)
  (local $n0A f64) (local $n0B f64) (local $s0A f64) (local $s0B f64)
  (local $sumRateA f64) (local $sumRateB f64) (local $sumSA f64) (local $sumSB f64)
  (local $sumNA f64) (local $sumNB f64) (local $meanA f64) (local $meanB f64)
  (local $ratioA f64) (local $ratioB f64) (local $sqA f64) (local $sqB f64)
  (local $resA f64) (local $resB f64)
  (global.set $out (local.get $out))
  (global.set $total (local.get $total))
  (global.set $first (local.get $first))
  (global.set $fullMacro (local.get $fullMacro))
  (global.set $fullMicro (local.get $fullMicro))
  (global.set $sqrtK (f64.sqrt (local.tee $kf (f64.convert_i32_s (local.get $K)))))
  (global.set $km1 (f64.convert_i32_s (i32.sub (local.get $K) (i32.const 1))))
  (global.set $cr1Factor (f64.div (local.get $kf) (global.get $km1)))
  (local.set $rowBytes (i32.shl (local.get $K) (i32.const 2)))
  (local.set $atA (i32.const 64))

  ;; two replicates side by side while rA + 1 < rows
  (block $done
    (loop $next
      (br_if $done (i32.ge_u (local.tee $rB (i32.add (local.get $rA) (i32.const 1))) (local.get $rows)))
      (local.set $atB (i32.add (local.get $atA) (local.get $rowBytes)))
      ;; sums start at 0; each row's first document's n and s are kept for the degeneracy test
      (local.set $endA (i32.add (local.get $atA) (local.get $rowBytes)))
      (local.set $q (i32.add (i32.load (local.get $atA)) (local.get $docs)))
      (local.set $n0A (f64.load (local.get $q)))
      (local.set $s0A (f64.load offset=8 (local.get $q)))
      (local.set $sumNA (local.tee $sumSA (local.tee $sumRateA (f64.const 0))))
      (local.set $resA (local.tee $sqA (f64.const 0)))
      (local.set $eqA (i32.const 1))
      (local.set $pA (local.get $atA))
      (local.set $endB (i32.add (local.get $atB) (local.get $rowBytes)))
      (local.set $q (i32.add (i32.load (local.get $atB)) (local.get $docs)))
      (local.set $n0B (f64.load (local.get $q)))
      (local.set $s0B (f64.load offset=8 (local.get $q)))
      (local.set $sumNB (local.tee $sumSB (local.tee $sumRateB (f64.const 0))))
      (local.set $resB (local.tee $sqB (f64.const 0)))
      (local.set $eqB (i32.const 1))
      (local.set $pB (local.get $atB))
      ;; first pass over the drawn documents: Σr, Σs, Σn, and s_d·n_0 = s_0·n_d
      (loop $document
        (local.set $q (i32.add (i32.load (local.get $pA)) (local.get $docs)))
        (local.set $nd (f64.load (local.get $q)))
        (local.set $sd (f64.load offset=8 (local.get $q)))
        (local.set $sumRateA (f64.add (local.get $sumRateA) (f64.load offset=16 (local.get $q))))
        (local.set $sumSA (f64.add (local.get $sumSA) (local.get $sd)))
        (local.set $sumNA (f64.add (local.get $sumNA) (local.get $nd)))
        (local.set $eqA
          (i32.and (local.get $eqA)
            (f64.eq (f64.mul (local.get $sd) (local.get $n0A)) (f64.mul (local.get $s0A) (local.get $nd)))))
        (local.set $pA (i32.add (local.get $pA) (i32.const 4)))
        (local.set $q (i32.add (i32.load (local.get $pB)) (local.get $docs)))
        (local.set $nd (f64.load (local.get $q)))
        (local.set $sd (f64.load offset=8 (local.get $q)))
        (local.set $sumRateB (f64.add (local.get $sumRateB) (f64.load offset=16 (local.get $q))))
        (local.set $sumSB (f64.add (local.get $sumSB) (local.get $sd)))
        (local.set $sumNB (f64.add (local.get $sumNB) (local.get $nd)))
        (local.set $eqB
          (i32.and (local.get $eqB)
            (f64.eq (f64.mul (local.get $sd) (local.get $n0B)) (f64.mul (local.get $s0B) (local.get $nd)))))
        (local.set $pB (i32.add (local.get $pB) (i32.const 4)))
        (br_if $document (i32.lt_u (local.get $pA) (local.get $endA))))
      ;; r̄_b and R_b
      (local.set $meanA (f64.div (local.get $sumRateA) (local.get $kf)))
      (local.set $ratioA (f64.div (local.get $sumSA) (local.get $sumNA)))
      (local.set $pA (local.get $atA))
      (local.set $meanB (f64.div (local.get $sumRateB) (local.get $kf)))
      (local.set $ratioB (f64.div (local.get $sumSB) (local.get $sumNB)))
      (local.set $pB (local.get $atB))
      ;; second pass: Σ(r_d − r̄_b)² and Σ(s_d − R_b n_d)²
      (loop $document
        (local.set $q (i32.add (i32.load (local.get $pA)) (local.get $docs)))
        (local.set $g (f64.sub (f64.load offset=16 (local.get $q)) (local.get $meanA)))
        (local.set $u
          (f64.sub (f64.load offset=8 (local.get $q)) (f64.mul (local.get $ratioA) (f64.load (local.get $q)))))
        (local.set $sqA (f64.add (local.get $sqA) (f64.mul (local.get $g) (local.get $g))))
        (local.set $resA (f64.add (local.get $resA) (f64.mul (local.get $u) (local.get $u))))
        (local.set $pA (i32.add (local.get $pA) (i32.const 4)))
        (local.set $q (i32.add (i32.load (local.get $pB)) (local.get $docs)))
        (local.set $g (f64.sub (f64.load offset=16 (local.get $q)) (local.get $meanB)))
        (local.set $u
          (f64.sub (f64.load offset=8 (local.get $q)) (f64.mul (local.get $ratioB) (f64.load (local.get $q)))))
        (local.set $sqB (f64.add (local.get $sqB) (f64.mul (local.get $g) (local.get $g))))
        (local.set $resB (f64.add (local.get $resB) (f64.mul (local.get $u) (local.get $u))))
        (local.set $pB (i32.add (local.get $pB) (i32.const 4)))
        (br_if $document (i32.lt_u (local.get $pA) (local.get $endA))))
      (local.set $count
        (i32.add (local.get $count)
          (call $store (local.get $rA) (local.get $meanA) (local.get $ratioA) (local.get $sqA)
            (local.get $resA) (local.get $sumNA) (local.get $eqA))))
      (local.set $count
        (i32.add (local.get $count)
          (call $store (local.get $rB) (local.get $meanB) (local.get $ratioB) (local.get $sqB)
            (local.get $resB) (local.get $sumNB) (local.get $eqB))))
      (local.set $atA (local.get $endB))
      (local.set $rA (i32.add (local.get $rA) (i32.const 2)))
      (br $next)))

  ;; the last row of an odd count, alone: the same steps for A only
  (if (i32.lt_u (local.get $rA) (local.get $rows))
    (then
      (local.set $endA (i32.add (local.get $atA) (local.get $rowBytes)))
      (local.set $q (i32.add (i32.load (local.get $atA)) (local.get $docs)))
      (local.set $n0A (f64.load (local.get $q)))
      (local.set $s0A (f64.load offset=8 (local.get $q)))
      (local.set $sumNA (local.tee $sumSA (local.tee $sumRateA (f64.const 0))))
      (local.set $resA (local.tee $sqA (f64.const 0)))
      (local.set $eqA (i32.const 1))
      (local.set $pA (local.get $atA))
      (loop $document
        (local.set $q (i32.add (i32.load (local.get $pA)) (local.get $docs)))
        (local.set $nd (f64.load (local.get $q)))
        (local.set $sd (f64.load offset=8 (local.get $q)))
        (local.set $sumRateA (f64.add (local.get $sumRateA) (f64.load offset=16 (local.get $q))))
        (local.set $sumSA (f64.add (local.get $sumSA) (local.get $sd)))
        (local.set $sumNA (f64.add (local.get $sumNA) (local.get $nd)))
        (local.set $eqA
          (i32.and (local.get $eqA)
            (f64.eq (f64.mul (local.get $sd) (local.get $n0A)) (f64.mul (local.get $s0A) (local.get $nd)))))
        (local.set $pA (i32.add (local.get $pA) (i32.const 4)))
        (br_if $document (i32.lt_u (local.get $pA) (local.get $endA))))
      (local.set $meanA (f64.div (local.get $sumRateA) (local.get $kf)))
      (local.set $ratioA (f64.div (local.get $sumSA) (local.get $sumNA)))
      (local.set $pA (local.get $atA))
      (loop $document
        (local.set $q (i32.add (i32.load (local.get $pA)) (local.get $docs)))
        (local.set $g (f64.sub (f64.load offset=16 (local.get $q)) (local.get $meanA)))
        (local.set $u
          (f64.sub (f64.load offset=8 (local.get $q)) (f64.mul (local.get $ratioA) (f64.load (local.get $q)))))
        (local.set $sqA (f64.add (local.get $sqA) (f64.mul (local.get $g) (local.get $g))))
        (local.set $resA (f64.add (local.get $resA) (f64.mul (local.get $u) (local.get $u))))
        (local.set $pA (i32.add (local.get $pA) (i32.const 4)))
        (br_if $document (i32.lt_u (local.get $pA) (local.get $endA))))
      (local.set $count
        (i32.add (local.get $count)
          (call $store (local.get $rA) (local.get $meanA) (local.get $ratioA) (local.get $sqA)
            (local.get $resA) (local.get $sumNA) (local.get $eqA))))))
  (local.get $count))
