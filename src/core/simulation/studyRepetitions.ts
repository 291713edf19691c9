/**
 * The most repetitions a study runs: each keeps every method's two bounds, its ν and its
 * degenerate share (21 methods × 4 doubles, about 0.7 kB), so 10⁶ hold about 0.7 GB; a
 * coverage's Monte-Carlo se is then 0.0002, far below any difference worth a choice.
 */
export const MAX_STUDY_REPETITIONS = 1_000_000;
