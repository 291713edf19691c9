import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FacetCells } from "../../src/core/facets/facetCells.js";
import type { FacetInterval } from "../../src/core/facets/facetInterval.js";
import { ROOT, ragci } from "./runCli.js";

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
const NAMES: Record<string, string> = {
  document: "document",
  query: "query within document",
  judge: "judge",
  documentJudge: "document × judge",
  variant: "variant",
  residual: "residual",
};

/** Each system's facet cells of `found`, read by the library as the CLI reads them. */
async function cellsOf(system: string): Promise<FacetCells> {
  const { readSource } = await import("../../src/index.js");
  const [read] = await readSource(
    { files: [JUDGES], judge: "judge" },
    { systemColumn: "system", systems: [system], metrics: ["found"] },
    { read: "tables" },
  );
  return read?.cells?.[0]?.cells as FacetCells;
}

async function fitOf(cells: FacetCells): Promise<FacetInterval> {
  const { facetInterval } = await import("../../src/core/facets/facetInterval.js");
  return facetInterval(cells, { level: 0.95 });
}

const bounds = (e: { interval: { lower: number; upper: number } }) =>
  `[${e.interval.lower.toFixed(4)}, ${e.interval.upper.toFixed(4)}]`;

/** The Markdown rows a fit must give: population first (recommended), fixed, each component. */
function expectFacetMarkdown(markdown: string, fit: FacetInterval): void {
  const population = fit.population;
  if (!population) throw new Error("the judges example has a population interval");
  const populationRow = `| **judges drawn from a population** (recommended) | ${population.estimate.toFixed(4)} | ${bounds(population)} | `;
  const fixedRow = `| these judges only (fixed) | ${fit.fixed.estimate.toFixed(4)} | ${bounds(fit.fixed)} | `;
  expect(markdown).toContain(populationRow);
  expect(markdown).toContain(fixedRow);
  expect(markdown.indexOf(populationRow)).toBeLessThan(markdown.indexOf(fixedRow));
  expect(markdown).toContain(` | ${(population.interval.df as number).toFixed(2)} | `);
  for (const [k, v] of Object.entries(fit.components.components)) {
    const share = `${(100 * (fit.shares[k as "document"] as number)).toFixed(1)}%`;
    expect(markdown).toContain(`| ${NAMES[k]} | ${(v as number).toPrecision(4)}`);
    expect(markdown).toMatch(
      new RegExp(`\\| ${NAMES[k]} \\| [^|]+ \\| ${share.replace(".", "\\.")} \\|`),
    );
  }
  expect(markdown).toContain(`- The largest share of the mean's variance: ${NAMES[fit.dominant]}.`);
}

describe("facet intervals and components in the Markdown report", () => {
  it("analyze --judge --markdown: the judges' population interval first, the fixed one, the components with shares and the dominant facet", async () => {
    const run = ragci([
      "analyze",
      JUDGES,
      "--system",
      "system=bm25",
      "--metric",
      "found",
      "--judge",
      "judge",
      "--markdown",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const fit = await fitOf(await cellsOf("bm25"));
    expectFacetMarkdown(run.stdout, fit);
    // Judges dominate this example: their population interval is the one to report.
    expect(fit.dominant).toBe("judge");
    // Before the per-document table, as the terminal prints it under the header.
    expect(run.stdout.indexOf("**judges drawn from a population**")).toBeLessThan(
      run.stdout.indexOf("| estimand | question |"),
    );
    expect(run.stdout).toContain(
      "Variance components (REML, lme4's model; 98 documents, 1380 queries, 3 judges, 4140 results):",
    );
  }, 120_000);

  it("compare --judge --markdown: each system's and the difference's intervals and components", async () => {
    const run = ragci([
      "compare",
      JUDGES,
      "--system",
      "system",
      "--metric",
      "found",
      "--judge",
      "judge",
      "--markdown",
    ]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const { differenceCells } = await import("../../src/core/facets/differenceCells.js");
    const bm25 = await cellsOf("bm25");
    const tfidf = await cellsOf("tfidf");
    const sections = run.stdout.split(/^### /m);
    const section = (name: string) =>
      sections.find((s) => s.startsWith(`found · ${name} · judges, wordings and reruns`)) ?? "";
    expectFacetMarkdown(section("bm25"), await fitOf(bm25));
    expectFacetMarkdown(section("tfidf"), await fitOf(tfidf));
    expectFacetMarkdown(section("tfidf - bm25"), await fitOf(differenceCells(tfidf, bm25).cells));
  }, 120_000);
});
