import { uniformSource } from "../numeric/uniform.js";
import type { SizeStrataDesign } from "./sizeStrataDesign.js";

/**
 * A seeded stratified sample of the design's documents for one allocation: in each stratum a
 * partial Fisher–Yates shuffle of its documents (census order) whose first K_h positions are
 * an SRS of the stratum. Returns [document id, stratum name] pairs, stratum by stratum.
 *
 * @example // every large document and 2 of the 3 small ones; the order is numpy's
 *   // np.random.default_rng(1).random() driving the same shuffle
 *   drawStratifiedSample(sizeStrataDesign(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [2, 2, 3, 10, 12, 20], s: [1, 1, 3, 3, 4, 2] }), 5, 3), [3, 2], ["a", "b", "c", "d", "e", "f"], 1)
 *   // => [["e", "large"], ["f", "large"], ["d", "large"], ["c", "small"], ["b", "small"]]
 */
export function drawStratifiedSample(
  design: SizeStrataDesign,
  sampled: readonly number[],
  ids: readonly string[],
  seed: number,
): [string, string][] {
  const uniform = uniformSource(seed);
  const sample: [string, string][] = [];
  design.strata.forEach((h, i) => {
    const pool = [...h.documents];
    const take = sampled[i] ?? 0;
    for (let j = 0; j < take; j++) {
      const pick = j + Math.floor(uniform() * (pool.length - j));
      [pool[j], pool[pick]] = [pool[pick] as number, pool[j] as number];
      sample.push([ids[pool[j] as number] as string, h.name]);
    }
  });
  return sample;
}
