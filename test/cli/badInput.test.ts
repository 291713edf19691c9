/**
 * SPEC §11: every user error ends with one line naming the file, row or column and what to
 * do, exit code 2 and no stack trace.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES, ragci, scratchDir } from "./runCli.js";

const dir = scratchDir();
function file(name: string, contents: string): string {
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
}

const k5 = join(FIXTURES, "k5_binary.csv");

const CASES: { name: string; args: string[]; input?: string; message: RegExp }[] = [
  {
    name: "a file that does not exist",
    args: ["analyze", join(dir, "missing.csv"), "--metric", "score"],
    message: /missing\.csv: cannot read it/,
  },
  {
    name: "an unknown extension without --format",
    args: ["analyze", file("results.xyz", "a,b\n"), "--metric", "b"],
    message: /results\.xyz: cannot tell the format .* --format/,
  },
  {
    name: "a missing metric column",
    args: ["analyze", k5, "--metric", "hit"],
    message: /k5_binary\.csv: no metric column "hit"; the columns are doc_id, query_id, score/,
  },
  {
    name: "a missing document column",
    args: ["analyze", k5, "--doc", "article", "--metric", "score"],
    message: /no document column "article"/,
  },
  {
    name: "an ambiguous column",
    args: [
      "analyze",
      file("ambiguous.csv", "doc_id,Hit_5,hit5\na,1,1\nb,0,0\n"),
      "--metric",
      "hit@5",
    ],
    message: /"hit@5" matches several columns \(Hit_5, hit5\)/,
  },
  {
    name: "a non-numeric metric",
    args: ["analyze", file("text.csv", "doc_id,hit\na,1\nb,0\nc,yes\n"), "--metric", "hit"],
    message: /text\.csv line 4: column hit has "yes", which is not a number/,
  },
  {
    name: "an empty metric value",
    args: ["analyze", file("empty-value.csv", "doc_id,hit\na,1\nb,\nc,0\n"), "--metric", "hit"],
    message: /empty-value\.csv line 3: column hit is empty, not a number, NaN or infinite/,
  },
  {
    name: "a NaN metric",
    args: ["analyze", file("nan.csv", "doc_id,hit\na,1\nb,0\nc,nan\nd,NaN\n"), "--metric", "hit"],
    message: /nan\.csv line 4: column hit .*NaN.*\(and 1 more row\)/,
  },
  {
    name: "an empty document id",
    args: ["analyze", file("noid.csv", "doc_id,hit\na,1\n,0\nc,0\n"), "--metric", "hit"],
    message: /noid\.csv line 3: column doc_id is empty/,
  },
  {
    name: "an empty file",
    args: ["analyze", file("header-only.csv", "doc_id,hit\n"), "--metric", "hit"],
    message: /header-only\.csv: no rows/,
  },
  {
    name: "one document",
    args: ["analyze", file("one.csv", "doc_id,hit\na,1\na,0\n"), "--metric", "hit"],
    message: /1 document found; a standard error needs at least 2 documents/,
  },
  {
    name: "n_d ≤ 0 in aggregated input",
    args: ["analyze", file("agg-zero.csv", "doc,n,s\na,3,1\nb,0,0\n"), "--aggregated"],
    message: /agg-zero\.csv line 3: column n must be a whole number of results ≥ 1/,
  },
  {
    name: "s > n in binary aggregated input",
    args: ["analyze", file("agg-s.csv", "doc,n,s\na,3,1\nb,2,5\n"), "--aggregated"],
    message: /agg-s\.csv: document "b" has s = 5 with n = 2/,
  },
  {
    name: "M < K",
    args: ["analyze", k5, "--metric", "score", "--population", "4"],
    message: /population size M = 4 is smaller than the 5 documents/,
  },
  {
    name: "a level outside (0, 1)",
    args: ["analyze", k5, "--metric", "score", "--level", "95"],
    message: /--level 95: give a confidence level between 0 and 1/,
  },
  {
    name: "an unknown estimand",
    args: ["analyze", k5, "--metric", "score", "--estimand", "mean"],
    message: /--estimand mean: use micro .* or macro/,
  },
  {
    name: "an unknown option",
    args: ["analyze", k5, "--metrics", "score"],
    message: /unknown option '--metrics'/,
  },
  {
    name: "stdin without --format",
    args: ["analyze", "-", "--metric", "score"],
    input: "doc_id,score\na,1\n",
    message: /name the format with --format/,
  },
  {
    name: "a metric not named when several are numeric",
    args: ["analyze", file("many.csv", "doc_id,hit1,hit5\na,1,1\nb,0,1\n")],
    message: /name the metric with --metric \(numeric columns: hit1, hit5\)/,
  },
];

describe("bad input", () => {
  it.each(CASES)("$name: one line on stderr, exit code 2", ({ args, input, message }) => {
    const result = ragci(args, input === undefined ? {} : { input });
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(/^ragci: /);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(2);
  });
});
