import { choiceWithoutReplacement } from "../numeric/choiceWithoutReplacement.js";
import { createPcg64 } from "../numeric/pcg64.js";
import type { DocumentStats } from "../types.js";

/**
 * Repetition i's simple random sample of K of the census's M documents, in the order numpy
 * draws them: `Generator(PCG64(SeedSequence(seed, spawn_key=(i, 0)))).choice(M, K,
 * replace=False)`. The census is in code-point order of its ids (as ragci ingests it), so the
 * same repetition can be replayed in numpy from the same table.
 */
export function sampleIndices(
  documents: number,
  population: number,
  seed: number,
  repetition: number,
): Uint32Array {
  return choiceWithoutReplacement(createPcg64(seed, [repetition, 0]), population, documents);
}

/** The per-document sums of the sampled documents, in the sample's order. */
export function sampleStats(census: DocumentStats, indices: Uint32Array): DocumentStats {
  const k = indices.length;
  const n = new Float64Array(k);
  const s = new Float64Array(k);
  const ss = new Float64Array(k);
  const ids: string[] = new Array(k);
  for (let j = 0; j < k; j++) {
    const d = indices[j] as number;
    n[j] = census.n[d] as number;
    s[j] = census.s[d] as number;
    ss[j] = census.ss[d] as number;
    ids[j] = census.ids[d] as string;
  }
  return { ids, n, s, ss, binary: census.binary, min: census.min, max: census.max };
}
