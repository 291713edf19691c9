import { availableParallelism } from "node:os";
import type { Command } from "commander";
import type { AllocationRule } from "../../core/designs/allocation.js";
import { RagciError } from "../../core/errors.js";
import { CHUNK_BOOTSTRAP_SKIPPED, type StudyOptions } from "../../core/simulation/coverageStudy.js";
import { recommendFromStudy } from "../../core/simulation/recommendFromStudy.js";
import { sizeStudyStrata } from "../../core/simulation/stratifiedSample.js";
import { censusTruth, type StudyResult } from "../../core/simulation/studySummary.js";
import type { DocumentStats } from "../../core/types.js";
import { sha256File } from "../../ingest/hashInputs.js";
import { refuseUnsafeOutputs } from "../../ingest/outputSafety.js";
import { readPairedResults } from "../../ingest/readPairedResults.js";
import { writeFileAtomic } from "../../ingest/writeAtomic.js";
import {
  type SimulationReport,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "../../report/simulationReport.js";
import { runStudy } from "../../simulation/runStudy.js";
import type { CommandIo } from "../io.js";
import { parseLevel, parseList, parseReplicates, parseThreads } from "../options.js";
import { parseSystemOption, readOneSystem } from "../systemFilter.js";

interface SimulateCommandOptions {
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly query?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly k: string[];
  readonly reps: string[];
  readonly replicates: number;
  readonly seed: number;
  readonly fpc?: boolean;
  readonly level: number;
  readonly threads?: number;
  readonly chunkBootstrap?: boolean;
  readonly design?: string;
  readonly cutoff?: number;
  readonly allocation: string;
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly output?: string;
}

const EXAMPLES = `
Examples:
  $ ragci simulate examples/synthetic-census.csv --aggregated --k 5,10,20 --reps 2000
  $ ragci simulate examples/covidqa-retrieval.csv --metric hit5 --system system=bm25 --k 10,20
  $ ragci simulate examples/covidqa-retrieval.csv --metric hit5 --system system=bm25,tfidf --k 20
                                       # paired: the per-query differences tfidf − bm25
  $ ragci simulate census.parquet --metric rr --k 20 --reps 5000 --replicates 999 --json -o study.json

The census is every document of the population (per-query rows, or one row per document with
--aggregated). Each repetition draws K documents by simple random sampling without replacement,
computes every interval of ragci analyze on them, and checks it against the census value: the
article's coverage table, for your documents. Repetition i is numpy's
Generator(PCG64(SeedSequence(seed, spawn_key=(i, 0)))).choice(M, K, replace=False), and its
bootstrap SeedSequence(seed, spawn_key=(i, 1)).integers(0, K, (B, K)), so any repetition can be
replayed in numpy and the result is the same for any number of threads.`;

function wholeNumbers(flag: string, texts: readonly string[], minimum: number): number[] {
  return texts.map((text) => {
    const value = Number(text.replaceAll("_", ""));
    if (!Number.isSafeInteger(value) || value < minimum) {
      throw new RagciError("invalid-option", `${flag} ${text}: give whole numbers ≥ ${minimum}`);
    }
    return value;
  });
}

export function registerSimulate(program: Command, io: CommandIo): void {
  program
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
      "stratified: sample size strata (with --cutoff and --allocation) and score the stratified interval too",
    )
    .option(
      "--cutoff <n>",
      "with --design stratified: large documents have more than n results",
      Number,
    )
    .option(
      "--allocation <rule>",
      "with --design stratified: equal, proportional or neyman",
      "neyman",
    )
    .option("--json", "JSON output (schema ragci.simulation/1)")
    .option("--markdown", "Markdown output")
    .option("-o, --output <file>", "write the report to a file (atomically) instead of stdout")
    .addHelpText("after", EXAMPLES)
    .action(async (census: string, options: SimulateCommandOptions) => {
      const text = await runSimulate(census, options, io);
      if (options.output) await writeFileAtomic(options.output, text);
      else process.stdout.write(text);
    });
}

/** The census the study draws from: one system's per-document sums, or a pair's differences. */
async function readCensus(
  file: string,
  options: SimulateCommandOptions,
): Promise<{
  stats: DocumentStats;
  metric: string;
  system: string | null;
  pair: { a: string; b: string } | null;
}> {
  const system = parseSystemOption(options.system);
  const values = system?.values ?? null;
  if (system && values && values.length > 2) {
    throw new RagciError(
      "invalid-option",
      `--system ${options.system}: name one system, or two to study their paired differences`,
    );
  }
  if (system && values?.length === 2) {
    if (options.aggregated) {
      throw new RagciError(
        "invalid-option",
        "--system COLUMN=A,B pairs per-query results on the query id; it cannot read an --aggregated census",
      );
    }
    const metric = options.metric?.length === 1 ? options.metric[0] : undefined;
    if (metric === undefined)
      throw new RagciError(
        "invalid-option",
        "a paired study uses one metric: name it with --metric",
      );
    const [a, b] = values as [string, string];
    const table = await readPairedResults({
      inputs: [{ path: file, displayName: file }],
      format: options.format ?? null,
      doc: options.doc ?? null,
      query: options.query ?? null,
      system: system.column,
      onlySystems: [a, b],
      metrics: [metric],
      pairs: () => [[a, b]],
    });
    const difference = table.differences[0];
    if (!difference) throw new Error("internal: no paired difference");
    return { stats: difference.stats, metric, system: null, pair: { a, b } };
  }
  const filter = system ? { column: system.column, value: values?.join(",") ?? "" } : null;
  const one = await readOneSystem({ ...options, file }, filter, "simulate");
  return { stats: one.stats, metric: one.metric, system: values?.[0] ?? null, pair: null };
}

