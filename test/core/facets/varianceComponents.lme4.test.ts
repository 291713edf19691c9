/**
 * ragci's REML variance components on facet cells against lme4's lmer (and lmerTest for the
 * intercept's Satterthwaite df) on the trial rows, balanced and unbalanced designs generated
 * here (seeded). R runs once for every data set (test/core/facets/facets.R).
 *
 * Tolerances: both sides minimise the same REML criterion, so the criterion itself agrees to
 * ~1e-10 at any θ (checked at θ = 1, no optimiser involved); at the optimum, lme4 is run with a
 * tight nloptwrap (xtol_rel 1e-12), ragci's criterion is never above lme4's, and the intercept
 * and se agree to 1e-6 relative (REL). The components agree to 1e-5 (REL_COMPONENT): where a
 * component is poorly determined (three judges, two wordings) the criterion is flat to 1e-15
 * over a 1e-6 change in it, and lme4's tight fit lands anywhere in that flat (2e-7 to 1.7e-6
 * from ragci's in repeated runs on data set 3). The Satterthwaite df goes through numerical second derivatives on both sides
 * (numDeriv's Richardson on the deviance against ragci's differences of its exact gradient),
 * 1e-4 relative (REL_DF); measured worst 3e-7 (8e-6 when ragci differenced the deviance too). lme4's default optimiser
 * stops earlier; how far is reported, not asserted.
 */
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { facetLayout } from "../../../src/core/facets/facetLayout.js";
import { interceptSatterthwaite } from "../../../src/core/facets/interceptSatterthwaite.js";
import {
  cellMeanCentre,
  profiledReml,
  remlPieces,
} from "../../../src/core/facets/remlCriterion.js";
import { remlFit } from "../../../src/core/facets/remlFit.js";
import { type FacetComponent, facetInterval, varianceComponents } from "../../../src/core/index.js";
import { rscriptOnce } from "../../r-crosscheck/runRscript.js";
import { cellsFromRows, type DesignSpec, trialRows } from "./facetData.js";

const R_SCRIPT_PATH = fileURLToPath(new URL("./facets.R", import.meta.url));
const REL = 1e-6;
const REL_COMPONENT = 1e-5;
const REL_CRITERION = 1e-10;
const REL_DF = 1e-4;

const sd = (
  document: number,
  query: number,
  judge: number,
  documentJudge: number,
  variant: number,
  residual: number,
) => ({
  document,
  query,
  judge,
  documentJudge,
  variant,
  residual,
});

const SPECS: readonly (DesignSpec & { readonly label: string })[] = [
  {
    label: "balanced, judges, 2 reruns",
    seed: 11,
    documents: 12,
    queries: 3,
    judges: 3,
    variants: 0,
    trials: 2,
    sd: sd(0.6, 0.4, 0.5, 0.3, 0, 0.5),
  },
  {
    label: "balanced, judges without spread (boundary)",
    seed: 12,
    documents: 10,
    queries: 2,
    judges: 4,
    variants: 0,
    trials: 2,
    sd: sd(0.6, 0.4, 0, 0.3, 0, 0.5),
  },
  {
    label: "balanced, reruns only",
    seed: 13,
    documents: 15,
    queries: 3,
    judges: 0,
    variants: 0,
    trials: 3,
    sd: sd(0.5, 0.3, 0, 0, 0, 0.6),
  },
  {
    label: "balanced, judges and wordings, one trial",
    seed: 14,
    documents: 10,
    queries: 2,
    judges: 3,
    variants: 2,
    trials: 1,
    sd: sd(0.5, 0.3, 0.4, 0.2, 0.3, 0.4),
  },
  {
    label: "unbalanced, judges, missing cells, 1–3 reruns",
    seed: 15,
    documents: 14,
    queries: [1, 4],
    judges: 3,
    variants: 0,
    trials: [1, 3],
    missing: 0.25,
    sd: sd(0.6, 0.4, 0.5, 0.3, 0, 0.5),
  },
  {
    label: "unbalanced, judges and wordings",
    seed: 16,
    documents: 12,
    queries: [1, 3],
    judges: 3,
    variants: 2,
    trials: [1, 2],
    missing: 0.2,
    sd: sd(0.5, 0.3, 0.4, 0.2, 0.3, 0.4),
  },
  {
    label: "balanced binary outcomes, judges",
    seed: 17,
    documents: 20,
    queries: 2,
    judges: 3,
    variants: 0,
    trials: 1,
    binary: true,
    sd: sd(0.5, 0.3, 0.3, 0.2, 0, 0.5),
  },
  {
    label: "unbalanced binary outcomes, judges, reruns",
    seed: 18,
    documents: 20,
    queries: [1, 3],
    judges: 3,
    variants: 0,
    trials: [1, 3],
    missing: 0.2,
    binary: true,
    sd: sd(0.5, 0.3, 0.3, 0.2, 0, 0.5),
  },
  {
    label: "one query per document, judges, reruns",
    seed: 19,
    documents: 15,
    queries: 1,
    judges: 3,
    variants: 0,
    trials: 2,
    sd: sd(0.6, 0, 0.5, 0.3, 0, 0.5),
  },
  {
    label: "balanced, no document × judge spread (boundary)",
    seed: 20,
    documents: 12,
    queries: 2,
    judges: 3,
    variants: 0,
    trials: 2,
    sd: sd(0.6, 0.4, 0.5, 0, 0, 0.5),
  },
];

const dataSets = SPECS.map((spec, index) => {
  const rows = trialRows(spec);
  const cells = cellsFromRows(rows);
  return { index, spec, rows, cells, layout: facetLayout(cells) };
});

