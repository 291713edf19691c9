/**
 * The built command on a small CSV that only commas and line ends split: analysed and compared
 * without DuckDB (its
 * library is never mapped into the process), with the same report as DuckDB's reading of the
 * same rows.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE, ragci, scratchDir } from "./runCli.js";

const dir = scratchDir();

// Loaded before the command (NODE_OPTIONS=--require): at exit, says whether DuckDB's shared
// library was mapped into the process.
const probe = join(dir, "duckdbProbe.cjs");
writeFileSync(
  probe,
  `process.on("exit", () => {
  const mapped = require("node:fs").readFileSync("/proc/self/maps", "utf8").includes("libduckdb");
  process.stderr.write("libduckdb mapped: " + mapped + "\\n");
});
`,
);

/**
 * The bundled example's first 20 BM25 documents (bench/startup.mjs's files), CRLF as written:
 * the BM25 rows, or both systems' rows.
 */
function twentyDocuments(systems: "bm25" | "both"): string {
  const lines = readFileSync(EXAMPLE, "utf8").split("\n").filter(Boolean);
  const bm25 = lines.slice(1).filter((l) => l.split(",")[2] === "bm25");
  const docs = new Set([...new Set(bm25.map((l) => l.split(",")[0]))].sort().slice(0, 20));
  const rows = systems === "bm25" ? bm25 : lines.slice(1);
  return `${[lines[0], ...rows.filter((l) => docs.has(l.split(",")[0]))].join("\n")}\n`;
}

function run(args: readonly string[]) {
  const result = ragci([...args, "--doc", "doc_id", "--json"], {
    env: { NODE_OPTIONS: `--require ${probe}` },
  });
  expect(result.code).toBe(0);
  const json = JSON.parse(result.stdout);
  // Everything but the input's own name and digest.
  for (const input of json.inputs) {
    input.file = "input.csv";
    input.sha256 = "";
  }
  return { json, mapped: /libduckdb mapped: (true|false)/.exec(result.stderr)?.[1] };
}

/** The file, and the same rows with one header name quoted: outside the small reader's subset. */
function twoFiles(name: string, text: string): [string, string] {
  const small = join(dir, `${name}.csv`);
  writeFileSync(small, text);
  const quoted = join(dir, `${name}-quoted.csv`);
  writeFileSync(quoted, text.replace("doc_id,", '"doc_id",'));
  return [small, quoted];
}

describe("a small CSV that only commas and line ends split", () => {
  it("is analysed without DuckDB, and reported as DuckDB's reading reports it", () => {
    const [small, quoted] = twoFiles("twenty", twentyDocuments("bm25"));
    const fast = run(["analyze", small, "--metric", "hit5"]);
    const viaDuckDb = run(["analyze", quoted, "--metric", "hit5"]);
    expect([fast.mapped, viaDuckDb.mapped]).toEqual(["false", "true"]);
    expect(fast.json.analyses.length).toBe(1);
    expect(fast.json).toEqual(viaDuckDb.json);
  });

  it("is analysed without DuckDB with a column of free text beside the ones used", () => {
    const lines = twentyDocuments("bm25").split("\r\n");
    const text = lines
      .map((line, i) =>
        line === "" ? line : `${line},${i === 0 ? "question" : `what's ${i % 7} (é)?`}`,
      )
      .join("\r\n");
    const [small, quoted] = twoFiles("twenty-text", text);
    const fast = run(["analyze", small, "--metric", "hit5"]);
    const viaDuckDb = run(["analyze", quoted, "--metric", "hit5"]);
    expect([fast.mapped, viaDuckDb.mapped]).toEqual(["false", "true"]);
    expect(fast.json).toEqual(viaDuckDb.json);
  });

  it("and so is the bundled example, fractions (reciprocal rank) and all", () => {
    const [small, quoted] = twoFiles("example", readFileSync(EXAMPLE, "utf8"));
    for (const command of ["analyze", "compare"]) {
      const options = ["--system", "system", "--metric", "hit5,rr"];
      const fast = run([command, small, ...options]);
      const viaDuckDb = run([command, quoted, ...options]);
      expect([fast.mapped, viaDuckDb.mapped]).toEqual(["false", "true"]);
      expect(fast.json).toEqual(viaDuckDb.json);
    }
  });

  it("is compared without DuckDB, and reported as DuckDB's pairing reports it", () => {
    const [small, quoted] = twoFiles("twenty-both", twentyDocuments("both"));
    const fast = run(["compare", small, "--system", "system", "--metric", "hit5"]);
    const viaDuckDb = run(["compare", quoted, "--system", "system", "--metric", "hit5"]);
    expect([fast.mapped, viaDuckDb.mapped]).toEqual(["false", "true"]);
    expect(fast.json.comparisons.length).toBe(1);
    expect(fast.json).toEqual(viaDuckDb.json);
  });
});
