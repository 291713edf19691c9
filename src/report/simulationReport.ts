import { METHODS, type MethodId } from "../core/methods.js";
import { ALL_OR_NONE_NOTE, allOrNoneBound } from "../core/simulation/allOrNoneBound.js";
import type { StudyMethod } from "../core/simulation/coverageStudy.js";
import {
  reachingThreshold,
  type StudyRecommendation,
} from "../core/simulation/recommendFromStudy.js";
import { SAMPLE_AS_CENSUS_CAVEAT } from "../core/simulation/sampleAsCensus.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { Estimand } from "../core/types.js";
import { coverageWithError, fixed, levelPercent, percent, significant } from "./format.js";
import { blocksToMarkdown, blocksToTerminal, type ReportBlock } from "./reportBlocks.js";

/** The `schema` of `ragci simulate --json`: the package path of its JSON Schema. */
export const SIMULATION_SCHEMA = "ragci/schemas/simulate.v2.json";

/** What simulate reports (simulateSource): the census, its values, and one study per column. */
export interface SimulationReport {
  /** The ragci version that ran the study. */
  readonly version: string;
  /** The census as read: its file and digest, size, metric, and the system or pair studied. */
  readonly census: {
    readonly file: string;
    readonly sha256: string;
    readonly kind: "per-query" | "per-document";
    readonly documents: number;
    readonly results: number;
    readonly metric: string;
    readonly metricKind: string;
    /** The system studied, or the pair whose per-query differences b − a are studied. */
    readonly system: string | null;
    readonly pair: { readonly a: string; readonly b: string } | null;
  };
  /** The census's micro and macro values: what each interval is scored against. */
  readonly truth: Readonly<Record<Estimand, number>>;
  /** The intervals' confidence level. */
  readonly level: number;
  /** One coverage study per column (K, or m under a two-stage design). */
  readonly studies: readonly StudyResult[];
  /** Each column's recommended interval per estimand, from its study (recommendFromStudy). */
  readonly recommended: readonly Readonly<Record<Estimand, StudyRecommendation | null>>[];
  /** Worker threads the study ran on (the result does not depend on them). */
  readonly threads: number;
  /** Notes under the tables (the chunk bootstrap skipped, say). */
  readonly notes: readonly string[];
}

/** simulate's JSON: the census, its values, and one study per K (or m) with its recommendation. */
export function simulationJson(report: SimulationReport): Record<string, unknown> {
  return {
    schema: SIMULATION_SCHEMA,
    command: "ragci simulate",
    ragci: report.version,
    census: report.census,
    truth: report.truth,
    level: report.level,
    studies: report.studies.map((study, i) => ({
      ...study,
      recommended: report.recommended[i],
    })),
    notes: report.notes,
  };
}

/**
 * "87.2% ± 0.5 (0.396)": coverage, its Monte-Carlo se in points, the mean width; a coverage of
 * all or none of the repetitions shows its exact bound instead of a se of 0 ("100.0% (≥ 98.5)").
 */
function cell(study: StudyResult, key: StudyMethod): string {
  const score = study.methods[key];
  if (!score) return "";
  if (score.meanWidth === null) return "unavailable";
  return `${coverageWithError(score.coverage, score.mcse, study.reps)} (${significant(score.meanWidth, 3)})`;
}

/** A study's column: K, or m units × k documents under a two-stage design. */
function studyColumn(study: StudyResult): string {
  return study.design.kind === "two-stage"
    ? `m = ${study.design.units} × ${study.design.perUnit}`
    : `K = ${study.k}`;
}

/** How each repetition draws its sample, in words. */
function drawing(report: SimulationReport): string {
  const first = report.studies[0];
  const design = first?.design;
  if (design?.kind === "stratified")
    return `a stratified sample (${report.studies.map((s) => `K = ${s.k}: ${s.design.kind === "stratified" ? s.design.strata.map((h) => `${h.name} ${h.sampled} of ${h.population}`).join(", ") : ""}`).join("; ")}), SRS inside each stratum (the stratified interval with each stratum's fpc; the SRS intervals ${first?.fpc ? "with the fpc 1 − K/M" : "without fpc"}),`;
  if (design?.kind === "two-stage")
    return `m of the census's T = ${design.firstStagePopulation} first-stage units by SRS, then k documents by SRS inside each drawn unit (all of a unit with fewer; ${report.studies.map((s) => `m = ${s.design.kind === "two-stage" ? `${s.design.units}, k = ${s.design.perUnit}: ${fixed(s.design.expectedDocuments, 1)} documents on average` : ""}`).join("; ")}; the SRS intervals treat these samples as SRS${first?.fpc ? ", with the fpc 1 − K/M" : ", without fpc"}, the article's contrast),`;
  return `K of the ${report.census.documents} documents by SRS without replacement${first?.fpc ? " (fpc applied)" : " (no fpc)"}`;
}

