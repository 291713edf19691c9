import { documentStats } from "../../../src/core/aggregate/documentStats.js";

/**
 * A census of M = 6 documents (0/1 results) worked by hand with Cochran's (1977, §5.3)
 * stratified variance, for the size-stratified plan and the strata prediction. Split at the
 * cutoff 5 (large: n_d > 5):
 *
 *   small  (n, s) = (2, 0), (2, 1), (4, 2)      r_d = 0, 1/2, 1/2
 *   large  (n, s) = (10, 2), (10, 6), (20, 10)  r_d = 1/5, 3/5, 1/2
 *
 * N = 48, Σs = 21, R = 21/48 = 7/16; M_h = 3 each, W_h = 1/2. Equal allocation of K = 4:
 * K_h = 2, f_h = 2/3, 1 − f_h = 1/3 (proportional is the same here, as M_1 = M_2).
 *
 * Macro (mean of r_d), Var = Σ W_h² (1 − f_h) S²_{r,h} / K_h:
 *   S²_small = [(−1/3)² + (1/6)² + (1/6)²]/2 = 1/12;  S²_large = [(−7/30)² + (5/30)² + (2/30)²]/2 = 13/300
 *   Var = (1/4)(1/3)(1/2)(1/12 + 13/300) = (1/24)(38/300) = 19/3600;  se = √19/60 = 0.0726483157256779
 *
 * Micro (ratio), Var = Σ M_h² (1 − f_h) S²_{z,h} / K_h with z_d = (s_d − R n_d)/N:
 *   8(s_d − R n_d): small −7, 1, 2 → S² = [(−17/3)² + (7/3)² + (10/3)²]/2 /64 = 73/192
 *                   large −19, 13, 10 → S² = [(−61/3)² + (35/3)² + (26/3)²]/2 /64 = 937/192
 *   Var = 9·(1/3)·(1/2)·(73 + 937)/192 / 48² = 1515/442368;  se = 0.05852136732876102
 *
 * ν = K − H = 2, and R 4.2.2 gives qt(0.975, 2) = 4.3026527297494619.
 */
export const cochranCensus = documentStats({
  ids: ["s1", "s2", "s3", "l1", "l2", "l3"],
  n: [2, 2, 4, 10, 10, 20],
  s: [0, 1, 2, 2, 6, 10],
});

export const COCHRAN = {
  cutoff: 5,
  documents: 4,
  macroSe: Math.sqrt(19) / 60,
  microSe: Math.sqrt(1515 / 442368),
  t975df2: 4.3026527297494619,
} as const;
