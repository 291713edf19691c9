import type { DocumentStats } from "../types.js";

/**
 * Below this many documents whose summed difference b − a is not 0, compare warns that its
 * intervals of a paired difference cannot be trusted. From ragci's paired studies
 * (bench/method-guide/paired.json): on tie-heavy censuses the intervals miss mostly in the
 * samples where few documents differ (every other document is a tie, so the sample says little
 * about the differences' tail), and macro t covered ≥ 92% among the samples with at least 8.
 */
export const FEWEST_DIFFERING_DOCUMENTS = 8;

/** Documents whose summed difference b − a is not exactly 0 (the others are ties). */
export function differingDocuments(difference: DocumentStats): number {
  let count = 0;
  for (const s of difference.s) if (s !== 0) count++;
  return count;
}
