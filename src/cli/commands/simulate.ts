import { availableParallelism } from "node:os";
import type { Command } from "commander";
import type { AllocationRule } from "../../core/designs/allocation.js";
import { ALLOCATION_RULES } from "../../core/designs/allocation.js";
import { RagciError } from "../../core/errors.js";
import { CHUNK_BOOTSTRAP_SKIPPED, type StudyOptions } from "../../core/simulation/coverageStudy.js";
import { recommendFromStudy } from "../../core/simulation/recommendFromStudy.js";
import { sizeStudyStrata } from "../../core/simulation/stratifiedSample.js";
import { censusTruth, type StudyResult } from "../../core/simulation/studySummary.js";
import {
  checkTwoStagePopulation,
  mostDocuments,
  studyUnits,
} from "../../core/simulation/twoStageSample.js";
import type { DocumentStats } from "../../core/types.js";
import { sha256File } from "../../ingest/hashInputs.js";
import { refuseUnsafeOutputs } from "../../ingest/outputSafety.js";
import { readDesign } from "../../ingest/readDesign.js";
import { readOneSystem } from "../../ingest/readOneSystem.js";
import { readPairedResults } from "../../ingest/readPairedResults.js";
import {
  type SimulationReport,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "../../report/simulationReport.js";
import { runStudy } from "../../simulation/runStudy.js";
import { type CommandIo, emitReport } from "../io.js";
import { parseLevel, parseList, parseReplicates, parseThreads } from "../options.js";
import { parseSystemOption } from "../systemFilter.js";

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
  readonly psu?: string;
  readonly units: string[];
  readonly perUnit?: string;
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
  $ ragci simulate census.csv --aggregated --design two-stage --psu topic --units 4,8 --per-unit 5
                                       # two-stage: 4 or 8 topics, then 5 documents in each

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
    .option("--per-unit <k>", "with a two-stage design: documents drawn in each drawn unit")
    .option("--json", "JSON output (schema ragci.simulation/1)")
    .option("--markdown", "Markdown output")
    .option("-o, --output <file>", "write the report to a file (atomically) instead of stdout")
    .addHelpText("after", EXAMPLES)
    .action(async (census: string, options: SimulateCommandOptions) => {
      const text = await runSimulate(census, options, io);
      await emitReport(io, text, options.output);
    });
}

/** The census the study draws from: one system's per-document sums, or a pair's differences. */
async function readCensus(
  file: string,
  options: SimulateCommandOptions,
  unitColumn: string | null,
): Promise<{
  stats: DocumentStats;
  metric: string;
  system: string | null;
  pair: { a: string; b: string } | null;
  /** Each document's first-stage unit (a two-stage study), aligned with stats.ids. */
  labels: readonly string[] | null;
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
      documentLabel: unitColumn,
    });
    const difference = table.differences[0];
    if (!difference) throw new Error("internal: no paired difference");
    const labelOf = table.labelOf;
    return {
      stats: difference.stats,
      metric,
      system: null,
      pair: { a, b },
      labels: labelOf ? difference.stats.ids.map((id) => labelOf.get(id) as string) : null,
    };
  }
  const filter = system ? { column: system.column, value: values?.join(",") ?? "" } : null;
  const one = await readOneSystem(
    { ...options, file, documentLabel: unitColumn },
    filter,
    "simulate",
  );
  return {
    stats: one.stats,
    metric: one.metric,
    system: values?.[0] ?? null,
    pair: null,
    labels: one.labels,
  };
}

type SimulationDesign =
  | { readonly kind: "srs" }
  | { readonly kind: "stratified"; readonly cutoff: number; readonly allocation: AllocationRule }
  | {
      readonly kind: "two-stage";
      readonly unitColumn: string;
      readonly perUnit: number;
      /** A two-stage design file whose T and M_i must match the census, or null. */
      readonly file: string | null;
    };

