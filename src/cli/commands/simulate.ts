import { availableParallelism } from "node:os";
import type { Command } from "commander";
import { metricKindOf } from "../../core/analyze.js";
import { RagciError } from "../../core/errors.js";
import { CHUNK_BOOTSTRAP_SKIPPED } from "../../core/simulation/coverageStudy.js";
import { recommendFromStudy } from "../../core/simulation/recommendFromStudy.js";
import { studyColumns } from "../../core/simulation/studyColumns.js";
import { censusTruth } from "../../core/simulation/studySummary.js";
import { sha256File } from "../../ingest/hashInputs.js";
import {
  type SimulationReport,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "../../report/simulationReport.js";
import { aggregatesDownload, writeHtmlReport } from "../htmlOutput.js";
import { type CommandIo, emitReport } from "../io.js";
import { type CensusInputOptions, loadCensus } from "../loadCensus.js";
import {
  parseAllocation,
  parseLevel,
  parseList,
  parseReplicates,
  parseThreads,
  wholeNumbers,
} from "../options.js";
import {
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
  withReportOptions,
} from "../reportOptions.js";
import { runStudyColumns } from "../runStudyColumns.js";
import {
  type SimulationDesignFlags,
  simulationDesign,
  studyDesign,
  studySizes,
} from "../simulationDesign.js";

interface SimulateCommandOptions extends CensusInputOptions, SimulationDesignFlags, ReportOptions {
  readonly replicates: number;
  readonly seed: number;
  readonly fpc?: boolean;
  readonly level: number;
  readonly chunkBootstrap?: boolean;
  readonly units: string[];
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

The census is every document of the population (per-query rows, or one row per document with
--aggregated). Each repetition draws K documents by simple random sampling without replacement,
computes every interval of ragci analyze on them, and checks it against the census value: the
article's coverage table, for your documents. Repetition i is numpy's
Generator(PCG64(SeedSequence(seed, spawn_key=(i, 0)))).choice(M, K, replace=False), and its
bootstrap SeedSequence(seed, spawn_key=(i, 1)).integers(0, K, (B, K)), so any repetition can be
replayed in numpy and the result is the same for any number of threads.`;

export function registerSimulate(program: Command, io: CommandIo): void {
  const command = program
    .command("simulate")
    .description(
      "coverage study on your own census: every interval, checked against the census value",
    )
    .argument(
      "<census>",
      "every document of the population (per-query, or per-document with --aggregated)",
    )
    .option("--doc <column>", "document id column")
    .option("--metric <column>", "metric column", parseList)
    .option(
      "--system <column=values>",
      "one system (system=bm25), or a pair whose per-query differences are studied (system=bm25,tfidf)",
    )
    .option("--query <column>", "query id column, to pair two systems (default: detected)")
    .option("--format <format>", "csv, tsv, jsonl or parquet")
    .option("--aggregated", "the census is one row per document: doc, n, s[, ss]")
    .option("--k <Ks>", "documents per sample, comma-separated", parseList, [])
    .option("--reps <R>", "repetitions: one number, or one per K (comma-separated)", parseList, [])
    .option(
      "--replicates <B>",
      "bootstrap replicates per repetition (0: no bootstrap)",
      parseReplicates,
      999,
    )
    .option(
      "--seed <S>",
      "seed of every stream",
      (t) => wholeNumbers("--seed", [t], 0)[0] as number,
      1,
    )
    .option("--fpc", "apply the finite-population correction 1 − K/M")
    .option("--level <level>", "confidence level", parseLevel, 0.95)
    .option("--threads <n>", "worker threads (default: the machine's cores)", parseThreads)
    .option("--chunk-bootstrap", "also score the chunk bootstrap (a contrast; the slowest method)")
    .option(
      "--design <design>",
      "stratified: sample size strata (with --cutoff and --allocation); two-stage or a two-stage design FILE.json: units, then documents (with --psu, --units, --per-unit); the design's interval is scored too",
    )
    .option(
      "--cutoff <n>",
      "with --design stratified: large documents have more than n results",
      Number,
    )
    .option(
      "--allocation <rule>",
      "with --design stratified: equal, proportional or neyman",
      parseAllocation,
      "neyman",
    )
    .option(
      "--psu <column>",
      "with a two-stage design: the census's first-stage unit column (default: psu)",
    )
    .option(
      "--units <m>",
      "with a two-stage design: units drawn per sample, comma-separated",
      parseList,
      [],
    )
    .option("--per-unit <k>", "with a two-stage design: documents drawn in each drawn unit");
  withReportOptions(command, "ragci.simulation/1")
    .addHelpText("after", EXAMPLES)
    .action(async (census: string, options: SimulateCommandOptions) => {
      const text = await runSimulate(census, options, io);
      await emitReport(io, text, options.output);
    });
}

export async function runSimulate(
  file: string,
  options: SimulateCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = reportFormat(options);
  const design = simulationDesign(options);
  const { columns, repetitions, perColumn } = studySizes(options, design);
  await refuseUnsafe([file, design.kind === "two-stage" ? design.file : null], options);
  io.progress.update(`reading ${file}…`);
  const [census, sha256] = await Promise.all([
    loadCensus(file, options, design.kind === "two-stage" ? design.unitColumn : null),
    sha256File(file),
  ]);
  const stats = census.stats;
  const tooMany = design.kind === "two-stage" ? undefined : columns.find((k) => k > stats.n.length);
  if (tooMany !== undefined) {
    throw new RagciError(
      "invalid-option",
      `--k ${tooMany}: more than the census's ${stats.n.length} documents`,
    );
  }
  const plans = studyColumns(stats, {
    columns,
    repetitions,
    design: await studyDesign(design, census.labels ?? null),
    replicates: options.replicates,
    seed: options.seed,
    level: options.level,
    fpc: options.fpc ?? false,
    chunkBootstrap: options.chunkBootstrap ?? false,
    differences: census.pair !== null,
  });
  const threads = options.threads ?? availableParallelism();
  const studies = await runStudyColumns(stats, plans, { columns, perColumn, threads }, io);
  io.progress.done();
  const report: SimulationReport = {
    version: io.version,
    census: {
      file,
      sha256,
      kind: options.aggregated ? "per-document" : "per-query",
      documents: stats.n.length,
      results: stats.n.reduce((t, v) => t + v, 0),
      metric: census.metric,
      metricKind: metricKindOf(stats, census.pair !== null),
      system: census.system,
      pair: census.pair,
    },
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
  const html = options.html;
  if (html) {
    await writeHtmlReport(html, async () => {
      const { simulateHtml } = await import("../../report/html/simulatePage.js");
      const pair = census.pair;
      return simulateHtml({
        report,
        census: stats,
        aggregates: aggregatesDownload(html, [
          { system: pair ? `${pair.b} - ${pair.a}` : census.system, metric: census.metric, stats },
        ]),
      });
    });
  }
  if (format === "json") return simulationJson(report);
  if (format === "markdown") return simulationMarkdown(report);
  return simulationTerminal(report);
}
