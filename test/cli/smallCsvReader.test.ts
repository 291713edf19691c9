/**
 * The built command on a small CSV of 0/1 results: read without DuckDB (its library is never
 * mapped into the process), with the same report as DuckDB's reading of the same rows.
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

/** The bundled example's first 20 BM25 documents (bench/startup.mjs's file), CRLF as written. */
function twentyDocuments(): string {
  const lines = readFileSync(EXAMPLE, "utf8").split("\n").filter(Boolean);
  const bm25 = lines.slice(1).filter((l) => l.split(",")[2] === "bm25");
  const docs = new Set([...new Set(bm25.map((l) => l.split(",")[0]))].sort().slice(0, 20));
  return `${[lines[0], ...bm25.filter((l) => docs.has(l.split(",")[0]))].join("\n")}\n`;
}

function analyze(file: string) {
  const result = ragci(["analyze", file, "--doc", "doc_id", "--metric", "hit5", "--json"], {
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

describe("a small CSV of 0/1 results", () => {
  it("is read without DuckDB, and reported as DuckDB's reading reports it", () => {
    const text = twentyDocuments();
    const small = join(dir, "twenty.csv");
    writeFileSync(small, text);
    // The same rows with one header name quoted: outside the small reader's subset.
    const quoted = join(dir, "twenty-quoted.csv");
    writeFileSync(quoted, text.replace("doc_id,", '"doc_id",'));

    const fast = analyze(small);
    const viaDuckDb = analyze(quoted);
    expect([fast.mapped, viaDuckDb.mapped]).toEqual(["false", "true"]);
    expect(fast.json.analyses.length).toBe(1);
    expect(fast.json).toEqual(viaDuckDb.json);
  });
});
