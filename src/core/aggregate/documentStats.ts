import { RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";

export interface DocumentStatsInput {
  readonly ids: readonly string[];
  readonly n: ArrayLike<number>;
  readonly s: ArrayLike<number>;
  /** Sums of squares; omitted for 0/1 metrics, where ss_d = s_d. */
  readonly ss?: ArrayLike<number>;
  /** Whether every result is 0 or 1. Defaults to true when `ss` is omitted. */
  readonly binary?: boolean;
  readonly min?: number | null;
  readonly max?: number | null;
  /** The caller guarantees distinct ids (a GROUP BY result): skip the duplicate check. */
  readonly idsDistinct?: boolean;
}

/** Relative slack for ss ≥ s²/n: sums read back from text or added in another order round. */
const SUM_OF_SQUARES_TOLERANCE = 1e-9;

/**
 * Validates per-document sums once, at the boundary, and returns them as Float64Arrays.
 *
 * @throws RagciError "invalid-document-stats" for a non-finite sum, n_d ≤ 0, a repeated id,
 *   ss_d < 0 or ss_d < s_d²/n_d (impossible sums), or binary data with s_d outside [0, n_d].
 * @example documentStats({ ids: ["a", "b"], n: [2, 3], s: [1, 3] }) // binary: ss = s
 *   // => { ids: ["a", "b"], n: [2, 3], s: [1, 3], ss: [1, 3], binary: true }
 */
export function documentStats(input: DocumentStatsInput): DocumentStats {
  const k = input.ids.length;
  if (input.n.length !== k || input.s.length !== k || (input.ss && input.ss.length !== k)) {
    throw new RagciError(
      "invalid-document-stats",
      `ids, n, s and ss must have the same length (got ${k}, ${input.n.length}, ${input.s.length}${input.ss ? `, ${input.ss.length}` : ""})`,
    );
  }
  const binary = input.binary ?? input.ss === undefined;
  const n = Float64Array.from(input.n);
  const s = Float64Array.from(input.s);
  const ss = Float64Array.from(input.ss ?? input.s);
  const seen = input.idsDistinct ? null : new Set<string>();
  for (let d = 0; d < k; d++) {
    const id = input.ids[d] as string;
    if (seen?.has(id)) {
      throw new RagciError("invalid-document-stats", `document "${id}" appears twice`, {
        document: id,
      });
    }
    seen?.add(id);
    const nd = n[d] as number;
    const sd = s[d] as number;
    const ssd = ss[d] as number;
    if (!(Number.isInteger(nd) && nd > 0)) {
      throw new RagciError(
        "invalid-document-stats",
        `document "${id}" has n = ${nd}; n counts the document's results: a whole number ≥ 1`,
        { document: id },
      );
    }
    if (!Number.isFinite(sd) || !Number.isFinite(ssd)) {
      throw new RagciError(
        "invalid-document-stats",
        `document "${id}" has a non-finite sum (s = ${sd}, ss = ${ssd})`,
        { document: id },
      );
    }
    if (binary && (sd < 0 || sd > nd || !Number.isInteger(sd))) {
      throw new RagciError(
        "invalid-document-stats",
        `document "${id}" has s = ${sd} with n = ${nd}: a 0/1 metric needs an integer s between 0 and n (give ss for a non-binary metric)`,
        { document: id },
      );
    }
    // n values with sum s have Σx² ≥ s²/n (Cauchy–Schwarz); allow rounding of the sums.
    const floor = (sd * sd) / nd;
    if (ssd < 0 || ssd < floor - SUM_OF_SQUARES_TOLERANCE * Math.max(floor, 1)) {
      throw new RagciError(
        "invalid-document-stats",
        ssd < 0
          ? `document "${id}" has ss = ${ssd}: a sum of squares cannot be negative; check the ss column`
          : `document "${id}" has ss = ${ssd} below s²/n = ${floor} (s = ${sd}, n = ${nd}): no ${nd} values have these sums; check the s and ss columns`,
        { document: id },
      );
    }
  }
  const range = binary ? { min: 0, max: 1 } : { min: input.min ?? null, max: input.max ?? null };
  return { ids: input.ids.slice(), n, s, ss, binary, min: range.min, max: range.max };
}
