import fc from "fast-check";
import { type DocumentStats, documentStats } from "../../src/core/index.js";

export interface GeneratedDocuments {
  readonly n: number[];
  readonly s: number[];
}

/** 2–40 documents with 1–200 binary results each, s_d ≤ n_d. */
export const binaryDocuments: fc.Arbitrary<GeneratedDocuments> = fc
  .array(
    fc
      .integer({ min: 1, max: 200 })
      .chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n }))),
    { minLength: 2, maxLength: 40 },
  )
  .map((docs) => ({ n: docs.map((d) => d[0]), s: docs.map((d) => d[1]) }));

/** Equal sizes: K documents of n results each. */
export const equalSizeDocuments: fc.Arbitrary<GeneratedDocuments> = fc
  .tuple(fc.integer({ min: 2, max: 40 }), fc.integer({ min: 1, max: 100 }))
  .chain(([k, n]) =>
    fc
      .array(fc.integer({ min: 0, max: n }), { minLength: k, maxLength: k })
      .map((s) => ({ n: s.map(() => n), s })),
  );

export function toStats(
  docs: GeneratedDocuments,
  order: readonly number[] = docs.n.map((_, i) => i),
): DocumentStats {
  return documentStats({
    ids: order.map((i) => `d${String(i).padStart(3, "0")}`),
    n: order.map((i) => docs.n[i] as number),
    s: order.map((i) => docs.s[i] as number),
  });
}

export function relativeClose(a: number, b: number, tolerance = 1e-10): boolean {
  if (a === b) return true;
  return (
    Math.abs(a - b) <= tolerance * Math.max(Math.abs(a), Math.abs(b), 1e-300) ||
    Math.abs(a - b) < 1e-15
  );
}
