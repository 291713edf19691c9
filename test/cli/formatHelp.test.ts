import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, ragci, ragciOk } from "./runCli.js";

/** The help of --format in a command's --help, as one line (commander wraps it at 80). */
function formatHelp(command: string): string {
  const lines = ragciOk([command, "--help"]).split("\n");
  const at = lines.findIndex((l) => l.trimStart().startsWith("--format <format>"));
  expect(at, `${command} --help has --format`).toBeGreaterThanOrEqual(0);
  // The flag's line, then its continuation lines (indented, not another flag).
  const end = lines.findIndex((l, i) => i > at && !/^\s{6,}[^\s-]/.test(l));
  return lines
    .slice(at, end)
    .join(" ")
    .replace(/^\s*--format <format>/, "")
    .replace(/\s+/g, " ")
    .trim();
}

// --format has two meanings: analyze, compare and aggregate read a table or a tool's output;
// plan, strata, simulate and merge read tables only. Each help says which, and each parser
// refuses what its command does not read (test/cli/badInput.test.ts).
describe("each command's --help says which formats --format takes", () => {
  it.each(["analyze", "compare", "aggregate"])("%s: tables and tools' outputs", (command) => {
    expect(formatHelp(command)).toBe(
      "csv, tsv, jsonl, parquet, or a tool's output: promptfoo, inspect, deepeval, braintrust, evalite, trec_eval, trec-run, run-json, run-jsonl (default: from the extension and the content; stdin's from its content)",
    );
  });

  it.each(["plan", "strata", "simulate", "merge"])("%s: tables", (command) => {
    expect(formatHelp(command)).toBe(
      "csv, tsv, jsonl or parquet (default: from the extension; stdin's from its content)",
    );
  });
});

describe("as the help says, - needs no --format: the content tells it", () => {
  it.each([
    [
      "plan",
      ["--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25", "--half-width", "0.05"],
    ],
    [
      "analyze",
      ["--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25", "--replicates", "0"],
    ],
  ])("%s - on the example's CSV", (command, args) => {
    const result = ragci([command, "-", ...args], {
      input: readFileSync(join(ROOT, "examples/covidqa-retrieval.csv"), "utf8"),
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`ragci ${command} `);
    expect(result.stdout).toContain("stdin");
  });
});

describe("aggregate --format names a tool, as its help says", () => {
  it("promptfoo's output: the same table as when the tool is told from the content", () => {
    const file = join(ROOT, "test/fixtures/realTools/promptfoo/results-repeat2.json");
    const args = ["aggregate", file, "--doc", "vars.doc", "--metric", "hit5"];
    const named = ragci([...args, "--format", "promptfoo"]);
    const detected = ragci(args);
    expect([named.code, detected.code]).toEqual([0, 0]);
    expect(named.stdout.split("\n")[0]).toBe("system,metric,doc,n,s,ss,min,max");
    expect(named.stdout).toBe(detected.stdout);
    // the reader's notes on stderr: promptfoo's, the same either way
    expect(named.stderr).toMatch(/^! promptfoo: each test is a query/);
    expect(named.stderr).toBe(detected.stderr);
  });
});
