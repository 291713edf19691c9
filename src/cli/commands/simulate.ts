import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { metricKindOf } from "../../core/analyze.js";
import { CHUNK_BOOTSTRAP_SKIPPED } from "../../core/simulation/coverageStudy.js";
import { recommendFromStudy } from "../../core/simulation/recommendFromStudy.js";
import { censusTruth } from "../../core/simulation/studySummary.js";
import { differenceName, type OneOrPairRead, readSource } from "../../ingest/index.js";
import { jsonText } from "../../report/jsonText.js";
import {
  SIMULATION_SCHEMA,
  type SimulationReport,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "../../report/simulationReport.js";
import { runStudyColumns, type StudyColumnSettings } from "../../simulation/runStudyColumns.js";
import { type CensusInputOptions, withCensusFileOptions } from "../censusFileOptions.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { type CommandIo, reportAction } from "../io.js";
import { parseLevel, parseList, parseReplicates, parseSeed, parseThreads } from "../options.js";
import { readingProgress } from "../readingProgress.js";
import {
  type ReportOptions,
  refuseUnsafe,
  renderReport,
  reportFormat,
  withReportOptions,
} from "../reportOptions.js";
import {
  checkColumnsFit,
  type SimulationDesignFlags,
  simulationDesign,
  studyDesign,
  studySizes,
  withSimulationDesignOptions,
} from "../simulationDesign.js";
import { checkSources, selectionOf, sourceOf, withDatabaseOptions } from "../sourceOptions.js";

interface SimulateCommandOptions
  extends CensusInputOptions,
    SimulationDesignFlags,
    StudyColumnSettings,
    ReportOptions {
  readonly units: string[];
  /** Worker threads; default the machine's cores. */
  readonly threads?: number;
}

const EXAMPLES = `
Examples:
  $ ragci simulate examples/synthetic-census.csv --aggregated --k 5,10,20 --reps 2000
  $ ragci simulate examples/covidqa-retrieval.csv --metric hit5 --system system=bm25 --k 10,20
  $ ragci simulate examples/covidqa-retrieval.csv --metric hit5 --system system=bm25,tfidf --k 20
                                       # paired: the per-query differences tfidf − bm25
  $ ragci simulate census.parquet --metric rr --k 20 --reps 5000 --replicates 999 --json -o study.json
  $ ragci simulate census.csv --aggregated --design two-stage --psu topic --units 4,8 --per-unit 5
                                       # two-stage: 4 or 8 topics, then 5 documents in each
  $ ragci simulate --from postgresql://me@db/eval --table results --doc doc_id --metric hit5 --system system=bm25 --k 10,20
                                       # the census aggregated in the database: K rows come back

The census is every document of the population (per-query rows, or one row per document with
--aggregated). Each repetition draws K documents by simple random sampling without replacement,
computes every interval of ragci analyze on them, and checks it against the census value: the
article's coverage table, for your documents. Repetition i is numpy's
Generator(PCG64(SeedSequence(seed, spawn_key=(i, 0)))).choice(M, K, replace=False), and its
bootstrap SeedSequence(seed, spawn_key=(i, 1)).integers(0, K, (B, K)), so any repetition can be
replayed in numpy and the result is the same for any number of threads.`;

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
    {
      flags: "--system <column=values>",
      help: "one system (system=bm25), or a pair whose per-query differences are studied (system=bm25,tfidf)",
    },
    true,
  )
    .option("--k <Ks>", "documents per sample, comma-separated", parseList, [])
    .option("--reps <R>", "repetitions: one number, or one per K (comma-separated)", parseList, [])
    .option(
      "--replicates <B>",
      "bootstrap replicates per repetition (0: no bootstrap)",
      parseReplicates,
      999,
    )
    .option("--seed <S>", "seed of every stream", parseSeed, 1)
    .option("--fpc", "apply the finite-population correction 1 − K/M")
    .option("--level <level>", "confidence level", parseLevel, 0.95)
    .option(
      "--threads <n>",
      "worker threads running the repetitions, and DuckDB threads reading the census file (default: the machine's cores)",
      parseThreads,
    )
    .option("--chunk-bootstrap", "also score the chunk bootstrap (a contrast; the slowest method)");
  withReportOptions(withDatabaseOptions(withSimulationDesignOptions(command)), SIMULATION_SCHEMA)
    .addHelpText("after", EXAMPLES)
    .action(reportAction(io, runSimulate));
}

export async function runSimulate(
  file: string | undefined,
  options: SimulateCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = reportFormat(options);
  const design = simulationDesign(options);
  const sizes = studySizes(options, design);
  const twoStage = design.kind === "two-stage" ? design : null;
  await refuseUnsafe([file, twoStage?.file], options);
  checkSources(file === undefined ? [] : [file], options, "the census file");
  const census = await readSource(
    sourceOf(file === undefined ? [] : [file], options, io),
    selectionOf(options),
    {
      read: "one",
      usedBy: "simulate",
      pairedUse: "a paired study",
      documentLabel: twoStage?.unitColumn ?? null,
      progress: readingProgress(io),
    },
  );
  const stats = census.stats;
  checkColumnsFit(sizes.columns, design, stats.n.length);
  const threads = options.threads ?? availableParallelism();
  const started = Date.now();
  const studies = await runStudyColumns(
    census,
    await studyDesign(design, census.labels ?? null),
    sizes,
    options,
    {
      threads,
      ...(io.signal ? { signal: io.signal } : {}),
      onProgress: (column, done, total) => {
        const elapsed = (Date.now() - started) / 1000;
        const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
        io.progress.update(
          `${sizes.perColumn} = ${sizes.columns[column]}: ${Math.round((100 * done) / total)}% of ${total} repetitions · ${elapsed.toFixed(0)} s elapsed, about ${eta.toFixed(0)} s left`,
        );
      },
    },
  );
  io.progress.done();
  const report: SimulationReport = {
    version: io.version,
    census: censusDescription(census),
    truth: censusTruth(stats),
    level: options.level,
    studies,
    recommended: studies.map((s) => ({
      micro: recommendFromStudy(s, "micro"),
      macro: recommendFromStudy(s, "macro"),
    })),
    threads,
    notes: options.chunkBootstrap ? [] : [`chunk-bootstrap: ${CHUNK_BOOTSTRAP_SKIPPED}.`],
  };
  const renderers = {
    json: (r: typeof report) => jsonText(simulationJson(r)),
    markdown: simulationMarkdown,
    terminal: simulationTerminal,
  };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { simulateHtml } = await import("../../report/html/simulatePage.js");
      const { pair, metric } = census;
      const system = pair ? differenceName(pair.a, pair.b) : census.system;
      const aggregates = aggregatesDownload(path, [{ system, metric, stats }]);
      return simulateHtml({ report, census: stats, aggregates });
    },
  });
}

/** The census as simulate's report describes it: source, digest, size, metric and what of it. */
function censusDescription(census: OneOrPairRead): SimulationReport["census"] {
  const { stats, pair, description } = census;
  return {
    file: description.file,
    sha256: description.sha256 as string,
    kind: description.kind,
    documents: stats.n.length,
    results: stats.n.reduce((t, v) => t + v, 0),
    metric: census.metric,
    metricKind: metricKindOf(stats, pair !== null),
    system: census.system,
    pair,
  };
}
