/**
 * plan, strata and simulate read results tables only. A tool's output given to them without
 * --format is refused (test/cli/badInput.test.ts) with what to run instead: ragci aggregate,
 * then the command on the per-document table with --aggregated. That advice is followed here.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";

const PROMPTFOO = join(ROOT, "test/fixtures/realTools/promptfoo/results.json");
const BM25 = ["--metric", "hit5", "--system", "system=bm25"];

/** The sample sd (n − 1) of `values`. */
function sampleSd(values: readonly number[]): number {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const squares = values.reduce((a, v) => a + (v - mean) ** 2, 0);
  return Math.sqrt(squares / (values.length - 1));
}

/** The per-document table's bm25 rows: system, metric, doc, n, s, … */
function bm25Rows(file: string): string[][] {
  const lines = readFileSync(file, "utf8").trim().split("\n");
  expect(lines[0]).toBe("system,metric,doc,n,s,ss,min,max");
  return lines
    .slice(1)
    .map((l) => l.split(","))
    .filter((r) => r[0] === "bm25");
}

describe("a tool's output refused by plan, strata and simulate: the advice works", () => {
  const dir = scratchDir();
  const table = join(dir, "perdoc.csv");

  it("ragci aggregate writes the per-document table the refusal names", () => {
    const refused = ragci(["plan", PROMPTFOO, ...BM25, "--half-width", "0.1"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("ragci aggregate");
    expect(refused.stderr).not.toContain("Malformed JSON");
    const written = ragci([
      "aggregate",
      PROMPTFOO,
      "--doc",
      "vars.doc",
      "--metric",
      "hit5",
      "-o",
      table,
    ]);
    expect(written.code).toBe(0);
  });

  it("plan reads it with --aggregated: S of bm25's document rates, recomputed from the table", () => {
    const rows = readFileSync(table, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","));
    const rates = rows.filter((r) => r[0] === "bm25").map((r) => Number(r[4]) / Number(r[3]));
    expect(rates.length).toBeGreaterThan(2);
    const plan = ragciJson(["plan", table, "--aggregated", ...BM25, "--half-width", "0.1"]);
    expect(plan.source.documents).toBe(rates.length);
    const macro = plan.estimands.find((e: { estimand: string }) => e.estimand === "macro");
    expect(macro.sd).toBeCloseTo(sampleSd(rates), 12);
  });

  it("strata and simulate read it with --aggregated", () => {
    const strata = ragci(["strata", table, "--aggregated", ...BM25, "--documents", "4", "--json"]);
    expect(strata.code).toBe(0);
    const rows = bm25Rows(table);
    const report = JSON.parse(strata.stdout);
    expect(report.population).toBe(rows.length);
    expect(report.results).toBe(rows.reduce((sum, r) => sum + Number(r[3]), 0));
    const simulate = ragci([
      "simulate",
      table,
      "--aggregated",
      ...BM25,
      "--k",
      "2",
      "--reps",
      "5",
      "--json",
    ]);
    expect(simulate.code).toBe(0);
  });
});
