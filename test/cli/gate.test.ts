import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import {
  csvOf,
  flippedCopy,
  METRIC_COLUMNS,
  readCovidqa,
  systemRows,
} from "../support/covidqaGatePairs.js";
import { EXAMPLE, ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";

const COVIDQA = [
  "compare",
  EXAMPLE,
  "--system",
  "system",
  "--baseline",
  "bm25",
  "--replicates",
  "0",
];
const MAIN = join(ROOT, "examples/ci/main.csv");
const PR = join(ROOT, "examples/ci/pr.csv");
const NOISE = ["compare", MAIN, PR, "--baseline", "main", "--replicates", "0"];
// The test's own environment may be GitHub Actions: each run says what it sets.
const OUTSIDE_ACTIONS = { GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };

function run(args: readonly string[], env: Record<string, string | undefined> = {}) {
  return ragci(args, { env: { ...OUTSIDE_ACTIONS, ...env } });
}

/** compare's recommended micro interval of candidate − baseline, from its --json (no gate). */
function interval(args: readonly string[], metric: string): { lower: number; upper: number } {
  const json = ragciJson([...args, "--metric", metric]);
  const test = json.comparisons[0].tests.micro;
  return { lower: test.lower, upper: test.upper };
}

let scratch = "";
let rrWorse = "";
let three = "";
beforeAll(() => {
  scratch = scratchDir();
  // A copy of bm25 whose rr is slightly worse (rr alone is shown worse; with hit5, Holm is not).
  const bm25 = systemRows(readCovidqa().rows, "bm25");
  // Three systems in one file: bm25, tfidf and bm25b (examples/ci/pr.csv's copy of bm25).
  three = join(scratch, "three.csv");
  const all = readCovidqa().rows;
  const copy = flippedCopy(bm25, 150, 7, 2).map((r) => ({ ...r, system: "bm25b" }));
  writeFileSync(
    three,
    csvOf([...all, ...copy], ["system", "doc_id", "query_id", ...METRIC_COLUMNS]),
  );
  rrWorse = join(scratch, "rrworse.csv");
  writeFileSync(
    rrWorse,
    csvOf(flippedCopy(bm25, 150, 7, 5), ["doc_id", "query_id", ...METRIC_COLUMNS]),
  );
});

describe("ragci compare --fail-if-worse on COVID-QA (tfidf − bm25 clearly negative)", () => {
  it("exits 1 at margin 0, and exactly when the interval lies below −d for other margins", () => {
    const { upper } = interval(COVIDQA, "hit5");
    expect(upper).toBeLessThan(-0.02);
    expect(run([...COVIDQA, "--metric", "hit5", "--fail-if-worse"]).code).toBe(1);
    for (const margin of [0.02, 0.03, 0.05]) {
      const result = run([
        ...COVIDQA,
        "--metric",
        "hit5",
        "--fail-if-worse",
        "--margin",
        `${margin}`,
      ]);
      expect(result.code, `--margin ${margin}`).toBe(upper < -margin ? 1 : 0);
      expect(result.stderr).toBe("");
    }
    // Known answers: upper = −0.0273.
    expect(run([...COVIDQA, "--metric", "hit5", "--fail-if-worse", "--margin", "0.03"]).code).toBe(
      0,
    );
  });

  it("prints the report and the gate's verdict whether it passes or fails", () => {
    const failed = run([...COVIDQA, "--metric", "hit5,rr", "--fail-if-worse"]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain("ragci compare · bm25, tfidf");
    expect(failed.stdout).toMatch(/FAIL — hit5, rr: worse than the baseline beyond the margin/);
    const passed = run([...COVIDQA, "--metric", "hit5", "--fail-if-worse", "--margin", "0.05"]);
    expect(passed.stdout).toMatch(/pass — no candidate is shown worse/);
  });

  it("--require-noninferior exits 0 exactly when the lower bound is above −d", () => {
    const { lower } = interval(COVIDQA, "hit5");
    for (const margin of [0.05, 0.06, 0.1]) {
      const args = [
        ...COVIDQA,
        "--metric",
        "hit5",
        "--require-noninferior",
        "--margin",
        `${margin}`,
      ];
      expect(run(args).code, `--margin ${margin}`).toBe(lower > -margin ? 0 : 1);
    }
    // Several metrics: every one must pass (rr's lower bound, −0.086, is below −0.06).
    const both = [...COVIDQA, "--metric", "hit5,rr", "--require-noninferior", "--margin", "0.06"];
    expect(run(both).code).toBe(1);
  });

  it("--estimand macro gates the macro interval; --lower-is-better turns a metric around", () => {
    const json = ragciJson([...COVIDQA, "--metric", "hit5"]);
    const { micro, macro } = json.comparisons[0].tests;
    const margin = ((-micro.upper - macro.upper) / 2).toFixed(4);
    const args = [...COVIDQA, "--metric", "hit5", "--fail-if-worse", "--margin", margin];
    expect(run(args).code).toBe(1);
    expect(run([...args, "--estimand", "macro"]).code).toBe(0);
    const lower = [
      ...COVIDQA,
      "--metric",
      "hit@5",
      "--fail-if-worse",
      "--lower-is-better",
      "hit@5",
    ];
    expect(run(lower).code).toBe(0);
  });
});

describe("ragci compare's gate on pairs within noise", () => {
  it("examples/ci: not worse, noninferior at 1 point, not shown better (margin 0)", () => {
    const metrics = ["--metric", "hit5,rr"];
    expect(run([...NOISE, ...metrics, "--fail-if-worse"]).code).toBe(0);
    expect(run([...NOISE, ...metrics, "--fail-if-worse", "--margin", "0.01"]).code).toBe(0);
    expect(run([...NOISE, ...metrics, "--require-noninferior", "--margin", "0.01"]).code).toBe(0);
    expect(run([...NOISE, ...metrics, "--require-noninferior", "--margin", "0"]).code).toBe(1);
  });

  it("Holm across metrics: rr alone is shown worse (exit 1), hit5 and rr together are not (0)", () => {
    const args = [
      "compare",
      MAIN,
      rrWorse,
      "--baseline",
      "main",
      "--replicates",
      "0",
      "--fail-if-worse",
    ];
    const { upper } = interval(
      ["compare", MAIN, rrWorse, "--baseline", "main", "--replicates", "0"],
      "rr",
    );
    expect(upper).toBeLessThan(0);
    expect(run([...args, "--metric", "rr"]).code).toBe(1);
    const both = run([...args, "--metric", "hit5,rr"]);
    expect(both.code).toBe(0);
    expect(both.stdout).toContain("2 checks (metrics × candidates), Holm-adjusted");
  });
});

describe("ragci compare's gate with several candidates", () => {
  it("checks every metric × candidate (Holm across 4): tfidf fails, bm25b passes", () => {
    const args = [
      "compare",
      three,
      "--system",
      "system",
      "--baseline",
      "bm25",
      "--replicates",
      "0",
    ];
    const result = run([...args, "--metric", "hit5,rr", "--fail-if-worse"], {
      GITHUB_ACTIONS: "true",
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.split("\n").filter(Boolean);
    expect(
      lines.map((l) => /^::(\w+) title=ragci gate%3A (\S+) · (\S+) vs bm25::/.exec(l)?.slice(1)),
    ).toEqual([
      ["notice", "hit5", "bm25b"],
      ["error", "hit5", "tfidf"],
      ["notice", "rr", "bm25b"],
      ["error", "rr", "tfidf"],
    ]);
    expect(result.stdout).toContain("4 checks (metrics × candidates), Holm-adjusted");
    // The same file with bm25b alone against bm25: within noise.
    const pair = ["compare", three, "--system", "system=bm25,bm25b", "--baseline", "bm25"];
    expect(run([...pair, "--replicates", "0", "--metric", "hit5,rr", "--fail-if-worse"]).code).toBe(
      0,
    );
  });
});

describe("ragci compare's gate: bad input stays exit 2", () => {
  const cases: [string, string[], RegExp][] = [
    ["both rules", ["--fail-if-worse", "--require-noninferior"], /choose one of/],
    ["no baseline", ["--fail-if-worse"], /add --baseline SYSTEM/],
    [
      "noninferior without a margin",
      ["--require-noninferior", "--baseline", "bm25"],
      /needs --margin/,
    ],
    ["a margin without a rule", ["--margin", "0.01"], /--margin belongs to the gate/],
    [
      "a negative margin",
      ["--fail-if-worse", "--baseline", "bm25", "--margin", "-0.01"],
      /--margin/,
    ],
    [
      "an unknown lower-is-better",
      ["--fail-if-worse", "--baseline", "bm25", "--lower-is-better", "ndcg"],
      /ndcg/,
    ],
    ["an unknown baseline", ["--fail-if-worse", "--baseline", "bm99"], /bm99/],
  ];
  for (const [name, flags, message] of cases) {
    it(name, () => {
      const result = run([
        "compare",
        EXAMPLE,
        "--system",
        "system",
        "--metric",
        "hit5",
        "--replicates",
        "0",
        ...flags,
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
    });
  }
});

describe("ragci compare's gate in GitHub Actions", () => {
  it("refuses a GITHUB_STEP_SUMMARY that is one of its inputs, before reading, and leaves it as it was", () => {
    const input = join(scratch, "pr-input.csv");
    writeFileSync(input, readFileSync(PR));
    const before = readFileSync(input);
    const env = { GITHUB_STEP_SUMMARY: input };
    const gated = run(
      ["compare", MAIN, input, "--baseline", "main", "--metric", "hit5", "--fail-if-worse"],
      env,
    );
    expect(gated.stdout).toBe("");
    expect(gated.stderr).toBe(
      `ragci: GITHUB_STEP_SUMMARY ${input}: is the same file as the input ${input}; ragci never overwrites its input, choose another file name\n`,
    );
    expect(gated.code).toBe(2);
    expect(readFileSync(input).equals(before)).toBe(true);
    // Without a gate flag the summary is not written, so it is not checked.
    expect(run(["compare", MAIN, input, "--metric", "hit5", "--replicates", "0"], env).code).toBe(
      0,
    );
  });

  it("appends a Markdown table to GITHUB_STEP_SUMMARY, keeping what is there", () => {
    const summary = join(scratch, "summary.md");
    writeFileSync(summary, "## an earlier step\n\n");
    const env = { GITHUB_STEP_SUMMARY: summary };
    const failed = run([...COVIDQA, "--metric", "hit5,rr", "--fail-if-worse"], env);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toBe("");
    const passed = run([...NOISE, "--metric", "hit5", "--fail-if-worse"], env);
    expect(passed.code).toBe(0);
    const text = readFileSync(summary, "utf8");
    expect(text.startsWith("## an earlier step\n\n### ragci gate")).toBe(true);
    expect(text.match(/### ragci gate/g)).toHaveLength(2);
    expect(text).toContain("| metric | tfidf − bm25 | 95% interval | K | ν | p (Holm) | verdict |");
    const json = ragciJson([...COVIDQA, "--metric", "hit5"]);
    const test = json.comparisons[0].tests.micro;
    const row = text.split("\n").find((line) => line.startsWith("| hit5 | -0.0413"));
    expect(row).toBe(
      `| hit5 | ${test.estimate.toFixed(4)} | [${test.lower.toFixed(4)}, ${test.upper.toFixed(4)}] | 98 | ${test.df.toFixed(2)} | ${row?.split(" | ")[5]} | FAIL: worse beyond the margin |`,
    );
    expect(text).toMatch(
      /\| hit5 \| -0\.00290 \| \[-0\.00734, \+0\.00154\] \| 98 \| 39\.27 \| [^|]+ \| pass: not shown worse \|/,
    );
  });

  it("writes one workflow command per metric on standard error when GITHUB_ACTIONS=true", () => {
    const args = [...COVIDQA, "--metric", "hit5,rr", "--fail-if-worse", "--margin", "0.05"];
    const result = run([...args, "--json"], { GITHUB_ACTIONS: "true" });
    expect(result.code).toBe(1);
    // Standard output stays the report: --json still parses.
    const report = JSON.parse(result.stdout);
    expect(report.schema).toBe("ragci/schemas/compare.v2.json");
    // …and carries the gate's decision: a verdict per metric × candidate, Holm, the exit code.
    expect(report.gate).toMatchObject({
      rule: "fail-if-worse",
      margin: 0.05,
      estimand: "micro",
      adjustment: "holm",
      failed: true,
      exitCode: 1,
    });
    expect(report.gate.checks.map((c: any) => [c.metric, c.candidate, c.verdict, c.fails])).toEqual(
      [
        ["hit5", "tfidf", "not-worse", false],
        ["rr", "tfidf", "worse", true],
      ],
    );
    const lines = result.stderr.split("\n").filter(Boolean);
    expect(lines).toHaveLength(2);
    // hit5's upper bound (−0.027) is above −0.05; rr's (−0.060) is below.
    expect(lines[0]).toMatch(
      /^::notice title=ragci gate%3A hit5 · tfidf vs bm25::pass: not shown worse — tfidf − bm25 = -0\.0413 /,
    );
    expect(lines[1]).toMatch(
      /^::error title=ragci gate%3A rr · tfidf vs bm25::FAIL: worse beyond the margin — /,
    );
    // GitHub's escaping: "%" as %25 in the message, ":" as %3A in a property.
    expect(lines[1]).toContain("95%25");
    expect(run(args).stderr).toBe("");
  });

  it("--markdown leads with the gate's verdict, for a PR comment", () => {
    const result = run([
      ...NOISE,
      "--metric",
      "hit5,rr",
      "--fail-if-worse",
      "--margin",
      "0.01",
      "--markdown",
    ]);
    expect(result.code).toBe(0);
    const [title, gate] = result.stdout.split("\n\n");
    expect(title).toBe("## ragci compare · main, pr");
    expect(gate).toBe(
      "### ragci gate · fail if a candidate is worse than the baseline by more than 0.01 (micro)",
    );
    expect(result.stdout).toContain("**pass** — no candidate is shown worse");
    expect(result.stdout).not.toMatch(/\n\n\n/);
    const plain = run([...NOISE, "--metric", "hit5", "--markdown"]);
    expect(plain.stdout).not.toContain("ragci gate");
  });
});