function methodTable(report: SimulationReport, estimand: Estimand): ReportBlock[] {
  const keys = Object.keys(report.studies[0]?.methods ?? {}).filter((k) =>
    k.startsWith(`${estimand}/`),
  ) as StudyMethod[];
  const header = ["method", ...report.studies.map(studyColumn)];
  const rows = keys.map((key) => {
    const method = key.split("/")[1] as MethodId;
    const label = METHODS[method].contrast ? `${method} (contrast)` : method;
    return [label, ...report.studies.map((s) => cell(s, key))];
  });
  const recommended = [
    "recommended",
    ...report.recommended.map((r) => {
      const pick = r[estimand];
      if (!pick) return "—";
      return pick.reachesNominal
        ? pick.method
        : `${pick.method} (none reaches ${levelPercent(report.level)})`;
    }),
  ];
  return [
    {
      kind: "heading",
      text: `${estimand}: coverage ± MC se (mean width), nominal ${levelPercent(report.level)}, census value ${significant(report.truth[estimand], 4)}`,
    },
    {
      kind: "table",
      rows: [header, ...rows, recommended],
      align: ["l", ...report.studies.map(() => "r" as const)],
    },
  ];
}

export function simulationBlocks(report: SimulationReport): ReportBlock[] {
  const c = report.census;
  const what = c.pair
    ? `per-query differences ${c.pair.b} − ${c.pair.a} of ${c.metric}`
    : `${c.system === null ? "" : `system ${c.system} · `}metric ${c.metric} (${c.metricKind})`;
  const first = report.studies[0];
  const reps = [...new Set(report.studies.map((s) => s.reps))].join(", ");
  return [
    {
      kind: "title",
      text: `ragci simulate ${c.file} · ${what} · census of ${c.documents} documents, ${c.results} results`,
    },
    {
      kind: "text",
      text: `Each repetition draws ${drawing(report)} and computes every interval; ${reps} ${reps === "1" ? "repetition" : "repetitions"} per ${first?.design.kind === "two-stage" ? "m" : "K"}, B = ${first?.replicates ?? 0} bootstrap ${first?.replicates === 1 ? "replicate" : "replicates"}, seed ${first?.seed ?? 1} (numpy-exact streams: SeedSequence(seed, spawn_key=(i, 0)) draws repetition i, (i, 1) its bootstrap). An unavailable interval counts as a miss.`,
    },
    ...methodTable(report, "micro"),
    ...methodTable(report, "macro"),
    {
      kind: "bullets",
      items: [
        `Recommended: the robust default (${c.pair ? "compare's: micro cr2, macro t-differing" : "micro logit-cv3, macro logit; cr2 and t where they do not apply"}) when it reaches ${levelPercent(report.level)} within 2 Monte Carlo se (at least ${report.studies
          .map((s) => percent(reachingThreshold(s.level, s.reps), 1))
          .filter((x, i, all) => all.indexOf(x) === i)
          .join(
            " / ",
          )} here), unless a narrower interval that is not a contrast reaches ${levelPercent(report.level - 0.01)} beyond 2 MC se; if the default does not reach it, the narrowest that does; where none does, the one that covers most, and it says so${first && first.design.kind !== "srs" ? ` (under the ${first.design.kind} design only the design-based intervals, ${first.design.kind} and logit, are candidates)` : ""}.`,
        ...report.notes,
        ...(report.studies.some((s) =>
          Object.values(s.methods).some(
            (m) => m && m.meanWidth !== null && allOrNoneBound(m.coverage, s.reps) !== null,
          ),
        )
          ? [`${ALL_OR_NONE_NOTE}.`]
          : []),
        `These coverages are of this census under this design: the evidence for your data that the article's table is for its own, if the file holds every document of the population. ${SAMPLE_AS_CENSUS_CAVEAT}`,
      ],
    },
  ];
}

export function simulationTerminal(report: SimulationReport): string {
  return blocksToTerminal(simulationBlocks(report));
}

export function simulationMarkdown(report: SimulationReport): string {
  return blocksToMarkdown(simulationBlocks(report));
}
