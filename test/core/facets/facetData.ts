/**
 * Seeded faceted data for the facet tests: trial rows (document, query, judge, variant, y) from
 * y = μ + a_d + b_dq + c_j + e_dj + f_v + ε, and the cells a reader would produce from them,
 * recomputed here from the rows (n, sum, two-pass within sum of squares).
 */
import type { FacetCells } from "../../../src/core/index.js";
import { mulberry32 } from "../../support/mulberry32.js";

export interface TrialRows {
  readonly doc: number[];
  readonly query: number[];
  readonly judge: number[] | null;
  readonly variant: number[] | null;
  readonly y: number[];
}

export interface DesignSpec {
  readonly seed: number;
  readonly documents: number;
  /** Queries per document: a number (balanced) or [min, max] drawn per document. */
  readonly queries: number | readonly [number, number];
  readonly judges: number; // 0: no judge facet
  readonly variants: number; // 0: no variant facet
  /** Trials per cell: a number or [min, max] drawn per cell. */
  readonly trials: number | readonly [number, number];
  /** Probability that a (query, judge, variant) cell is missing (unbalanced designs). */
  readonly missing?: number;
  readonly sd: {
    readonly document: number;
    readonly query: number;
    readonly judge: number;
    readonly documentJudge: number;
    readonly variant: number;
    readonly residual: number;
  };
  /** Round y to 0/1 at 0.5 (binary outcomes). */
  readonly binary?: boolean;
}

export function normalSource(rand: () => number): () => number {
  return () => {
    const u = 1 - rand();
    const v = rand();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
}

function draw(range: number | readonly [number, number], rand: () => number): number {
  if (typeof range === "number") return range;
  return range[0] + Math.floor(rand() * (range[1] - range[0] + 1));
}

export function trialRows(spec: DesignSpec): TrialRows {
  const rand = mulberry32(spec.seed);
  const normal = normalSource(rand);
  const judges = Math.max(spec.judges, 1);
  const variants = Math.max(spec.variants, 1);
  const c = Array.from({ length: judges }, () => spec.sd.judge * normal());
  const f = Array.from({ length: variants }, () => spec.sd.variant * normal());
  const rows: TrialRows = {
    doc: [],
    query: [],
    judge: spec.judges > 0 ? [] : null,
    variant: spec.variants > 0 ? [] : null,
    y: [],
  };
  let queryCode = 0;
  for (let d = 0; d < spec.documents; d++) {
    const a = spec.sd.document * normal();
    const e = Array.from({ length: judges }, () => spec.sd.documentJudge * normal());
    const nq = draw(spec.queries, rand);
    for (let q = 0; q < nq; q++) {
      const b = spec.sd.query * normal();
      let kept = 0;
      for (let j = 0; j < judges; j++) {
        for (let v = 0; v < variants; v++) {
          const last = j === judges - 1 && v === variants - 1;
          // Never leave a query without a cell.
          if (spec.missing && rand() < spec.missing && !(last && kept === 0)) continue;
          kept++;
          const t = draw(spec.trials, rand);
          for (let r = 0; r < t; r++) {
            const value =
              0.5 +
              a +
              b +
              (c[j] as number) +
              (e[j] as number) +
              (f[v] as number) +
              spec.sd.residual * normal();
            rows.doc.push(d);
            rows.query.push(queryCode);
            rows.judge?.push(j);
            rows.variant?.push(v);
            rows.y.push(spec.binary ? (value > 0.5 ? 1 : 0) : value);
          }
        }
      }
      queryCode++;
    }
  }
  return rows;
}

/** The cells of trial rows: one per (document, query, judge, variant), in first-seen order. */
export function cellsFromRows(rows: TrialRows): FacetCells {
  const index = new Map<string, number>();
  const members: number[][] = [];
  for (let i = 0; i < rows.y.length; i++) {
    const key = `${rows.doc[i]}/${rows.query[i]}/${rows.judge?.[i] ?? -1}/${rows.variant?.[i] ?? -1}`;
    let c = index.get(key);
    if (c === undefined) {
      c = members.length;
      index.set(key, c);
      members.push([]);
    }
    members[c]?.push(i);
  }
  const first = members.map((m) => m[0] as number);
  const n = Float64Array.from(members, (m) => m.length);
  const sum = Float64Array.from(members, (m) => m.reduce((s, i) => s + (rows.y[i] as number), 0));
  const within = Float64Array.from(members, (m, c) => {
    const mean = (sum[c] as number) / m.length;
    return m.reduce((s, i) => s + ((rows.y[i] as number) - mean) ** 2, 0);
  });
  const documents = new Set(rows.doc).size;
  return {
    document: Int32Array.from(first, (i) => rows.doc[i] as number),
    query: Int32Array.from(first, (i) => rows.query[i] as number),
    judge: rows.judge ? Int32Array.from(first, (i) => rows.judge?.[i] as number) : null,
    variant: rows.variant ? Int32Array.from(first, (i) => rows.variant?.[i] as number) : null,
    n,
    sum,
    withinSumOfSquares: within,
    labels: {
      documents: Array.from({ length: documents }, (_, d) => `doc${d}`),
      judges: rows.judge ? Array.from(new Set(rows.judge), (j) => `judge${j}`) : null,
      variants: rows.variant ? Array.from(new Set(rows.variant), (v) => `variant${v}`) : null,
    },
  };
}
