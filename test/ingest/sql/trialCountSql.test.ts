import { describe, expect, it } from "vitest";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import { dialect } from "../../../src/ingest/sql/dialects.js";
import { facetCellsSql } from "../../../src/ingest/sql/facetCellsSql.js";
import {
  TRIAL_SPAN,
  type TrialCount,
  trialCountFor,
} from "../../../src/ingest/sql/trialCountSql.js";

/** A seeded generator (mulberry32), so the cells are the same on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BIGINT_MAX = 2n ** 63n - 1n;

/**
 * 400 cells of 1–6 integer trial labels (as text, as a file's integer column reads): repeats,
 * NULLs, negatives, spans either side of TRIAL_SPAN, BIGINT's ends, and labels equal modulo
 * TRIAL_SPAN but different (k and k + TRIAL_SPAN in a cell that spans too far to count by bits).
 */
function cells(): (bigint | null)[][] {
  const next = random(127);
  const pick = (xs: readonly bigint[]) => xs[Math.floor(next() * xs.length)] as bigint;
  const out: (bigint | null)[][] = [];
  for (let c = 0; c < 400; c++) {
    const base = pick([0n, 1n, -300n, BIGINT_MAX - 200n, -BIGINT_MAX - 1n, 5000n]);
    const width = pick([1n, 3n, 126n, 127n, 128n, 1000n, BIGINT_MAX]);
    const n = 1 + Math.floor(next() * 6);
    const labels: (bigint | null)[] = [];
    for (let i = 0; i < n; i++) {
      const r = next();
      if (r < 0.08) labels.push(null);
      else if (r < 0.2 && labels.length > 0)
        labels.push(labels[Math.floor(next() * labels.length)] ?? null);
      else if (r < 0.3) labels.push(base + (labels.length % 2 === 0 ? 0n : BigInt(TRIAL_SPAN)));
      else {
        const offset = BigInt(Math.floor(next() * 2 ** 52)) % width;
        const label = base + offset;
        labels.push(label > BIGINT_MAX ? BIGINT_MAX : label);
      }
    }
    out.push(labels);
  }
  return out;
}

/** Each cell's trials as the cells statement counts them in mode `kind`, in cell order. */
async function trialsOf(data: (bigint | null)[][], kind: TrialCount): Promise<(number | null)[]> {
  const values = data
    .flatMap((labels, c) =>
      labels.map((t) => `('c${String(c).padStart(4, "0")}', ${t === null ? "NULL" : `'${t}'`})`),
    )
    .join(", ");
  const rows = `SELECT 'd' AS doc, NULL::VARCHAR AS sys, q, t, NULL::VARCHAR AS j, NULL::VARCHAR AS w, 1.0::DOUBLE AS v0 FROM (VALUES ${values}) AS v(q, t)`;
  const got = await withDuckDb((c) =>
    queryRows(c, facetCellsSql(dialect("duckdb"), rows, 1, kind)),
  );
  return got.map((r) => (r.trials === null ? null : Number(r.trials)));
}

describe("trialCountSql: a cell's distinct trial labels without count(DISTINCT t)", () => {
  const data = cells();
  // Recomputed from the labels: distinct non-NULL values, and whether they span < TRIAL_SPAN.
  const distinct = data.map((labels) => new Set(labels.filter((t) => t !== null)).size);
  const narrow = data.map((labels) => {
    const present = labels.filter((t) => t !== null);
    if (present.length === 0) return true;
    // BigInts: Math.min and Math.max take numbers only.
    const sorted = [...present].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return (sorted.at(-1) as bigint) - (sorted[0] as bigint) < BigInt(TRIAL_SPAN);
  });

  it("counts what count(DISTINCT t) counts, by list and by bits, and the bits leave a wide cell NULL", async () => {
    expect(await trialsOf(data, "distinct")).toEqual(distinct);
    expect(await trialsOf(data, "labels")).toEqual(distinct);
    expect(await trialsOf(data, "integers")).toEqual(
      distinct.map((d, c) => (narrow[c] ? d : null)),
    );
    // The draw covers both sides of the span and repeated labels on each.
    expect(narrow.filter((x) => x).length).toBeGreaterThan(50);
    expect(narrow.filter((x) => !x).length).toBeGreaterThan(50);
    expect(
      data.filter(
        (l, c) => narrow[c] && l.filter((t) => t !== null).length > (distinct[c] as number),
      ).length,
    ).toBeGreaterThan(10);
  });

  it("leaves a cell NULL for the bits when a label is not an integer (counted again by label)", async () => {
    const rows = `SELECT 'd' AS doc, NULL::VARCHAR AS sys, q, t, NULL::VARCHAR AS j, NULL::VARCHAR AS w, 1.0::DOUBLE AS v0 FROM (VALUES ('q1', '1'), ('q1', 'x'), ('q1', 'x'), ('q2', '1'), ('q2', '2')) AS v(q, t)`;
    const got = await withDuckDb((c) =>
      queryRows(c, facetCellsSql(dialect("duckdb"), rows, 1, "integers")),
    );
    expect(got.map((r) => r.trials)).toEqual([null, 2]);
  });

  it("counts by bits only a trial column of integers a BIGINT holds", () => {
    expect(trialCountFor("BIGINT")).toBe("integers");
    expect(trialCountFor("UTINYINT")).toBe("integers");
    expect(trialCountFor("UBIGINT")).toBe("labels");
    expect(trialCountFor("HUGEINT")).toBe("labels");
    expect(trialCountFor("VARCHAR")).toBe("labels");
    expect(trialCountFor("DOUBLE")).toBe("labels");
    expect(trialCountFor(null)).toBe("labels");
  });

  it("stays count(DISTINCT t) in the other dialects", () => {
    expect(() => facetCellsSql(dialect("postgres"), "SELECT 1", 1, "labels")).toThrow(
      /DuckDB's only/,
    );
    expect(facetCellsSql(dialect("postgres"), "SELECT 1", 1)).toContain("count(DISTINCT t)");
  });
});
