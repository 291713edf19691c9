import {
  FACET_COMPONENT_NAMES,
  type FacetComponent,
  facetComponentName,
} from "../core/facets/facetCells.js";
import type { VarianceComponents } from "../core/facets/varianceComponents.js";
import { ALL_OR_NONE_NOTE, allOrNoneBound } from "../core/simulation/allOrNoneBound.js";
import {
  FACET_STUDY_INTERVALS,
  type FacetStudyInterval,
  type FacetStudyResult,
} from "../core/simulation/facetCoverageStudy.js";
import type { FacetModel } from "../core/simulation/facetModel.js";
import type { PairFacetModel } from "../core/simulation/facetPairModel.js";
import type { FacetPairPilotStudy } from "../core/simulation/facetPairPilotStudy.js";
import type { FacetPilotStudy } from "../core/simulation/facetPilotStudy.js";
import { crossedNames } from "./facetSummary.js";
import { coverageWithError, fixed, levelPercent, significant } from "./format.js";
import { blocksToMarkdown, blocksToTerminal, type ReportBlock } from "./reportBlocks.js";
import { SIMULATION_SCHEMA, type SimulationReport } from "./simulationReport.js";

/** `ragci simulate --judge/--trial/--variant`: a coverage study of a faceted pilot. */
/** What simulate reports on a faceted pilot (simulateSource): the pilot, and its study. */
export interface FacetSimulationReport {
  /** The ragci version that ran the study. */
  readonly version: string;
  /** The pilot, described as simulate describes a census. */
  readonly census: SimulationReport["census"];
  /** The intervals' confidence level. */
  readonly level: number;
  /** One system's study, or a pair's (its difference b − a). */
  readonly study: FacetPilotStudy | FacetPairPilotStudy;
  /** Notes under the tables. */
  readonly notes: readonly string[];
}

const COMPONENT_ORDER: readonly FacetComponent[] = FACET_COMPONENT_NAMES.map(([k]) => k);

/** The generating model in words. */
export function facetModelName(model: FacetModel | PairFacetModel): string {
  if (model.kind === "paired-logit-normal")
    return "paired logit-normal for a 0/1 metric: each system's trial is 1 with probability expit(α_s + a_document + b_query + c_judge + e_document×judge + f_variant), each system's effects calibrated to its own REML components as for one system, the same documents, queries, judges and wordings for both systems, each effect a pair (a, b) correlated on the logit scale so that the paired difference's components match its REML ones, and a trial pair sharing its uniform with the probability that gives the difference's residual (one trial per cell; reruns independent)";
  if (model.kind === "paired-gaussian")
    return "Gaussian pair on the metric's scale: for each system s, y_s = μ_s + a_document + b_query + c_judge + e_document×judge + f_variant + ε_trial, the same documents, queries, judges and wordings for both systems, each effect a bivariate normal pair (a, b) with each system's REML variance and the covariance that gives the paired difference's REML component (V_a + V_b − 2C); the residual pair is correlated only when a cell has one trial";
  if (model.kind === "gaussian")
    return "Gaussian on the metric's scale: y = μ + a_document + b_query + c_judge + e_document×judge + f_variant + ε_trial, each effect normal with the pilot's REML variance";
  return "logit-normal for a 0/1 metric: each trial is 1 with probability expit(α + a_document + b_query + c_judge + e_document×judge + f_variant), the effects normal on the logit scale, calibrated so that the metric-scale components and mean equal the pilot's REML ones";
}

function fitJson(fit: VarianceComponents) {
  return {
    estimator: fit.estimator,
    mean: fit.mean,
    components: fit.components,
    levels: fit.levels,
  };
}

/** The `facets` key of simulate's JSON for a pair: the difference's study, and the pair. */
function facetPairJson(s: FacetPairPilotStudy) {
  return {
    model: { ...s.model, description: facetModelName(s.model) },
    estimand: s.estimand,
    truth: s.truth,
    pilot: fitJson(s.pilots.difference),
    modelComponents: s.modelComponents,
    studies: s.studies,
    pair: {
      a: s.pair.a,
      b: s.pair.b,
      unmatched: s.pair.unmatched,
      pilots: { a: fitJson(s.pilots.a), b: fitJson(s.pilots.b) },
    },
  };
}

