import type { DocumentStats } from "../types.js";

/**
 * Below this many documents whose summed difference b − a is not 0, compare warns that its
 * intervals of a paired difference cannot be trusted. From ragci's paired studies
 * (bench/method-guide/paired.json): on tie-heavy censuses the intervals miss mostly in the
 * samples where few documents differ (every other document is a tie, so the sample says little
 * about the differences' tail), and macro t covered ≥ 92% among the samples with at least 8.
 */
export const FEWEST_DIFFERING_DOCUMENTS = 8;

/**
 * How far from 0, relative to √(n_d·Σx²) (which bounds Σ|x|), a summed difference must be to
 * count: summing n doubles errs by about n·2⁻⁵³ of Σ|x|, so a tied document's sum of score
 * differences (0.5 − 0.3 − 0.2, or both systems shifted by a constant) can come out at 1e-17
 * instead of 0. 1e-12 covers that for n up to about 10⁴; a real difference is far larger.
 */
const TIE_TOLERANCE = 1e-12;

/**
 * Documents whose summed difference b − a is not 0 (the others are ties): |s_d| above
 * TIE_TOLERANCE·√(n_d·ss_d), so that rounding in the sum does not make a tie differ.
 */
export function differingDocuments(difference: DocumentStats): number {
  let count = 0;
  for (let d = 0; d < difference.s.length; d++) {
    const s = difference.s[d] as number;
    const bound = Math.sqrt((difference.n[d] as number) * (difference.ss[d] as number));
    if (Math.abs(s) > TIE_TOLERANCE * bound) count++;
  }
  return count;
}
