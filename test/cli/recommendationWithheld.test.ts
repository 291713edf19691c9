/**
 * compare on a tie-heavy pair (COVID-QA's first 10 documents, tfidf − bm25, hit@5: fewer than 8
 * documents differ, recounted from the rows): the report marks the intervals of the difference
 * not recommended and says why, --json sets recommendationWithheld (valid against the shipped
 * schema), and the gate is inconclusive: exit 0 under --fail-if-worse with a warning
 * annotation, exit 1 under --require-noninferior. analyze of the bundled example has no such
 * field.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { csvOf, METRIC_COLUMNS, readCovidqa } from "../support/covidqaGatePairs.js";
import { EXAMPLE, ragci, ragciJson, scratchDir } from "./runCli.js";
import { ajv } from "./schemaValidator.js";

const OUTSIDE_ACTIONS = { GITHUB_ACTIONS: undefined, GITHUB_STEP_SUMMARY: undefined };
let file = "";
let differing = 0;
beforeAll(() => {
  const { rows } = readCovidqa();
  const first = new Set([...new Set(rows.map((r) => r.doc_id as string))].slice(0, 10));
  const kept = rows.filter((r) => first.has(r.doc_id as string));
  const sums = new Map<string, number>();
  for (const r of kept)
    sums.set(
      r.doc_id as string,
      (sums.get(r.doc_id as string) ?? 0) + (r.system === "tfidf" ? 1 : -1) * Number(r.hit5),
    );
  differing = [...sums.values()].filter((d) => d !== 0).length;
  file = join(scratchDir(), "tie-heavy.csv");
  writeFileSync(file, csvOf(kept, ["system", "doc_id", "query_id", ...METRIC_COLUMNS]));
});
const compare = [
  "compare",
  "--system",
  "system",
  "--baseline",
  "bm25",
  "--metric",
  "hit5",
  "--replicates",
  "0",
];

describe("ragci compare on a tie-heavy pair", () => {
  it("--json: recommendationWithheld on both estimands of the difference, schema-valid", () => {
    expect(differing).toBeLessThan(8);
    const out = ragciJson([...compare.slice(0, 1), file, ...compare.slice(1)]);
    const validate = ajv.getSchema("ragci/schemas/compare.v2.json");
    expect(validate?.(out), JSON.stringify(validate?.errors)).toBe(true);
    const difference = out.comparisons[0].difference;
    for (const e of ["micro", "macro"]) {
      expect(difference[e].recommendationWithheld.code).toBe("few-differing-documents");
      expect(difference[e].recommendationWithheld.reason).toMatch(
        new RegExp(`^only ${differing} documents differ`),
      );
    }
    expect(out.comparisons[0].verdict.macro).toMatch(/no verdict, the interval is not recommended/);
  });

  it("the report says the intervals are not recommended, and why", () => {
    const result = ragci(["compare", file, ...compare.slice(1)], { env: OUTSIDE_ACTIONS });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      `tfidf − bm25: no interval of the difference is recommended (micro or macro; those shown are not): only ${differing} documents differ`,
    );
    const pair = ragci(
      ["compare", file, "--system", "system", "--metric", "hit5", "--replicates", "0"],
      {
        env: OUTSIDE_ACTIONS,
      },
    );
    expect(pair.stdout).toMatch(/cr2 \(not recommended\)/);
    expect(pair.stdout).toMatch(/t-differing \(not recommended\)/);
  });

  it("--fail-if-worse: inconclusive, exit 0, a warning annotation", () => {
    const result = ragci(["compare", file, ...compare.slice(1), "--fail-if-worse", "--json"], {
      env: { ...OUTSIDE_ACTIONS, GITHUB_ACTIONS: "true" },
    });
    expect(result.code).toBe(0);
    const gate = JSON.parse(result.stdout).gate;
    expect(gate.checks[0].verdict).toBe("inconclusive");
    expect(gate.checks[0].recommendationWithheld.code).toBe("few-differing-documents");
    expect(gate.exitCode).toBe(0);
    expect(result.stderr).toMatch(
      /^::warning title=ragci gate%3A hit5 · tfidf vs bm25::inconclusive: no interval recommended \(only \d documents differ/m,
    );
    // The pass headline says the check was inconclusive, not only that nothing was shown worse.
    const terminal = ragci(["compare", file, ...compare.slice(1), "--fail-if-worse"], {
      env: OUTSIDE_ACTIONS,
    });
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toMatch(
      /pass — no candidate is shown worse than the baseline beyond the margin; hit5 is inconclusive \(no interval recommended, so nothing is shown either way\)\./,
    );
  });

  it("--require-noninferior: inconclusive fails the build, exit 1", () => {
    const result = ragci(
      ["compare", file, ...compare.slice(1), "--require-noninferior", "--margin", "0.5", "--json"],
      { env: OUTSIDE_ACTIONS },
    );
    expect(result.code).toBe(1);
    const gate = JSON.parse(result.stdout).gate;
    expect(gate.checks[0]).toMatchObject({ verdict: "inconclusive", fails: true });
  });
});

describe("a normal sample", () => {
  it("analyze --json of the bundled example has no recommendationWithheld", () => {
    const out = ragciJson([
      "analyze",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system",
    ]);
    expect(JSON.stringify(out)).not.toContain("recommendationWithheld");
    for (const a of out.analyses) {
      expect(a.micro.recommended).toBe("logit-cv3");
      expect(a.macro.recommended).toBe("logit");
    }
  });
});
