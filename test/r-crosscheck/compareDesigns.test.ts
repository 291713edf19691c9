/**
 * Cross-check of `ragci compare --design` (stratified and two-stage) against R's survey package,
 * end to end: the test writes seeded random per-query files of two systems with a stratum or
 * first-stage unit column and a design file; ragci pairs, aggregates and estimates; R
 * (test/r-crosscheck/compareDesigns.R) reads the same CSV, pairs the queries itself, sums the
 * per-query differences b − a per document and runs svyratio (micro) and svymean of the
 * per-document rate of the differences (macro) under svydesign(ids = ~1, strata = ~label,
 * fpc = ~M) or svydesign(ids = ~label + doc, fpc = ~T + M), with confint(df = degf(design)).
 * Agreement: 1e-9 relative on estimate, se, lower and upper, df exact.
 *
 * Written and checked with R 4.2.2 Patched, survey 4.1.1, jsonlite 1.8.4. A missing Rscript
 * makes the tests FAIL (never skip).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ragci, scratchDir } from "../cli/runCli.js";
import { expectRelativelyClose } from "../expectClose.js";
import { mulberry32 } from "../support/mulberry32.js";
import { rscriptOnce } from "./runRscript.js";

const R_SCRIPT_PATH = fileURLToPath(new URL("./compareDesigns.R", import.meta.url));
const REL = 1e-9;
const dir = scratchDir();

interface Case {
  readonly id: string;
  readonly csv: string;
  readonly design: string;
  readonly kind: "stratified" | "two-stage";
  readonly label: string;
  readonly metric: string;
  readonly population: Record<string, number>;
  readonly T?: number;
  readonly level: number;
}

/** Per-query results of systems A and B; groups of documents (strata or units). */
function makeCase(index: number, kind: Case["kind"]): Case {
  const random = mulberry32(9000 + index);
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const groups = int(2, 4);
  const label = kind === "stratified" ? "stratum" : "psu";
  const metric = index % 2 === 0 ? "hit" : "rr";
  const lines = [`doc_id,query_id,system,${label},${metric}`];
  const population: Record<string, number> = {};
  let query = 0;
  for (let g = 0; g < groups; g++) {
    const name = `${label}${g}`;
    const documents = int(2, 6);
    population[name] = documents + int(0, 30);
    for (let d = 0; d < documents; d++) {
      const doc = `g${g}d${d}`;
      const p = random();
      for (let q = int(1, 8); q > 0; q--) {
        query++;
        for (const system of ["A", "B"]) {
          const lift = system === "B" ? 0.15 : 0;
          const hit = random() < Math.min(1, p + lift) ? 1 : 0;
          const value = metric === "hit" ? hit : hit / int(1, 10);
          lines.push(`${doc},q${query},${system},${name},${value}`);
        }
      }
    }
  }
  const csv = join(dir, `case${index}.csv`);
  writeFileSync(csv, `${lines.join("\n")}\n`);
  const T = groups + int(0, 10);
  const designJson =
    kind === "stratified"
      ? { design: "stratified", strata: population }
      : { design: "two-stage", first_stage_population: T, second_stage_population: population };
  const design = join(dir, `case${index}.design.json`);
  writeFileSync(design, JSON.stringify(designJson));
  return {
    id: String(index),
    csv,
    design,
    kind,
    label,
    metric,
    population,
    ...(kind === "two-stage" ? { T } : {}),
    level: index % 3 === 0 ? 0.9 : 0.95,
  };
}

const cases = Array.from({ length: 16 }, (_, i) => makeCase(i, i < 8 ? "stratified" : "two-stage"));
const oracle = rscriptOnce(
  {
    script: R_SCRIPT_PATH,
    packages: "survey and jsonlite",
    name: "ragci-compare-designs",
    timeoutMs: 120_000,
  },
  () => cases.map((c) => ({ ...c, a: "A", b: "B" })),
);

const close = (mine: number, theirs: number) =>
  expectRelativelyClose(mine, theirs, { rel: REL, abs: REL * 1e-300 });

describe("compare --design matches R survey on the per-document differences", () => {
  for (const c of cases) {
    it(`${c.kind} data set ${c.id} (${c.metric}, level ${c.level})`, () => {
      const r = oracle.run().values.get(c.id);
      expect(r).toBeDefined();
      const result = ragci([
        "compare",
        c.csv,
        "--system",
        "system",
        "--metric",
        c.metric,
        "--design",
        c.design,
        "--level",
        String(c.level),
        "--replicates",
        "0",
        "--json",
      ]);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(0);
      const [out] = JSON.parse(result.stdout).comparisons;
      const method = c.kind;
      expect(out.difference.design.kind).toBe(c.kind);
      expect(out.difference.documents).toBe(r?.get("documents"));
      for (const estimand of ["micro", "macro"] as const) {
        const e = out.difference[estimand];
        expect(e.recommended).toBe(method);
        const interval = e.intervals[method];
        close(e.estimate, r?.get(`${estimand}.estimate`) as number);
        close(interval.se, r?.get(`${estimand}.se`) as number);
        close(interval.lower, r?.get(`${estimand}.lower`) as number);
        close(interval.upper, r?.get(`${estimand}.upper`) as number);
        expect(interval.df).toBe(r?.get("df"));
        // The test of no difference uses the design interval and its ν.
        expect(out.tests[estimand].method).toBe(method);
        expect(out.tests[estimand].df).toBe(r?.get("df"));
      }
      // Each system is analysed under the same design.
      expect(out.a.design.kind).toBe(c.kind);
      expect(out.b.micro.recommended).toBe(method);
    });
  }
});
