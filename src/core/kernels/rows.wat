;; rows(N, K, count, first, values, documents, sums, counts, micro, macro): scores `count`
;; replicates of the row-level chunk bootstrap (non-0/1 metrics) whose N row indices each
;; $bounded (bounded.wat) has just written from byte 64, replicate after replicate; replicate i
;; goes to micro[first + i] and macro[first + i]. Oracle: chunkBootstrapRowsJs
;; (src/core/bootstrap/chunkBootstrap.ts), replicate for replicate, in
;; test/core/bootstrap/chunkBootstrapKernel.test.ts: the same sums in the same order.
;;
;; For each replicate: Σx over the drawn rows (micro = Σx / N), and per document d the sum and
;; count of its drawn rows; macro is the mean of sum_d / count_d over the documents drawn at least
;; once. `values` holds the N values (f64), `documents` each row's document (i32), `sums` and
;; `counts` K doubles of scratch.
(func $rows (export "rows")
  (param $N i32) (param $K i32) (param $count i32) (param $first i32) (param $values i32)
  (param $documents i32) (param $sums i32) (param $counts i32) (param $micro i32)
  (param $macro i32)
  (local $replicate i32) (local $ptr i32) (local $end i32) (local $row i32) (local $d i32)
  (local $x f64) (local $sum f64) (local $rateSum f64) (local $present f64) (local $n f64)
  (local.set $ptr (i32.const 64))
  (block $replicatesDone
    (loop $nextReplicate
      (br_if $replicatesDone (i32.ge_u (local.get $replicate) (local.get $count)))
      (memory.fill (local.get $sums) (i32.const 0) (i32.shl (local.get $K) (i32.const 3)))
      (memory.fill (local.get $counts) (i32.const 0) (i32.shl (local.get $K) (i32.const 3)))
      (local.set $sum (f64.const 0))
      (local.set $end (i32.add (local.get $ptr) (i32.shl (local.get $N) (i32.const 2))))
      (block $rowsDone
        (loop $nextRow
          (br_if $rowsDone (i32.ge_u (local.get $ptr) (local.get $end)))
          (local.set $row (i32.load (local.get $ptr)))
          (local.set $x (f64.load (i32.add (local.get $values) (i32.shl (local.get $row) (i32.const 3)))))
          (local.set $d
            (i32.shl
              (i32.load (i32.add (local.get $documents) (i32.shl (local.get $row) (i32.const 2))))
              (i32.const 3)))
          (local.set $sum (f64.add (local.get $sum) (local.get $x)))
          (f64.store
            (i32.add (local.get $sums) (local.get $d))
            (f64.add (f64.load (i32.add (local.get $sums) (local.get $d))) (local.get $x)))
          (f64.store
            (i32.add (local.get $counts) (local.get $d))
            (f64.add (f64.load (i32.add (local.get $counts) (local.get $d))) (f64.const 1)))
          (local.set $ptr (i32.add (local.get $ptr) (i32.const 4)))
          (br $nextRow)))
      ;; macro: the mean of sum_d / count_d over the documents drawn, in document order
      (local.set $rateSum (f64.const 0))
      (local.set $present (f64.const 0))
      (local.set $d (i32.const 0))
      (block $documentsDone
        (loop $nextDocument
          (br_if $documentsDone (i32.ge_u (local.get $d) (i32.shl (local.get $K) (i32.const 3))))
          (local.set $n (f64.load (i32.add (local.get $counts) (local.get $d))))
          (if (f64.ne (local.get $n) (f64.const 0))
            (then
              (local.set $rateSum
                (f64.add
                  (local.get $rateSum)
                  (f64.div (f64.load (i32.add (local.get $sums) (local.get $d))) (local.get $n))))
              (local.set $present (f64.add (local.get $present) (f64.const 1)))))
          (local.set $d (i32.add (local.get $d) (i32.const 8)))
          (br $nextDocument)))
      (f64.store
        (i32.add (local.get $micro) (i32.shl (i32.add (local.get $first) (local.get $replicate)) (i32.const 3)))
        (f64.div (local.get $sum) (f64.convert_i32_u (local.get $N))))
      (f64.store
        (i32.add (local.get $macro) (i32.shl (i32.add (local.get $first) (local.get $replicate)) (i32.const 3)))
        (f64.div (local.get $rateSum) (local.get $present)))
      (local.set $replicate (i32.add (local.get $replicate) (i32.const 1)))
      (br $nextReplicate))))