/** The `facets` key of simulate's JSON. */
export function facetSimulationJson(report: FacetSimulationReport): Record<string, unknown> {
  const s = report.study;
  return {
    schema: SIMULATION_SCHEMA,
    command: "ragci simulate",
    ragci: report.version,
    census: report.census,
    level: report.level,
    facets:
      "pair" in s
        ? facetPairJson(s)
        : {
            model: { ...s.model, description: facetModelName(s.model) },
            estimand: s.estimand,
            truth: s.truth,
            pilot: fitJson(s.pilot),
            modelComponents: s.modelComponents,
            studies: s.studies,
          },
    notes: report.notes,
  };
}

function intervalLabel(key: FacetStudyInterval, study: FacetStudyResult): string {
  const crossed = crossedNames(study.design) || "judges";
  const recommended = study.recommended === key ? " (recommended)" : "";
  switch (key) {
    case "population":
      return `population of ${crossed}: union of the two below${recommended}`;
    case "reml":
      return "  REML, Satterthwaite ν as lmerTest";
    case "spread":
      return `  CR2 + spread of the ${crossed}' means, Satterthwaite ν`;
    case "fixed":
      return crossedNames(study.design)
        ? `these ${crossed} only: documents, CR2${recommended}`
        : `documents, CR2 (each query's reruns averaged)${recommended}`;
  }
}

/** "93.3% ± 3.2 (0.459, ν 9.0)": coverage, its MC se in points, mean width and mean ν. */
function scoreCell(study: FacetStudyResult, key: FacetStudyInterval): string {
  const score = study.intervals[key];
  if (!score) return "—";
  const df = score.meanDf === null ? "" : `, ν ${fixed(score.meanDf, 1)}`;
  return `${coverageWithError(score.coverage, score.mcse, study.reps)} (${significant(score.meanWidth, 3)}${df})`;
}

function modelParameters(model: FacetModel | PairFacetModel): string {
  if (model.kind === "paired-logit-normal") {
    const sds = (m: typeof model.a) =>
      Object.entries(m.sds)
        .map(
          ([k, v]) => `${facetComponentName(k as FacetComponent)} ${significant(v as number, 3)}`,
        )
        .join(", ");
    return `α_a = ${significant(model.a.intercept, 3)}, α_b = ${significant(model.b.intercept, 3)}; logit-scale sd a: ${sds(model.a)}; b: ${sds(model.b)}; correlations ${Object.entries(
      model.correlations,
    )
      .map(([k, v]) => `${facetComponentName(k as FacetComponent)} ${fixed(v as number, 2)}`)
      .join(", ")}; trial pairs shared ${fixed(model.sharedTrial, 2)}`;
  }
  if (model.kind === "paired-gaussian")
    return `μ_a = ${significant(model.means.a, 4)}, μ_b = ${significant(model.means.b, 4)}; correlations ${COMPONENT_ORDER.filter(
      (k) => model.covariances[k] !== undefined,
    )
      .map((k) => {
        const v = (model.variances.a[k] ?? 0) * (model.variances.b[k] ?? 0);
        return `${facetComponentName(k)} ${v > 0 ? fixed((model.covariances[k] as number) / Math.sqrt(v), 2) : "—"}`;
      })
      .join(", ")}`;
  if (model.kind === "gaussian")
    return `μ = ${significant(model.mean, 4)}; variances ${COMPONENT_ORDER.filter(
      (k) => model.variances[k] !== undefined,
    )
      .map((k) => `${facetComponentName(k)} ${significant(model.variances[k] as number, 3)}`)
      .join(", ")}`;
  return `α = ${significant(model.intercept, 3)}; logit-scale sd ${Object.entries(model.sds)
    .map(([k, v]) => `${facetComponentName(k as FacetComponent)} ${significant(v as number, 3)}`)
    .join(", ")}`;
}

