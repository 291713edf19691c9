/**
 * The small-CSV pairing (readSmallPairedResults.ts) against DuckDB's pairing of the same files
 * (readPairedResultsWithDuckDb): whenever it returns a table, DuckDB's path returns the same one.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type ReadPairedOptions,
  readPairedResults,
  readPairedResultsWithDuckDb,
} from "../../src/ingest/readPairedResults.js";
import { readSmallPairedResults } from "../../src/ingest/readSmallPairedResults.js";
import { scratchDir } from "../cli/runCli.js";
import { type MetricKind, metricText } from "../support/metricText.js";

let files = 0;
function write(text: string, name = `paired${files++}.csv`): string {
  const file = join(scratchDir(), name);
  writeFileSync(file, text);
  return file;
}

/** DuckDB's table for the files, or its refusal's message. */
async function duckDbRead(options: ReadPairedOptions) {
  return readPairedResultsWithDuckDb(options).catch((error: Error) => `refused: ${error.message}`);
}

/**
 * Paired results: queries of a few documents, each system's 0/1 results on them, in one file
 * with a system column or one file per system; sometimes a query missing from a system, under
 * two documents, repeated, or a value off 0/1.
 */
const pairedFiles = fc
  .record({
    systems: fc.constantFrom(["bm25", "tfidf"], ["a", "B", "c1"], ["1", "2"], ["dense", "bm25"]),
    perFile: fc.boolean(),
    metrics: fc.integer({ min: 1, max: 2 }),
    kind: fc.constantFrom<MetricKind>("binary", "binary", "integer", "decimal"),
    queries: fc.array(
      fc.record({
        doc: fc.constantFrom("d1", "d2", "D1", "d10", "x_2", "15", "007", "d 1", " d1"),
        values: fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 3, maxLength: 3 }),
        missing: fc.option(fc.nat(2), { freq: 12 }),
      }),
      { minLength: 1, maxLength: 30 },
    ),
    flaw: fc.constantFrom("none", "none", "none", "none", "none", "split", "repeat", "offBinary"),
    numericIds: fc.boolean(),
    extra: fc.constantFrom("", "rank", "note", "question"),
    options: fc.record({
      intersect: fc.boolean(),
      valuesUpTo: fc.constantFrom(0, 1000),
      only: fc.boolean(),
      crlf: fc.boolean(),
    }),
  })
  .map((f) => {
    const metrics = Array.from({ length: f.metrics }, (_, i) => `hit${i + 1}`);
    const header = ["doc_id", "query_id", ...(f.perFile ? [] : ["system"]), ...metrics];
    if (f.extra) header.push(f.extra);
    const bySystem = f.systems.map((system, si) => {
      const lines: string[][] = [];
      f.queries.forEach((q, qi) => {
        if (q.missing === si) return;
        const row = [q.doc, f.numericIds ? String(qi) : `q${qi}`];
        if (!f.perFile) row.push(system);
        const [a, b] = q.values[si] as [boolean, boolean];
        row.push(metricText(f.kind, qi + si, a));
        if (f.metrics === 2) row.push(metricText(f.kind, qi + si, b));
        if (f.extra === "rank") row.push(String((qi % 7) + si));
        if (f.extra === "note") row.push(`n${qi % 3}`);
        if (f.extra === "question") row.push(["what is it?", "qué é", " a b! "][qi % 3] as string);
        lines.push(row);
      });
      return lines;
    });
    const firstRows = bySystem[0] as string[][];
    if (f.flaw === "split" && firstRows[0]) firstRows[0][0] = "other_doc";
    if (f.flaw === "repeat" && firstRows[0]) firstRows.push([...firstRows[0]]);
    if (f.flaw === "offBinary" && firstRows[0]) firstRows[0][header.indexOf("hit1")] = "2";
    const end = f.options.crlf ? "\r\n" : "\n";
    const csv = (lines: string[][]) =>
      `${header.join(",")}${end}${lines.map((l) => l.join(",")).join(end)}${end}`;
    const inputs = f.perFile
      ? bySystem.map((lines, si) => {
          const path = write(csv(lines), `${f.systems[si]}.csv`);
          return { path, displayName: path };
        })
      : [{ path: write(csv(bySystem.flat())), displayName: "one.csv" }];
    const only = f.options.only ? f.systems.slice(0, 2) : null;
    const options: ReadPairedOptions = {
      inputs,
      doc: "doc_id",
      query: "query_id",
      system: f.perFile ? null : "system",
      metrics,
      intersect: f.options.intersect,
      onlySystems: only,
      valuesUpTo: f.options.valuesUpTo,
      pairs: (systems) => systems.slice(1).map((b) => [systems[0] as string, b] as const),
    };
    return options;
  });

describe("readSmallPairedResults", () => {
  it("returns DuckDB's table whenever it returns one (generated files)", async () => {
    let small = 0;
    await fc.assert(
      fc.asyncProperty(pairedFiles, async (options) => {
        const read = await readSmallPairedResults(options);
        if (read === null) return;
        small++;
        expect(read).toEqual(await duckDbRead(options));
      }),
      { numRuns: 200, seed: 11 },
    );
    expect(small).toBeGreaterThan(50);
  });

  it("pairs the bundled example's two systems, and its first 20 documents, as DuckDB does", async () => {
    const options: ReadPairedOptions = {
      inputs: [{ path: "examples/covidqa-retrieval.csv", displayName: "covidqa-retrieval.csv" }],
      doc: "doc_id",
      query: "query_id",
      system: "system",
      metrics: ["hit5", "rr"],
      valuesUpTo: 10_000,
      pairs: (systems) => [[systems[0] as string, systems[1] as string]],
    };
    const lines = readFileSync("examples/covidqa-retrieval.csv", "utf8")
      .split("\n")
      .filter(Boolean);
    const docs = new Set(
      [...new Set(lines.slice(1).map((l) => l.split(",")[0]))].sort().slice(0, 20),
    );
    const twenty = write(
      `${[lines[0], ...lines.slice(1).filter((l) => docs.has(l.split(",")[0]))].join("\n")}\n`,
    );
    for (const paired of [
      options,
      { ...options, inputs: [{ path: twenty, displayName: twenty }] },
    ]) {
      const read = await readSmallPairedResults(paired);
      expect(read).not.toBeNull();
      expect(read?.queries).toBeGreaterThan(100);
      expect(read?.differences.map((d) => d.values !== undefined)).toEqual([true, true]);
      expect(read).toEqual(await duckDbRead(paired));
      expect(await readPairedResults(paired)).toEqual(read);
    }
  });

  it("leaves refusals to DuckDB, whose reading says the same as before", async () => {
    const file = write("doc_id,query_id,system,hit\nd1,q1,a,1\nd1,q1,b,0\nd2,q2,a,1\n");
    const options: ReadPairedOptions = {
      inputs: [{ path: file, displayName: file }],
      doc: "doc_id",
      query: "query_id",
      system: "system",
      metrics: ["hit"],
      intersect: false,
      pairs: (systems) => [[systems[0] as string, systems[1] as string]],
    };
    expect(await readSmallPairedResults(options)).toBeNull();
    const refusal = await duckDbRead(options);
    expect(refusal).toMatch(/^refused: .*query q2 has a result for a but not for b/);
    await expect(readPairedResults(options)).rejects.toThrow(
      String(refusal).slice("refused: ".length),
    );
  });
});
