import { RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";
import { documentStats } from "./documentStats.js";
import { compareCodePoints } from "./mergeDocumentStats.js";

export interface RowsOptions {
  /** Name of the document id field. */
  readonly doc: string;
  /** Name of the metric field (finite numbers; booleans count as 0/1). */
  readonly metric: string;
}

/**
 * Aggregates in-memory result rows to per-document sums (n, s, ss, min, max), documents in
 * code-point order of their ids. For files use the DuckDB ingestion instead.
 *
 * @throws RagciError "invalid-value" naming the row (0-based) of a missing id or a non-finite value
 *
 * @example documentStatsFromRows([{ doc: "a", hit: 1 }, { doc: "a", hit: 0 }, { doc: "b", hit: 1 }], { doc: "doc", metric: "hit" })
 *   // => { ids: ["a", "b"], n: [2, 1], s: [1, 1], binary: true }
 */
export function documentStatsFromRows(
  rows: readonly Readonly<Record<string, unknown>>[],
  options: RowsOptions,
): DocumentStats {
  const sums = new Map<string, { n: number; s: number; ss: number }>();
  let binary = true;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  rows.forEach((row, i) => {
    const id = row[options.doc];
    if (id === undefined || id === null || String(id).trim() === "") {
      throw new RagciError(
        "invalid-value",
        `row ${i}: field ${options.doc} is empty; every result needs a document id`,
        { row: i, column: options.doc },
      );
    }
    const raw = row[options.metric];
    const x = typeof raw === "boolean" ? Number(raw) : typeof raw === "number" ? raw : Number.NaN;
    if (!Number.isFinite(x)) {
      throw new RagciError(
        "invalid-value",
        `row ${i}: field ${options.metric} is ${JSON.stringify(raw)}, not a finite number`,
        { row: i, column: options.metric },
      );
    }
    const key = String(id);
    const t = sums.get(key) ?? { n: 0, s: 0, ss: 0 };
    t.n += 1;
    t.s += x;
    t.ss += x * x;
    sums.set(key, t);
    if (x !== 0 && x !== 1) binary = false;
    if (x < min) min = x;
    if (x > max) max = x;
  });
  if (rows.length === 0)
    throw new RagciError("empty-input", "no rows; there is nothing to analyse");
  const ids = [...sums.keys()].sort(compareCodePoints);
  const at = (id: string) => sums.get(id) as { n: number; s: number; ss: number };
  return documentStats({
    ids,
    n: ids.map((id) => at(id).n),
    s: ids.map((id) => at(id).s),
    ss: ids.map((id) => at(id).ss),
    binary,
    min,
    max,
  });
}
