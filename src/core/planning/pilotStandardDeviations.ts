import { compensatedSum, compensatedSumOf } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { microResiduals } from "../variance/microResiduals.js";
import { requireTwoDocuments } from "../variance/requireDocuments.js";

export interface PlanningStandardDeviations {
  /** sd(r_d), ddof 1. */
  readonly macro: number;
  /** sd(u_d)/n̄ with u_d = s_d − R·n_d and n̄ = N/K, ddof 1. */
  readonly micro: number;
  readonly documents: number;
}

/** The S of SPEC §7 from per-document sums (a pilot sample or a census). */
export function pilotStandardDeviations(stats: DocumentStats): PlanningStandardDeviations {
  const k = requireTwoDocuments(stats);
  const rate = (d: number) => (stats.s[d] as number) / (stats.n[d] as number);
  const mean = compensatedSumOf(k, rate) / k;
  const macro = Math.sqrt(compensatedSumOf(k, (d) => (rate(d) - mean) ** 2) / (k - 1));
  const { u, total } = microResiduals(stats);
  const meanU = compensatedSum(u) / k;
  const sdU = Math.sqrt(compensatedSumOf(k, (d) => ((u[d] as number) - meanU) ** 2) / (k - 1));
  return { macro, micro: sdU / (total / k), documents: k };
}