/** The study's design from --design and its flags, each flag refused where it does not apply. */
function simulationDesign(options: SimulateCommandOptions): SimulationDesign {
  const given = options.design;
  const kind =
    given === undefined
      ? "srs"
      : given === "stratified"
        ? "stratified"
        : given === "two-stage" || /\.json$/i.test(given)
          ? "two-stage"
          : null;
  if (kind === null) {
    throw new RagciError(
      "invalid-option",
      `--design ${given}: use stratified (size strata, with --cutoff C), two-stage (with --psu, --units, --per-unit), or a two-stage design FILE.json`,
    );
  }
  if (kind !== "stratified" && options.cutoff !== undefined)
    throw new RagciError("invalid-option", "--cutoff belongs to --design stratified");
  if (kind !== "two-stage" && (options.units.length > 0 || options.perUnit || options.psu)) {
    throw new RagciError(
      "invalid-option",
      "--psu, --units and --per-unit belong to a two-stage study: --design two-stage (or a two-stage design FILE.json)",
    );
  }
  if (!(ALLOCATION_RULES as readonly string[]).includes(options.allocation)) {
    throw new RagciError(
      "invalid-option",
      `--allocation ${options.allocation}: use equal, proportional or neyman`,
    );
  }
  if (kind === "stratified") {
    if (options.cutoff === undefined || !Number.isFinite(options.cutoff)) {
      throw new RagciError(
        "invalid-option",
        "--design stratified needs the size cutoff: --cutoff C (large documents have more than C results; ragci strata proposes one)",
      );
    }
    return {
      kind,
      cutoff: options.cutoff,
      allocation: options.allocation as AllocationRule,
    };
  }
  if (kind === "two-stage") {
    if (options.k.length > 0) {
      throw new RagciError(
        "invalid-option",
        "a two-stage study's columns are --units m (units per sample) with --per-unit k documents in each; --k does not apply",
      );
    }
    if (options.units.length === 0 || options.perUnit === undefined) {
      throw new RagciError(
        "invalid-option",
        "a two-stage study needs --units m (units drawn per sample, e.g. 4,8) and --per-unit k (documents drawn in each)",
      );
    }
    return {
      kind,
      unitColumn: options.psu ?? "psu",
      perUnit: wholeNumbers("--per-unit", [options.perUnit], 2)[0] as number,
      file: given === "two-stage" ? null : (given as string),
    };
  }
  return { kind: "srs" };
}

export async function runSimulate(
  file: string,
  options: SimulateCommandOptions,
  io: CommandIo,
): Promise<string> {
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  const design = simulationDesign(options);
  const columns =
    design.kind === "two-stage"
      ? wholeNumbers("--units", options.units, 2)
      : wholeNumbers("--k", options.k.length > 0 ? options.k : ["5", "10", "20"], 2);
  const perColumn = design.kind === "two-stage" ? "m" : "K";
  const repsGiven = wholeNumbers("--reps", options.reps.length > 0 ? options.reps : ["2000"], 1);
  if (repsGiven.length !== 1 && repsGiven.length !== columns.length) {
    throw new RagciError(
      "invalid-option",
      `--reps ${options.reps.join(",")}: give one number, or one per ${perColumn} (${columns.length} of them)`,
    );
  }
  const reps = columns.map(
    (_, i) => (repsGiven.length === 1 ? repsGiven[0] : repsGiven[i]) as number,
  );
  const designFile = design.kind === "two-stage" ? design.file : null;
  await refuseUnsafeOutputs(
    designFile ? [file, designFile] : [file],
    options.output ? [{ flag: "-o", path: options.output }] : [],
  );
  const fileDesign = designFile ? await readDesign(designFile) : null;
  if (fileDesign && fileDesign.kind !== "two-stage") {
    throw new RagciError(
      "invalid-option",
      `--design ${designFile}: simulate reads a two-stage design file (${designFile} is ${fileDesign.kind}); size strata are --design stratified --cutoff C, and an SRS study needs no --design`,
    );
  }
  io.progress.update(`reading ${file}…`);
  const [census, sha256] = await Promise.all([
    readCensus(file, options, design.kind === "two-stage" ? design.unitColumn : null),
    sha256File(file),
  ]);
  const stats = census.stats;
  const M = stats.n.length;
  if (design.kind !== "two-stage") {
    const tooMany = columns.find((k) => k > M);
    if (tooMany !== undefined) {
      throw new RagciError(
        "invalid-option",
        `--k ${tooMany}: more than the census's ${M} documents`,
      );
    }
  }
  const unitsFor = (m: number) => {
    if (design.kind !== "two-stage") return null;
    const units = studyUnits(census.labels ?? [], m, design.perUnit);
    if (fileDesign?.kind === "two-stage")
      checkTwoStagePopulation(
        units,
        fileDesign.firstStagePopulation,
        fileDesign.secondStagePopulation,
        designFile as string,
      );
    return units;
  };
  // Every column's units, built and checked once, before any work starts.
  const unitsPerColumn = columns.map(unitsFor);
  const threads = options.threads ?? availableParallelism();
  const total = reps.reduce((t, r) => t + r, 0);
  const started = Date.now();
  let done = 0;
  const studies: StudyResult[] = [];
  for (const [i, k] of columns.entries()) {
    const units = unitsPerColumn[i] ?? null;
    const study: StudyOptions = {
      documents: units ? mostDocuments(units) : k,
      repetitions: reps[i] as number,
      replicates: options.replicates,
      seed: options.seed,
      level: options.level,
      fpc: options.fpc ?? false,
      chunkBootstrap: options.chunkBootstrap ?? false,
      differences: census.pair !== null,
      strata:
        design.kind === "stratified"
          ? sizeStudyStrata(stats, design.cutoff, k, design.allocation)
          : null,
      units,
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
            `${perColumn} = ${k}: ${Math.round((100 * done) / total)}% of ${total} repetitions · ${elapsed.toFixed(0)} s elapsed, about ${eta.toFixed(0)} s left`,
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
