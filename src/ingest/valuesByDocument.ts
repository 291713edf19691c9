import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import type { DocumentStats } from "../core/types.js";

/**
 * Per-query values grouped by document, in `stats`' id order, sorted within each document: what
 * the chunk bootstrap of a non-binary metric draws from (resultValues.ts and pairedSums.ts read
 * the same with `ORDER BY doc, v`). `each` calls back with every (document id, value).
 */
export function valuesByDocument(
  stats: DocumentStats,
  each: (add: (doc: string, x: number) => void) => void,
): ResultValues {
  const at = new Map(stats.ids.map((id, d) => [id, d]));
  const byDoc = stats.ids.map((): number[] => []);
  each((doc, x) => {
    (byDoc[at.get(doc) as number] as number[]).push(x);
  });
  const offsets = new Uint32Array(stats.n.length + 1);
  for (let d = 0; d < stats.n.length; d++)
    offsets[d + 1] = (offsets[d] as number) + (stats.n[d] as number);
  const values = new Float64Array(offsets[stats.n.length] as number);
  byDoc.forEach((xs, d) => {
    xs.sort((u, v) => u - v);
    values.set(xs, offsets[d] as number);
  });
  return { offsets, values };
}
