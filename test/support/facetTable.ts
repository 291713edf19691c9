import type { FacetSourceColumns } from "../../src/ingest/sql/facetCellsWarehouseSql.js";
import { mulberry32 } from "./mulberry32.js";

/**
 * A faceted per-trial table for the warehouse statements (hand-generated, seeded): two systems,
 * 7 documents of 1–4 queries, 3 judges, 2 wordings, 1–3 trials (an unbalanced cell or two
 * without a result), and values of three kinds — 0/1, reals near 0.5, and reals near 10⁶ with
 * a spread of 10⁻³ (where Σx² − (Σx)²/n would cancel to noise) — and cells whose trials are
 * equal (within-cell sum of squares exactly 0).
 */
export function facetTableRows(): string[][] {
  const random = mulberry32(28);
  const rows: string[][] = [];
  for (const system of ["a", "b"])
    for (let d = 0; d < 7; d++)
      for (let q = 0; q < 1 + (d % 4); q++)
        for (const judge of ["lenient", "medium", "strict"])
          for (const variant of ["v1", "v2"]) {
            if (d === 3 && q === 0 && judge === "strict" && variant === "v2") continue;
            const trials = 1 + ((d + q) % 3);
            const constant = (d + q) % 5 === 0;
            const base = 0.5 + 0.3 * random();
            for (let t = 1; t <= trials; t++) {
              const r = constant ? 0.25 : random();
              const hit = r < base ? 1 : 0;
              const big = 1e6 + d + (constant ? 0.5 : 1e-3 * random());
              rows.push([
                `d${d}`,
                `d${d}q${q}`,
                system,
                String(t),
                judge,
                variant,
                String(hit),
                String(r),
                String(big),
              ]);
            }
          }
  return rows;
}

export const FACET_TABLE_HEADER = [
  "doc_id",
  "query_id",
  "system",
  "epoch",
  "judge",
  "wording",
  "hit",
  "score",
  "big",
] as const;

/** The table as CSV text, with its header. */
export function facetTableCsv(): string {
  return `${[FACET_TABLE_HEADER.join(","), ...facetTableRows().map((r) => r.join(","))].join("\n")}\n`;
}

/**
 * Each (system, metric) cell's n, Σx and Σ(x − x̄)² recomputed from the rows in two passes
 * (the mean first, then the squared deviations), keyed "system|doc|query|judge|wording".
 */
export function twoPassCells(
  metric: "hit" | "score" | "big",
): Map<string, { n: number; sum: number; within: number }> {
  const column = FACET_TABLE_HEADER.indexOf(metric);
  const groups = new Map<string, number[]>();
  for (const r of facetTableRows()) {
    const key = [r[2], r[0], r[1], r[4], r[5]].join("|");
    const values = groups.get(key) ?? [];
    values.push(Number(r[column]));
    groups.set(key, values);
  }
  const out = new Map<string, { n: number; sum: number; within: number }>();
  for (const [key, values] of groups) {
    const sum = values.reduce((t, x) => t + x, 0);
    const mean = sum / values.length;
    const within = values.reduce((t, x) => t + (x - mean) ** 2, 0);
    out.set(key, { n: values.length, sum, within });
  }
  return out;
}

/** One system × metric's cells as readFacetCells returns them. */
interface CellsOfSystem {
  readonly system: string | null;
  readonly metric: string;
  readonly cells: {
    readonly document: Int32Array;
    readonly query: Int32Array;
    readonly judge: Int32Array | null;
    readonly variant: Int32Array | null;
    readonly n: Float64Array;
    readonly sum: Float64Array;
    readonly withinSumOfSquares: Float64Array;
    readonly labels: {
      readonly documents: readonly string[];
      readonly judges: readonly string[] | null;
      readonly variants: readonly string[] | null;
    };
  };
}

/**
 * A warehouse's cells against the file path's (the same codes, labels and counts) and both
 * against the two-pass recomputation: Σx to 1e-15 relative (+ n·0.5·10⁻¹⁸, the rounding to
 * 18 decimals), Σ(x − x̄)² to 1e-9 relative or 1e-12 absolute, never negative, exactly 0 where
 * a cell's trials are equal. `tolerance` widens Σx's bound (PostgreSQL's numeric on DuckDB).
 */
export function expectCellsLikeFile(
  got: readonly CellsOfSystem[],
  file: readonly CellsOfSystem[],
  expect: (v: unknown, m?: string) => any,
): void {
  expect(got.map((c) => [c.system, c.metric])).toEqual(file.map((c) => [c.system, c.metric]));
  got.forEach((g, k) => {
    const f = file[k] as CellsOfSystem;
    expect(g.cells.labels).toEqual(f.cells.labels);
    expect([...g.cells.document]).toEqual([...f.cells.document]);
    expect([...g.cells.query]).toEqual([...f.cells.query]);
    expect([...(g.cells.judge ?? [])]).toEqual([...(f.cells.judge ?? [])]);
    expect([...(g.cells.variant ?? [])]).toEqual([...(f.cells.variant ?? [])]);
    expect([...g.cells.n]).toEqual([...f.cells.n]);
    const truth = twoPassCells(g.metric as "hit");
    const queries: string[] = [];
    // Query labels are not kept in the cells: the k-th distinct query of the document order.
    const ids = [...truth.keys()].filter((key) => key.startsWith(`${g.system}|`));
    for (const key of ids) {
      const q = key.split("|")[2] as string;
      if (!queries.includes(q)) queries.push(q);
    }
    for (let c = 0; c < g.cells.n.length; c++) {
      const doc = g.cells.labels.documents[g.cells.document[c] as number];
      const judge = g.cells.labels.judges?.[g.cells.judge?.[c] as number];
      const variant = g.cells.labels.variants?.[g.cells.variant?.[c] as number];
      const key = ids.find((id) => {
        const [, d, , j, w] = id.split("|");
        return (
          d === doc &&
          j === judge &&
          w === variant &&
          queries.indexOf(id.split("|")[2] as string) === (g.cells.query[c] as number)
        );
      });
      const want = truth.get(key as string);
      expect(want, `cell ${c} of ${g.system}/${g.metric}`).toBeDefined();
      if (!want) continue;
      expect(g.cells.n[c]).toBe(want.n);
      const sum = g.cells.sum[c] as number;
      expect(Math.abs(sum - want.sum)).toBeLessThanOrEqual(
        1e-15 * Math.abs(want.sum) + want.n * 0.5e-18,
      );
      const within = g.cells.withinSumOfSquares[c] as number;
      expect(within).toBeGreaterThanOrEqual(0);
      if (want.within === 0) expect(within, `${key}: equal trials`).toBe(0);
      expect(Math.abs(within - want.within)).toBeLessThanOrEqual(
        Math.max(1e-9 * want.within, 1e-12),
      );
    }
  });
}

/** The table's columns as the warehouse statement names them. */
export const FACET_COLUMNS: FacetSourceColumns = {
  doc: "doc_id",
  query: "query_id",
  system: "system",
  systems: null,
  trial: "epoch",
  judge: "judge",
  variant: "wording",
  metrics: ["hit", "score", "big"],
};
