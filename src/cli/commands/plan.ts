import type { Command } from "commander";
import { facetPlanOfPilot } from "../../core/planning/planRequest.js";
import { planSample } from "../../core/planning/samplePlan.js";
import { planSizeStratifiedBeside } from "../../core/planning/sizeStratifiedPlan.js";
import { differenceName, parseSystemSelection, readPlanStart } from "../../ingest/index.js";
import { jsonText } from "../../report/jsonText.js";
import { PLAN_SCHEMA, planJson, planMarkdown, planTerminal } from "../../report/planReport.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { type CommandIo, reportActionWhenGiven } from "../io.js";
import {
  finiteNumber,
  nonNegativeNumber,
  parseCurve,
  positiveNumber,
  probability,
  withAggregatedOption,
  withCensusOption,
  withCutoffOption,
  withDatabaseOptions,
  withDocOption,
  withFacetOptions,
  withFormatOption,
  withLevelOption,
  withMetricOption,
  withPopulationOption,
  withQueryOption,
  withReportOptions,
  withSystemOption,
} from "../options.js";
import { censusFileOf, checkPlanOptions, type PlanFlags, parseFacetCosts } from "../planOptions.js";
import { readingProgress } from "../readingProgress.js";
import { renderReport } from "../reportOptions.js";
import { selectionOf, sourceOf } from "../sourceOptions.js";

const EXAMPLES = `
Examples:
  $ ragci plan --sd 0.224 --population 1300 --half-width 0.05      # 76 documents (80 without fpc)
  $ ragci plan pilot.csv --doc doc_id --metric hit5 --system system=bm25 --half-width 0.03 --population 1300
  $ ragci plan --census census.csv --metric hit5 --half-width 0.02  # S from all M documents
  $ ragci plan --sd 0.18 --difference 0.03 --power 0.8             # paired: documents to detect d
  $ ragci plan pilot.csv --metric hit5 --system system=bm25,tfidf --difference 0.03
                                                # paired, S of the pilot's per-document difference
  $ ragci plan --census census.csv --metric hit5 --system system=bm25 --half-width 0.05 --cutoff 20
                                                # and stratified by size: large = more than 20 results
  $ ragci plan examples/covidqa-judges.csv --doc doc_id --query query_id --metric found --system system=bm25 \\
      --judge judge --half-width 0.05 --cost document=20,query=1,trial=0,judge=0.1
                                                # across judges: the cheapest documents × queries × judges
  $ ragci plan --from postgresql://me@db/eval --table results --doc doc_id --metric hit5 --system system=bm25 --half-width 0.03
                                                # S of the pilot, aggregated in the database

The rule (docs/designs.md): the smallest K with t(1 − α/2; K − 1)·S/√K·√(1 − K/M) ≤ w, for macro
(S = sd of the document rates) and micro (S = sd of u_d = s_d − R·n_d over the mean size).`;

export function registerPlan(program: Command, io: CommandIo): void {
  const command = program
    .command("plan")
    .description(
      "how many documents to label for a target half-width (or to detect a paired difference)",
    )
    .argument("[file]", "a pilot sample or census (per-query, or per-document with --aggregated)")
    .option(
      "--sd <S>",
      "per-document standard deviation S for both estimands",
      nonNegativeNumber("--sd"),
    )
    .option(
      "--sd-macro <S>",
      "S for macro (sd of the document rates)",
      nonNegativeNumber("--sd-macro"),
    )
    .option(
      "--sd-micro <S>",
      "S for micro (sd of u_d over the mean size)",
      nonNegativeNumber("--sd-micro"),
    )
    .option("--half-width <w>", "target half-width of the interval", positiveNumber("--half-width"))
    .option(
      "--difference <d>",
      "paired plan: the difference to detect",
      finiteNumber("--difference", "a non-zero number, e.g. 0.03"),
    )
    .option(
      "--power <p>",
      "paired plan: power to detect it",
      probability("--power", "a power between 0.5 and 1, e.g. 0.8 or 80%"),
      0.8,
    );
  withCensusOption(withPopulationOption(command), "population");
  withSystemOption(withMetricOption(withDocOption(withLevelOption(command)), "one"), "oneOrPair");
  withFormatOption(withQueryOption(command, "pairedWhenTwo"), "tables");
  withAggregatedOption(command).option(
    "--curve <Ks>",
    "documents at which to show the half-width (comma-separated)",
    parseCurve,
  );
  withCutoffOption(command, "plan")
    .option(
      "--cost <prices>",
      "plan across reruns and judges (a pilot with --trial/--judge): each unit's price, document=…,query=…,trial=…,judge=… (trial: one generation; judge: one judge grading one answer)",
      parseFacetCosts,
    )
    .option(
      "--budget <B>",
      "with --cost: also the narrowest design this budget buys",
      positiveNumber("--budget"),
    );
  withReportOptions(withDatabaseOptions(withFacetOptions(command)), PLAN_SCHEMA)
    .addHelpText("after", EXAMPLES)
    .action(reportActionWhenGiven(io, runPlan, "power"));
}

export async function runPlan(
  argument: string | undefined,
  flags: PlanFlags,
  io: CommandIo,
): Promise<string> {
  const { file, options } = censusFileOf(argument, flags);
  const format = await checkPlanOptions(file, options);
  const given = file !== undefined || options.from !== undefined;
  const source = given ? sourceOf(file === undefined ? [] : [file], options, io) : null;
  const start = await readPlanStart(source, selectionOf(options), options, readingProgress(io));
  io.progress.done();
  const plan = planSample({
    sd: start.sd,
    ...(options.halfWidth === undefined ? {} : { halfWidth: options.halfWidth }),
    ...(options.difference === undefined ? {} : { difference: options.difference }),
    ...(options.power === undefined ? {} : { power: options.power }),
    level: options.level,
    ...(options.curve ? { curve: options.curve } : {}),
    population: start.population,
    source: start.source,
    oneSystemForDifference: start.oneSystemForDifference,
    ...(start.differingDocuments === undefined
      ? {}
      : { differingDocuments: start.differingDocuments }),
  });
  const stratified =
    options.cutoff !== undefined && start.census
      ? planSizeStratifiedBeside(plan, start.census, options.cutoff)
      : null;
  const { cost } = options;
  const pair = plan.source.kind === "given" ? null : (plan.source.difference ?? null);
  const pilot = { cells: start.facetCells, systems: start.facetSystems ?? [] };
  const facets = cost ? facetPlanOfPilot(pilot, pair, { ...options, cost }) : null;
  const report = { version: io.version, plan, stratified, facets };
  const renderers = {
    json: (r: typeof report) => jsonText(planJson(r)),
    markdown: planMarkdown,
    terminal: planTerminal,
  };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { planHtml } = await import("../../report/html/planPage.js");
      const census = start.census && {
        system: pair
          ? differenceName(pair.a, pair.b)
          : (parseSystemSelection(options.system)?.systems?.[0] ?? null),
        metric: pair?.metric ?? options.metric?.[0] ?? "metric",
        stats: start.census,
      };
      return planHtml({ report, aggregates: census ? aggregatesDownload(path, [census]) : null });
    },
  });
}
