import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { checkReplicatesForLevel } from "../../core/bootstrap/replicateLimit.js";
import { RagciError } from "../../core/errors.js";
import { FACET_STUDY_REPETITIONS } from "../../core/simulation/facetPilotStudy.js";
import type { StudyPlanOptions } from "../../core/simulation/studyPlan.js";
import { studyPlan } from "../../core/simulation/studyPlan.js";
import { MAX_STUDY_REPETITIONS } from "../../core/simulation/studyRepetitions.js";
import { differenceName } from "../../ingest/index.js";
import { jsonText } from "../../report/jsonText.js";
import {
  SIMULATION_SCHEMA,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "../../report/simulationReport.js";
import type { StudyColumnSettings } from "../../simulation/runStudyColumns.js";
import { simulateCensusSource } from "../../simulation/simulateSource.js";
import { type CensusInputOptions, withCensusFileOptions } from "../censusFileOptions.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { type CommandIo, reportActionWhenGiven } from "../io.js";
import {
  parseSampling,
  wholeNumber,
  wholeNumberList,
  withAllocationOption,
  withChunkBootstrapOption,
  withCutoffOption,
  withDatabaseOptions,
  withDesignOption,
  withFacetOptions,
  withLevelOption,
  withPsuOption,
  withReplicatesOption,
  withReportOptions,
  withSeedOption,
  withThreadsOption,
} from "../options.js";
import { type ReportOptions, refuseUnsafe, renderReport, reportFormat } from "../reportOptions.js";
import { checkSources, selectionOf, sourceOf } from "../sourceOptions.js";
import { studyRun } from "../studyRun.js";
import {
  runSimulateFacets,
  type SimulateFacetsCommandOptions,
  simulatesFacets,
} from "./simulateFacets.js";

interface SimulateCommandOptions
  extends CensusInputOptions,
    Pick<SimulateFacetsCommandOptions, "trial" | "judge" | "variant">,
    StudyPlanOptions,
    StudyColumnSettings,
    ReportOptions {
  /** DuckDB threads reading the census (and, without --workers, the workers': deprecated). */
  readonly threads?: number;
  /** Worker threads running the repetitions; default the machine's cores. */
  readonly workers?: number;
  /** Whether --replicates was typed (a faceted study refuses it). */
  readonly replicatesGiven?: boolean;
}

const EXAMPLES = `
Examples:
  $ ragci simulate examples/synthetic-census.csv --aggregated --k 5,10,20 --reps 2000
  $ ragci simulate examples/covidqa-retrieval.csv --metric hit5 --system system=bm25 --k 10,20
  $ ragci simulate examples/covidqa-retrieval.csv --metric hit5 --system system=bm25,tfidf --k 20
                                       # paired: the per-query differences tfidf − bm25
  $ ragci simulate census.parquet --metric rr --k 20 --reps 5000 --replicates 999 --json -o study.json
  $ ragci simulate census.csv --aggregated --sampling two-stage --psu topic --units 4,8 --per-unit 5
                                       # two-stage: 4 or 8 topics, then 5 documents in each
  $ ragci simulate --from postgresql://me@db/eval --table results --doc doc_id --metric hit5 --system system=bm25 --k 10,20
                                       # the census aggregated in the database: K rows come back
  $ ragci simulate examples/covidqa-judges.csv --doc doc_id --query query_id --metric found \\
      --system system=bm25 --judge judge --k 30,98 --reps 200
                                       # faceted pilot: evaluations drawn from its components
  $ ragci simulate examples/covidqa-judges.csv --doc doc_id --query query_id --metric found \\
      --system system=bm25,tfidf --judge judge --k 30
                                       # faceted pair: the intervals of the difference tfidf − bm25

The census is every document of the population (per-query rows, or one row per document with
--aggregated). Each repetition draws K documents by simple random sampling without replacement,
computes every interval of ragci analyze on them, and checks it against the census value: the
article's coverage table, for your documents. Repetition i is numpy's
Generator(PCG64(SeedSequence(seed, spawn_key=(i, 0)))).choice(M, K, replace=False), and its
bootstrap SeedSequence(seed, spawn_key=(i, 1)).integers(0, K, (B, K)), so any repetition can be
replayed in numpy and the result is the same for any number of threads.`;

/**
 * simulate's --design stratified|two-stage, the study's sampling before --sampling: still read
 * (for one release) with a one-line notice. Any other --design is a design FILE, as in analyze.
 */
function samplingOfOldDesign(
  options: SimulateCommandOptions,
  io: CommandIo,
): SimulateCommandOptions {
  const keyword = options.design;
  if (keyword !== "stratified" && keyword !== "two-stage") return options;
  if (options.sampling !== undefined) {
    throw new RagciError(
      "invalid-option",
      `--design ${keyword}: the old spelling of --sampling ${keyword}, given with --sampling ${options.sampling}; drop --design ${keyword}`,
    );
  }
  io.stderr?.(
    `ragci: simulate --design ${keyword} is deprecated: give --sampling ${keyword} (--design is a design FILE, as in analyze and compare)\n`,
  );
  const { design: _keyword, ...rest } = options;
  return { ...rest, sampling: keyword };
}

/**
 * --design FILE that is no file: most likely a sampling keyword (srs, or a typo), so the refusal
 * names --sampling before the census is read.
 */
function refuseMissingDesignFile(file: string | undefined): void {
  if (file === undefined || existsSync(file)) return;
  throw new RagciError(
    "invalid-option",
    `--design ${file}: no such file; simulate's --design is a two-stage design FILE (JSON), and the study's sampling is --sampling srs, stratified or two-stage`,
  );
}

/** The deprecation notice of simulate's old --threads (the workers' count). */
const THREADS_AS_WORKERS =
  "ragci: simulate --threads n for the study's workers is deprecated: give --workers n (--threads sets DuckDB's threads)";

export function registerSimulate(program: Command, io: CommandIo): void {
  const command = withCensusFileOptions(
    program
      .command("simulate")
      .description(
        "coverage study on your own census: every interval, checked against the census value",
      )
      .argument(
        "[census]",
        "every document of the population (per-query, or per-document with --aggregated); or --from",
      ),
    "oneOrPair",
    true,
  )
    .option(
      "--k <Ks>",
      "documents per sample, comma-separated (default: 5,10,20)",
      wholeNumberList("--k", 2),
    )
    .option(
      "--reps <R>",
      `repetitions: one number, or one per K (comma-separated) (default: 2000; with --trial, --judge or --variant: ${FACET_STUDY_REPETITIONS})`,
      wholeNumberList("--reps", 1, MAX_STUDY_REPETITIONS),
    );
  withSeedOption(withReplicatesOption(command, true), "every stream").option(
    "--fpc",
    "apply the finite-population correction 1 − K/M",
  );
  withThreadsOption(withLevelOption(command), "census").option(
    "--workers <n>",
    "worker threads running the repetitions (default: the machine's cores)",
    wholeNumber("--workers", 1),
  );
  withChunkBootstrapOption(command, "score").option(
    "--sampling <sampling>",
    "how each sample is drawn: srs (default); stratified: size strata (with --cutoff and --allocation); two-stage: units, then documents (with --psu, --units, --per-unit); the design's interval is scored too",
    parseSampling,
  );
  withCutoffOption(withDesignOption(command, "population"), "sampling");
  withPsuOption(withAllocationOption(command, "sampling"))
    .option(
      "--units <m>",
      "with a two-stage design: units drawn per sample, comma-separated",
      wholeNumberList("--units", 2),
    )
    .option(
      "--per-unit <k>",
      "with a two-stage design: documents drawn in each drawn unit",
      wholeNumber("--per-unit", 2, "whole numbers ≥ 2"),
    );
  withReportOptions(withDatabaseOptions(withFacetOptions(command)), SIMULATION_SCHEMA)
    .addHelpText("after", EXAMPLES)
    .action((file: string | undefined, options: SimulateCommandOptions, command: Command) =>
      reportActionWhenGiven(io, runSimulate, "allocation")(
        file,
        { ...options, replicatesGiven: command.getOptionValueSource("replicates") === "cli" },
        command,
      ),
    );
}

export async function runSimulate(
  file: string | undefined,
  given: SimulateCommandOptions,
  io: CommandIo,
): Promise<string> {
  // A faceted pilot (reruns, judges, wordings): evaluations drawn from its components.
  if (simulatesFacets(given)) return runSimulateFacets(file, given, io);
  const options = samplingOfOldDesign(given, io);
  refuseMissingDesignFile(options.design);
  // B = 0 turns resampling off: the chunk bootstrap asked for would be "unavailable" throughout.
  if (options.chunkBootstrap && options.replicates === 0)
    throw new RagciError(
      "invalid-option",
      "--chunk-bootstrap with --replicates 0: resampling is off, so it would be unavailable in every repetition; give --replicates B ≥ 1, or drop --chunk-bootstrap",
    );
  if (options.replicatesGiven === true) checkReplicatesForLevel(options.replicates, options.level);
  const format = reportFormat(options);
  const plan = studyPlan(options);
  const twoStage = plan.design.kind === "two-stage" ? plan.design : null;
  await refuseUnsafe([file, twoStage?.file], options);
  const files = file === undefined ? [] : [file];
  checkSources(files, options, "the census file");
  const { sizes } = plan;
  // --threads alone once set the workers too: still does, saying so.
  if (options.threads !== undefined && options.workers === undefined)
    io.stderr?.(`${THREADS_AS_WORKERS}\n`);
  const workers = options.workers ?? options.threads ?? availableParallelism();
  const { report, census } = await simulateCensusSource(
    sourceOf(files, options, io),
    selectionOf(options),
    options,
    studyRun(io, workers, (column, done, total) => ({
      label: `${sizes.perColumn} = ${sizes.columns[column]}`,
      fraction: done / total,
    })),
  );
  io.progress.done();
  const renderers = {
    json: (r: Parameters<typeof simulationJson>[0]) => jsonText(simulationJson(r)),
    markdown: simulationMarkdown,
    terminal: simulationTerminal,
  };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { simulateHtml } = await import("../../report/html/simulatePage.js");
      const { pair, metric, stats } = census;
      const system = pair ? differenceName(pair.a, pair.b) : census.system;
      const aggregates = aggregatesDownload(path, [{ system, metric, stats }]);
      return simulateHtml({ report, census: stats, aggregates });
    },
  });
}
