/**
 * Issue 24's slips, on the bundled example: nothing is pooled, merged or counted twice without
 * the user being told — each is refused with one line and exit 2, or (a file of several
 * systems read without --system) analysed per system with a notice.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE, ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();
const lines = readFileSync(EXAMPLE, "utf8").trimEnd().split(/\r?\n/);
const header = lines[0] as string;
const bm25 = lines.filter((l) => l.split(",")[2] === "bm25");
const tfidf = lines.filter((l) => l.split(",")[2] === "tfidf");
const write = (name: string, rows: readonly string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${[header, ...rows].join("\n")}\n`);
  return path;
};
const BM25 = write("bm25.csv", bm25);
write("copy.csv", bm25);
const TFIDF = write("tfidf.csv", tfidf);
// Two shards that share 100 queries, and two that split the file.
const OVERLAP_A = write("a.csv", bm25.slice(0, 600));
const OVERLAP_B = write("b.csv", bm25.slice(500));
const SPLIT_B = write("c.csv", bm25.slice(600));

function refused(args: readonly string[], message: RegExp): void {
  const result = ragci(args, { cwd: dir });
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(message);
  expect(result.stderr.trim().split("\n")).toHaveLength(1);
  expect(result.code).toBe(2);
}

describe("counted twice: refused", () => {
  it("the same file twice, or two copies of it, as shards; the same file twice in compare", () => {
    refused(["analyze", "bm25.csv", "bm25.csv", "--metric", "hit5"], /bm25\.csv is given twice/);
    refused(["analyze", "bm25.csv", "copy.csv", "--metric", "hit5"], /hold the same bytes/);
    refused(
      ["compare", "bm25.csv", "./bm25.csv", "--metric", "hit5"],
      /^ragci: \.\/bm25\.csv is given twice \(as bm25\.csv and \.\/bm25\.csv\): give each system's file once/,
    );
  });

  it("compare allows two systems' files with the same bytes: they agree, difference 0", () => {
    const same = ragciJson(["compare", "bm25.csv", "copy.csv", "--metric", "hit5"], { cwd: dir });
    expect(same.comparisons[0].difference.micro.estimate).toBe(0);
  });

  it("a metric named twice, also through an alias", () => {
    refused(["analyze", BM25, "--metric", "hit5,hit5"], /column hit5 twice/);
    refused(["analyze", BM25, "--metric", "hit@5,hit5"], /column hit5 twice/);
    refused(["compare", EXAMPLE, "--system", "system", "--metric", "mrr,rr"], /column rr twice/);
  });

  it("two shards that share queries; shards that split the file give the file's answer", () => {
    refused(
      ["analyze", OVERLAP_A, OVERLAP_B, "--metric", "hit5"],
      /a\.csv and .*b\.csv both hold query \S+ of system bm25 \(and 99 more queries\)/,
    );
    const whole = ragciJson(["analyze", BM25, "--metric", "hit5"]);
    const split = ragciJson(["analyze", OVERLAP_A, SPLIT_B, "--metric", "hit5"]);
    expect(split.micro).toEqual(whole.micro);
    expect(split.macro).toEqual(whole.macro);
  });
});

describe("one run in two files: refused", () => {
  it("an Inspect log and a re-serialised copy (other bytes, one run id) are one run", () => {
    const log = join(
      ROOT,
      "test/fixtures/realTools/inspect/2025-05-12T20-28-13-04-00_popularity.json",
    );
    const copy = join(dir, "same-run.json");
    writeFileSync(copy, JSON.stringify(JSON.parse(readFileSync(log, "utf8"))));
    refused(
      ["analyze", log, copy, "--doc", "id"],
      /same-run\.json: holds the same run as .*popularity\.json \(inspect run:\S+\); its results would be read twice: give one of the two files$/m,
    );
  });
});

describe("pooled: never", () => {
  it("a file of two systems read without --system is analysed per system, with a notice", () => {
    const result = ragci(["analyze", EXAMPLE, "--metric", "hit5", "--json"]);
    expect(result.code).toBe(0);
    const split = JSON.parse(result.stdout);
    const chosen = ragciJson(["analyze", EXAMPLE, "--metric", "hit5", "--system", "system"]);
    expect(split.notes.join("\n")).toMatch(/column system names 2 systems \(bm25, tfidf\)/);
    const estimates = (r: Record<string, any>) =>
      r.analyses.map((a: any) => [a.system, a.micro.estimate]);
    expect(estimates(split)).toEqual(estimates(chosen));
    expect(estimates(split)).toHaveLength(2);
  });

  it("compare refuses a file of several systems given as one system's file", () => {
    refused(
      ["compare", BM25, EXAMPLE, "--metric", "hit5"],
      /column system names several systems \(bm25, tfidf\).*--system/,
    );
    const pair = ragci(["compare", BM25, TFIDF, "--metric", "hit5"]);
    expect(pair.stderr).toBe("");
    expect(pair.code).toBe(0);
  });
});

describe("slips caught", () => {
  it("a per-document table without --aggregated", () => {
    const agg = join(dir, "agg.csv");
    ragci(["analyze", BM25, "--metric", "hit5", "--write-aggregates", agg]);
    refused(["analyze", agg, "--metric", "hit5"], /agg\.csv: has columns n and s.*--aggregated/);
  });

  it("a population smaller than the pilot", () => {
    refused(
      ["plan", BM25, "--metric", "hit5", "--population", "3", "--half-width", "0.05"],
      /--population 3 is smaller than the 98 documents of the pilot/,
    );
  });

  it.each([
    ["analyze", ["--system", "system"]],
    ["compare", ["--system", "system"]],
  ])("%s --write-aggregates re-runs with the same --metric hit@5,mrr", (command, system) => {
    const agg = join(dir, `${command}-agg.csv`);
    const args = [command, EXAMPLE, ...system, "--metric", "hit@5,mrr"];
    const first = ragciJson([...args, "--write-aggregates", agg]);
    const header = readFileSync(agg, "utf8").split("\n")[1] as string;
    // Written with the columns' names, as every command names them.
    expect(header.split(",")[1]).toBe("hit5");
    const again = ragciJson([command, agg, "--aggregated", ...system, "--metric", "hit@5,mrr"]);
    const pick = (r: Record<string, any>) =>
      JSON.stringify(r.analyses ?? r.comparisons, (k, v) => (k === "inputs" ? undefined : v));
    expect(again.schema).toBe(first.schema);
    expect(pick(again).length).toBeGreaterThan(100);
    const byColumns = ragciJson([command, agg, "--aggregated", ...system, "--metric", "hit5,rr"]);
    expect(pick(byColumns)).toEqual(pick(again));
  });
});
