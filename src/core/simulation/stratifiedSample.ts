import type { AllocationRule } from "../designs/allocation.js";
import { allocate } from "../designs/allocation.js";
import { stratumStandardDeviations } from "../designs/predictedStandardErrors.js";
import { sizeStrataToSample } from "../designs/sizeStrata.js";
import { choiceWithoutReplacement } from "../numeric/choiceWithoutReplacement.js";
import { createPcg64 } from "../numeric/pcg64.js";
import type { DocumentStats } from "../types.js";

/** A stratified study's design: the census's strata and how many documents each gets. */
export interface StudyStrata {
  readonly names: readonly string[];
  /** Census positions of each stratum's documents, in census order. */
  readonly members: readonly (readonly number[])[];
  /** k_h per stratum (Σ k_h = K). */
  readonly sampled: readonly number[];
}

/**
 * The size strata of `ragci strata` (large: n_d > cutoff) with K allocated by `rule` (Neyman on
 * the micro S_h, as strata does), checked so that no stratum is empty (one of a single
 * document is taken whole).
 */
export function sizeStudyStrata(
  census: DocumentStats,
  cutoff: number,
  documents: number,
  rule: AllocationRule,
): StudyStrata {
  const strata = sizeStrataToSample(census, cutoff);
  const sampled = allocate(
    documents,
    strata.map((h) => ({
      population: h.documents.length,
      sd: stratumStandardDeviations(census, h).micro,
    })),
    rule,
  );
  return { names: strata.map((h) => h.name), members: strata.map((h) => h.documents), sampled };
}

/**
 * Repetition i's stratified sample: from the generator of SeedSequence(seed, spawn_key=(i, 0)),
 * stratum after stratum in order, `choice(M_h, k_h, replace=False)` over that stratum's
 * documents (census order). Returns census positions and each one's stratum name.
 */
export function stratifiedIndices(
  strata: StudyStrata,
  seed: number,
  repetition: number,
): { readonly indices: Uint32Array; readonly labels: string[] } {
  const generator = createPcg64(seed, [repetition, 0]);
  const total = strata.sampled.reduce((t, k) => t + k, 0);
  const indices = new Uint32Array(total);
  const labels: string[] = [];
  let at = 0;
  strata.members.forEach((members, h) => {
    const k = strata.sampled[h] as number;
    const drawn = choiceWithoutReplacement(generator, members.length, k);
    for (const j of drawn) {
      indices[at++] = members[j] as number;
      labels.push(strata.names[h] as string);
    }
  });
  return { indices, labels };
}
