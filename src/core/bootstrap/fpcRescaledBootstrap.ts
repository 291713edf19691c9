/**
 * The finite-population correction of the document bootstrap: the rescaling bootstrap of
 * Rao & Wu (1988, "Resampling inference with complex survey data", JASA 83:231–241), in its
 * simplest form for SRS without replacement of K documents from M. Documents are resampled with
 * replacement as before, and each replicate's deviation from the estimate is multiplied by
 * c = √(1 − K/M), so the bootstrap variance is the with-replacement one times 1 − K/M, the same
 * fpc that t, cr1, cr2 and logit-cv3 apply (SPEC §3). Rao & Wu's factor for K draws is
 * √(K(1 − K/M)/(K − 1)); the K/(K − 1) part is left out so that, without M, the intervals are
 * exactly the plain document bootstrap's.
 *
 * On the intervals: the percentile bounds become θ̂ + c·(q − θ̂); for the bootstrap-t, the
 * studentised replicates are unchanged (the replicate's se scales by the same c) and the
 * interval uses the original se times c. At K = M, c = 0: a census has no sampling error and
 * the interval is the estimate itself.
 */

/** c = √(1 − K/M) from fpc = 1 − K/M (1 without a population). */
export function bootstrapRescaling(fpc: number): number {
  return Math.sqrt(fpc);
}

/** A bootstrap bound moved toward the estimate by c (unchanged, bit for bit, when c = 1). */
export function rescaledBound(estimate: number, bound: number, rescaling: number): number {
  return rescaling === 1 ? bound : estimate + rescaling * (bound - estimate);
}