const rscript = rscriptOnce(
  {
    script: R_SCRIPT_PATH,
    packages: "lme4, lmerTest and jsonlite",
    name: "ragci-facets-lme4",
    timeoutMs: 120_000,
  },
  () => ({
    datasets: dataSets.map((ds) => ({
      index: ds.index,
      doc: ds.rows.doc,
      query: ds.rows.query,
      judge: ds.rows.judge,
      variant: ds.rows.variant,
      y: ds.rows.y,
      // The same model on both sides: the components ragci's layout finds identifiable.
      fitQuery: ds.layout.components.includes("query"),
      fitDocumentJudge: ds.layout.components.includes("documentJudge"),
    })),
  }),
);

const worst = new Map<string, { value: number; at: number }>();

function record(key: string, value: number, at: number): void {
  const w = worst.get(key);
  if (!w || value > w.value) worst.set(key, { value, at });
}

function relative(actual: number, expected: number, scale = Math.abs(expected)): number {
  return Math.abs(actual - expected) / Math.max(scale, 1e-300);
}

afterAll(() => {
  const run = rscript.completed();
  if (!run) return;
  const lines = [...worst].map(
    ([k, w]) => `  ${k}: ${w.value.toExponential(2)} (data set ${w.at})`,
  );
  console.log(
    `lme4 ${run.versions.get("lme4")}, lmerTest ${run.versions.get("lmerTest")}, R ${run.versions.get("R")} (${run.seconds.toFixed(1)} s); worst differences:\n${lines.join("\n")}`,
  );
});

describe.each(dataSets)("data set $index: $spec.label", (ds) => {
  it("has lme4's REML criterion at θ = 1 (the criterion itself, no optimiser)", () => {
    const r = rscript.run().values.get(String(ds.index));
    const ones = ds.layout.components.map(() => 1);
    const ours = profiledReml(ds.layout, remlPieces(ds.layout, ones, cellMeanCentre(ds.layout)));
    const theirs = r?.get("remlcrit.at.ones") as number;
    const rel = relative(ours, theirs);
    record("REML criterion at θ = 1", rel, ds.index);
    expect(rel, `${ours} vs ${theirs}`).toBeLessThan(REL_CRITERION);
  });

  it("has lme4's REML criterion at lme4's own optimum, and no higher one at its own", () => {
    const r = rscript.run().values.get(String(ds.index)) as Map<string, number>;
    const theta = ds.layout.components.map((k) => r.get(`theta.${k}`) as number);
    const atTheirs = profiledReml(
      ds.layout,
      remlPieces(ds.layout, theta, cellMeanCentre(ds.layout)),
    );
    const tight = r.get("tight.remlcrit") as number;
    record("REML criterion at lme4's θ", relative(atTheirs, tight), ds.index);
    expect(relative(atTheirs, tight)).toBeLessThan(REL_CRITERION);
    const fit = varianceComponents(ds.cells);
    record(
      "REML criterion, ragci's minimum − lme4's (relative)",
      (fit.remlCriterion - tight) / tight,
      ds.index,
    );
    expect(fit.remlCriterion).toBeLessThanOrEqual(tight + 1e-9 * Math.abs(tight));
  });

  it("has lme4's variance components, intercept and se", () => {
    const r = rscript.run().values.get(String(ds.index)) as Map<string, number>;
    const fit = varianceComponents(ds.cells);
    const theirKeys = [...r.keys()]
      .filter((k) => k.startsWith("tight.vc."))
      .map((k) => k.slice("tight.vc.".length))
      .sort();
    expect(Object.keys(fit.components).sort()).toEqual(theirKeys);
    const residual = r.get("tight.vc.residual") as number;
    for (const k of theirKeys as FacetComponent[]) {
      const expected = r.get(`tight.vc.${k}`) as number;
      // A component on the boundary is 0 on both sides; scale absolute differences by σ².
      const rel = relative(
        fit.components[k] as number,
        expected,
        Math.max(Math.abs(expected), residual * 1e-3),
      );
      record(`component ${k}`, rel, ds.index);
      expect(rel, `${k}: ${fit.components[k]} vs ${expected}`).toBeLessThan(REL_COMPONENT);
      const defaultRel = relative(
        r.get(`default.vc.${k}`) as number,
        expected,
        Math.max(Math.abs(expected), residual * 1e-3),
      );
      record(
        `component ${k}: lme4 default optimiser vs tight (not asserted)`,
        defaultRel,
        ds.index,
      );
    }
    const mean = r.get("tight.mean") as number;
    const se = r.get("tight.se") as number;
    record("intercept (abs / se)", Math.abs(fit.mean - mean) / se, ds.index);
    expect(Math.abs(fit.mean - mean) / se).toBeLessThan(REL);
    record("intercept se", relative(fit.meanSe, se), ds.index);
    expect(relative(fit.meanSe, se)).toBeLessThan(REL);
  });

  it("has lmerTest's Satterthwaite df for the intercept", () => {
    const r = rscript.run().values.get(String(ds.index)) as Map<string, number>;
    const df = interceptSatterthwaite(remlFit(ds.cells));
    if (df === null) throw new Error(`no Satterthwaite ν for data set ${ds.index}`);
    const expected = r.get("tight.df") as number;
    record("intercept Satterthwaite df", relative(df, expected), ds.index);
    expect(relative(df, expected), `${df} vs ${expected}`).toBeLessThan(REL_DF);
    const interval = facetInterval(ds.cells, { level: 0.95 });
    if (interval.reml) expect(interval.reml.interval.df).toBe(df);
  });
});
