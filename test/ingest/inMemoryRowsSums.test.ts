import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { documentStatsFromRows } from "../../src/core/index.js";
import { readResultsWithDuckDb } from "../../src/ingest/readResults.js";
import { scratchDir } from "../cli/runCli.js";
import { plainStats } from "../support/plainStats.js";

const dir = scratchDir();

/** Values that test the sums: 0/1, ties, large integers, and values where plain sums lose bits. */
const value = fc.oneof(
  fc.constantFrom(0, 1),
  fc.integer({ min: -1000, max: 1000 }),
  fc.constantFrom(0.1, 0.2, 0.3, 1e15 + 0.5, -1e15, 1e-19, 5e-19, 0.7, 2 ** 40, 2 ** 52 + 2),
  fc.integer({ min: -(2 ** 45), max: 2 ** 45 }),
  fc.double({ min: -1e9, max: 1e9, noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(1e12 + 0.1, -1e12, 12345678901.25, -12345678900),
);

/** Rows of a few documents: all 0/1, all whole numbers, or any of the values above. */
const rows = fc
  .oneof(
    fc.constant(fc.constantFrom(0, 1)),
    fc.constant(fc.integer({ min: -(2 ** 30), max: 2 ** 30 })),
    fc.constant(value),
  )
  .chain((values) =>
    fc.array(fc.record({ doc: fc.constantFrom("a", "b", "c", "d10", "d2"), x: values }), {
      minLength: 1,
      maxLength: 60,
    }),
  );

let files = 0;

/**
 * The rows as a CSV, read by DuckDB's file path (which sums on several threads): called by name,
 * as readResults would read so small a file without DuckDB (with DecimalSum itself).
 */
async function fromFile(data: readonly { doc: string; x: number }[]) {
  const file = join(dir, `rows${files++}.csv`);
  // String(x) is the shortest text that reads back as the same double.
  writeFileSync(file, `doc_id,x\n${data.map((r) => `${r.doc},${String(r.x)}`).join("\n")}\n`);
  const options = { file, metrics: ["x"], systemIfPresent: null, threads: 4 };
  const table = await readResultsWithDuckDb(options, file, "csv");
  return plainStats((table.groups[0] as (typeof table.groups)[number]).stats);
}

describe("in-memory rows get a file's per-document sums bit for bit", () => {
  it("documentStatsFromRows equals DuckDB's reading of the same rows (ties, 0/1, large integers, lossy values)", async () => {
    await fc.assert(
      fc.asyncProperty(rows, async (data) => {
        const js = plainStats(documentStatsFromRows(data, { doc: "doc", metric: "x" }));
        expect(js).toEqual(await fromFile(data));
      }),
      { numRuns: 60 },
    );
  });

  it("a sum that plain addition rounds: 0.1 + 0.2 + 0.3 is 0.6 in both, not 0.6000000000000001", async () => {
    const data = [0.1, 0.2, 0.3].map((x) => ({ doc: "a", x }));
    const js = documentStatsFromRows(data, { doc: "doc", metric: "x" });
    expect(js.s[0]).toBe(0.6);
    expect(plainStats(js)).toEqual(await fromFile(data));
  });

  it("values beyond DECIMAL(38, 18) fall back to doubles in row order, as a file does", async () => {
    const data = [1e21, 3, -1e21, 0.5].map((x) => ({ doc: "a", x }));
    const js = documentStatsFromRows(data, { doc: "doc", metric: "x" });
    expect(js.s[0]).toBe(1e21 + 3 - 1e21 + 0.5);
    expect(plainStats(js)).toEqual(await fromFile(data));
  });
});
