import { RagciError } from "../errors.js";
import { DecimalSum } from "../numeric/decimalSum.js";
import type { DocumentStats } from "../types.js";
import { documentStats } from "./documentStats.js";
import { compareCodePoints } from "./mergeDocumentStats.js";
import { isBadValue, isMissingId, ROW_RULES } from "./rowRules.js";

export interface RowsOptions {
  /** Name of the document id field. */
  readonly doc: string;
  /** Name of the metric field (finite numbers; booleans count as 0/1). */
  readonly metric: string;
}

/**
 * Aggregates in-memory result rows to per-document sums (n, s, ss, min, max), documents in
 * code-point order of their ids, with the sums a file of the same rows gets (ingest's
 * summation.ts), bit for bit: whole numbers whose sums stay below 2⁵³ are added as integers
 * (exact in any order, as a file's integer column); other values exactly in DECIMAL(38, 18)
 * (DecimalSum); values beyond it in doubles, in row order (a file's rows on one thread).
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
  if (rows.length === 0)
    throw new RagciError("empty-input", "no rows; there is nothing to analyse");
  const indexOf = new Map<string, number>();
  const docOf = new Uint32Array(rows.length);
  const values = new Float64Array(rows.length);
  let binary = true;
  let whole = true;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  rows.forEach((row, i) => {
    const id = row[options.doc];
    if (isMissingId(id)) {
      throw new RagciError(
        "invalid-value",
        `row ${i}: field ${options.doc} is empty; ${ROW_RULES.document.need}`,
        { row: i, column: options.doc },
      );
    }
    const raw = row[options.metric];
    const x = typeof raw === "boolean" ? Number(raw) : typeof raw === "number" ? raw : Number.NaN;
    if (isBadValue(x)) {
      throw new RagciError(
        "invalid-value",
        `row ${i}: field ${options.metric} is ${JSON.stringify(raw)}, not a finite number; ${ROW_RULES.metric.need}`,
        { row: i, column: options.metric },
      );
    }
    const key = String(id);
    let d = indexOf.get(key);
    if (d === undefined) {
      d = indexOf.size;
      indexOf.set(key, d);
    }
    docOf[i] = d;
    values[i] = x;
    if (x !== 0 && x !== 1) binary = false;
    if (whole && x !== Math.floor(x)) whole = false;
    if (x < min) min = x;
    if (x > max) max = x;
  });
  const sums = documentSums(docOf, values, indexOf.size, whole);
  const ids = [...indexOf.keys()].sort(compareCodePoints);
  const at = ids.map((id) => indexOf.get(id) as number);
  return documentStats({
    ids,
    n: at.map((d) => sums.n[d] as number),
    s: at.map((d) => sums.s[d] as number),
    ss: at.map((d) => sums.ss[d] as number),
    binary,
    min,
    max,
    idsDistinct: true,
  });
}

interface Sums {
  readonly n: Float64Array;
  readonly s: Float64Array;
  readonly ss: Float64Array;
}

/**
 * n, Σx and Σx² per document (indices `docOf`), by summation.ts's policy: integer sums when
 * every value is whole and Σ over documents of Σx² stays below 2⁵³ (then every partial sum is
 * an exact integer), else DECIMAL(38, 18), else (a value or sum beyond it) doubles in row order.
 */
function documentSums(docOf: Uint32Array, values: Float64Array, k: number, whole: boolean): Sums {
  const plain = (): Sums => {
    const n = new Float64Array(k);
    const s = new Float64Array(k);
    const ss = new Float64Array(k);
    for (let i = 0; i < values.length; i++) {
      const d = docOf[i] as number;
      const x = values[i] as number;
      n[d] = (n[d] as number) + 1;
      s[d] = (s[d] as number) + x;
      ss[d] = (ss[d] as number) + x * x;
    }
    return { n, s, ss };
  };
  const first = plain();
  if (whole && first.ss.reduce((t, v) => t + v, 0) < 2 ** 53) return first;
  const s = Array.from({ length: k }, () => new DecimalSum());
  const ss = Array.from({ length: k }, () => new DecimalSum());
  for (let i = 0; i < values.length; i++) {
    const x = values[i] as number;
    (s[docOf[i] as number] as DecimalSum).add(x);
    (ss[docOf[i] as number] as DecimalSum).add(x * x);
  }
  if (!s.every((t) => t.fits) || !ss.every((t) => t.fits)) return first;
  return {
    n: first.n,
    s: Float64Array.from(s, (t) => t.value()),
    ss: Float64Array.from(ss, (t) => t.value()),
  };
}