export async function runSimulate(
  file: string,
  options: SimulateCommandOptions,
  io: CommandIo,
): Promise<string> {
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  const ks = wholeNumbers("--k", options.k.length > 0 ? options.k : ["5", "10", "20"], 2);
  const repsGiven = wholeNumbers("--reps", options.reps.length > 0 ? options.reps : ["2000"], 1);
  if (repsGiven.length !== 1 && repsGiven.length !== ks.length) {
    throw new RagciError(
      "invalid-option",
      `--reps ${options.reps.join(",")}: give one number, or one per K (${ks.length} of them)`,
    );
  }
  const reps = ks.map((_, i) => (repsGiven.length === 1 ? repsGiven[0] : repsGiven[i]) as number);
  const stratified = options.design !== undefined;
  if (stratified && options.design !== "stratified") {
    throw new RagciError(
      "invalid-option",
      `--design ${options.design}: simulate draws SRS samples, or size strata with --design stratified --cutoff C; two-stage studies from a design file are not implemented yet`,
    );
  }
  if (stratified && (options.cutoff === undefined || !Number.isFinite(options.cutoff))) {
    throw new RagciError(
      "invalid-option",
      "--design stratified needs the size cutoff: --cutoff C (large documents have more than C results; ragci strata proposes one)",
    );
  }
  if (!stratified && options.cutoff !== undefined) {
    throw new RagciError("invalid-option", "--cutoff belongs to --design stratified");
  }
  if (!["equal", "proportional", "neyman"].includes(options.allocation)) {
    throw new RagciError(
      "invalid-option",
      `--allocation ${options.allocation}: use equal, proportional or neyman`,
    );
  }
  await refuseUnsafeOutputs([file], options.output ? [{ flag: "-o", path: options.output }] : []);
  io.progress.update(`reading ${file}…`);
  const [census, sha256] = await Promise.all([readCensus(file, options), sha256File(file)]);
  const stats = census.stats;
  const M = stats.n.length;
  const tooMany = ks.find((k) => k > M);
  if (tooMany !== undefined) {
    throw new RagciError("invalid-option", `--k ${tooMany}: more than the census's ${M} documents`);
  }
  const threads = options.threads ?? availableParallelism();
  const total = reps.reduce((t, r) => t + r, 0);
  const started = Date.now();
  let done = 0;
  const studies: StudyResult[] = [];
  for (const [i, k] of ks.entries()) {
    const study: StudyOptions = {
      documents: k,
      repetitions: reps[i] as number,
      replicates: options.replicates,
      seed: options.seed,
      level: options.level,
      fpc: options.fpc ?? false,
      chunkBootstrap: options.chunkBootstrap ?? false,
      differences: census.pair !== null,
      strata: stratified
        ? sizeStudyStrata(stats, options.cutoff as number, k, options.allocation as AllocationRule)
        : null,
    };
    studies.push(
      await runStudy(stats, study, {
        threads,
        ...(io.signal ? { signal: io.signal } : {}),
        onRepetitions: (count) => {
          done += count;
          const elapsed = (Date.now() - started) / 1000;
          const eta = done > 0 ? (elapsed / done) * (total - done) : 0;
          io.progress.update(
            `K = ${k}: ${Math.round((100 * done) / total)}% of ${total} repetitions · ${elapsed.toFixed(0)} s elapsed, about ${eta.toFixed(0)} s left`,
          );
        },
      }),
    );
  }
  io.progress.done();
  const binary = stats.binary;
  const inUnit = stats.min !== null && stats.max !== null && stats.min >= 0 && stats.max <= 1;
  const report: SimulationReport = {
    version: io.version,
    census: {
      file,
      sha256,
      kind: options.aggregated ? "per-document" : "per-query",
      documents: M,
      results: stats.n.reduce((t, v) => t + v, 0),
      metric: census.metric,
      metricKind: census.pair
        ? "difference"
        : binary
          ? "0/1"
          : inUnit
            ? "score in [0, 1]"
            : "score",
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
  if (options.json) return simulationJson(report);
  if (options.markdown) return simulationMarkdown(report);
  return simulationTerminal(report);
}