export function facetSimulationBlocks(report: FacetSimulationReport): ReportBlock[] {
  const { study: s, census: c } = report;
  const first = s.studies[0];
  const pair = "pair" in s ? s : null;
  // A pair's intervals are of the difference cells: its fit is the one the model matches.
  const fit = pair ? pair.pilots.difference : (s as FacetPilotStudy).pilot;
  const levels = pair ? pair.pilots.a.levels : fit.levels;
  const components = COMPONENT_ORDER.filter((k) => fit.components[k] !== undefined);
  const systemColumns = (k: FacetComponent) =>
    pair
      ? [
          significant(pair.pilots.a.components[k] ?? 0, 3),
          significant(pair.pilots.b.components[k] ?? 0, 3),
        ]
      : [];
  const componentRows = components.map((k) => [
    facetComponentName(k),
    ...systemColumns(k),
    significant(fit.components[k] as number, 3),
    significant(s.modelComponents[k] ?? 0, 3),
    ...s.studies.map((t) => significant(t.meanComponents[k] ?? 0, 3)),
  ]);
  const column = (t: FacetStudyResult) => `D = ${t.design.documents}`;
  const systems = pair
    ? `systems ${pair.pair.b} − ${pair.pair.a} (paired) · `
    : c.system === null
      ? ""
      : `system ${c.system} · `;
  const results = `${levels.observations} results${pair ? " per system" : ""}`;
  const drawn = pair ? "one paired evaluation (both systems)" : "one evaluation";
  const fitted = pair
    ? `the faceted fit of the difference cells ${pair.pair.b} − ${pair.pair.a} (as compare pairs them)`
    : "the faceted fit";
  return [
    {
      kind: "title",
      text: `ragci simulate ${c.file} · ${systems}metric ${c.metric} · faceted pilot: ${levels.documents} documents, ${levels.queries} queries, ${levels.judges > 0 ? `${levels.judges} judges, ` : ""}${levels.variants > 0 ? `${levels.variants} wordings, ` : ""}${results}`,
    },
    {
      kind: "text",
      text: `Estimand: ${s.estimand}, ${significant(s.truth, 4)} under the generating model. Generating model: ${facetModelName(s.model)} (${modelParameters(s.model)}).`,
    },
    {
      kind: "text",
      text: first
        ? `Each repetition draws ${drawn} — ${first.design.documents} documents × ${first.design.queries} queries × ${first.design.trials} trial${first.design.trials === 1 ? "" : "s"}${first.design.judges > 1 ? ` × ${first.design.judges} judges drawn afresh` : ""}${first.design.variants > 1 ? ` × ${first.design.variants} wordings drawn afresh` : ""} — and computes every interval of ${fitted}; ${first.reps} repetition${first.reps === 1 ? "" : "s"} per column, seed ${first.seed} (repetition i: uniforms of SeedSequence(seed, spawn_key=(i, ${pair ? 3 : 2})), normals by Box–Muller).`
        : "",
    },
    {
      kind: "heading",
      text: `Coverage ± MC se (mean width, mean ν), nominal ${levelPercent(report.level)}, truth ${significant(s.truth, 4)}`,
    },
    {
      kind: "table",
      rows: [
        ["interval", ...s.studies.map(column)],
        ...FACET_STUDY_INTERVALS.filter((k) => s.studies.some((t) => t.intervals[k])).map((k) => [
          first ? intervalLabel(k, first) : k,
          ...s.studies.map((t) => scoreCell(t, k)),
        ]),
      ],
      align: ["l", ...s.studies.map(() => "r" as const)],
    },
    { kind: "heading", text: "Variance components on the metric's scale" },
    {
      kind: "table",
      rows: [
        [
          "component",
          ...(pair
            ? [
                `${pair.pair.a} (REML)`,
                `${pair.pair.b} (REML)`,
                `${pair.pair.b} − ${pair.pair.a} (REML)`,
              ]
            : ["pilot (REML)"]),
          "model",
          ...s.studies.map((t) => `fits, ${column(t)} (mean)`),
        ],
        ...componentRows,
      ],
      align: [
        "l",
        ...(pair ? (["r", "r"] as const) : []),
        "r",
        "r",
        ...s.studies.map(() => "r" as const),
      ],
    },
    {
      kind: "bullets",
      items: [
        pair
          ? `model: the difference's components the generating model implies (${s.model.kind === "paired-gaussian" ? "V_a + V_b − 2C" : "each effect's Var E[y_b − y_a | effect]; the residual the rest of Var(y_b − y_a)"}); fits: the REML components of the simulated evaluations' difference cells, averaged.`
          : "model: the components the generating model implies (for the logit-normal model, the variance each effect explains of the 0/1 outcome; the residual is the rest of p(1 − p)); fits: the REML components of the simulated evaluations, averaged.",
        ...report.notes,
        ...(s.studies.some((t) =>
          Object.values(t.intervals).some(
            (score) => score !== null && allOrNoneBound(score.coverage, t.reps) !== null,
          ),
        )
          ? [`${ALL_OR_NONE_NOTE}.`]
          : []),
        "These coverages are of evaluations like your pilot under the generating model; an interval that misses the truth counts as not covering.",
      ],
    },
  ];
}

export function facetSimulationTerminal(report: FacetSimulationReport): string {
  return blocksToTerminal(facetSimulationBlocks(report));
}

export function facetSimulationMarkdown(report: FacetSimulationReport): string {
  return blocksToMarkdown(facetSimulationBlocks(report));
}
