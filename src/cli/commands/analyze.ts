import type { Command } from "commander";
import { compareCodePoints, mergeDocumentStats } from "../../core/aggregate/mergeDocumentStats.js";
import {
  CHUNK_BOOTSTRAP_ROW_LIMIT,
  type ResultValues,
} from "../../core/bootstrap/chunkBootstrap.js";
import { RagciError } from "../../core/errors.js";
import { CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS } from "../../core/resamplingIntervals.js";
import { censusStudyOptions } from "../../core/simulation/censusStudyOptions.js";
import type { Estimand } from "../../core/types.js";
import { sha256Aggregates, sha256File } from "../../ingest/hashInputs.js";
import { refuseUnsafeOutputs } from "../../ingest/outputSafety.js";
import { readAggregates } from "../../ingest/readAggregates.js";
import { type MetricAggregates, type ResultsTable, readResults } from "../../ingest/readResults.js";
import { checkAggregatesFileName, writeAggregates } from "../../ingest/writeAggregates.js";
import type {
  AnalysisEntry,
  AnalysisReport,
  InputDescription,
} from "../../report/analysisReport.js";
import { formatReportJson } from "../../report/json.js";
import { markdownReport } from "../../report/markdown.js";
import { terminalReport } from "../../report/terminal.js";
import { runCensusStudy } from "../censusStudy.js";
import { type DesignCommandOptions, declaredDesign, withDesignOptions } from "../designOptions.js";
import { type CommandIo, emitReport } from "../io.js";
import { parseCount, parseList, withInferenceOptions } from "../options.js";
import { spoolStdin } from "../spoolStdin.js";
import { parseSystemOption, pickSystems } from "../systemFilter.js";

export interface AnalyzeCommandOptions extends DesignCommandOptions {
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly level: number;
  readonly population?: number;
  readonly estimand?: Estimand;
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly output?: string;
  readonly writeAggregates?: string;
  readonly census?: string;
  readonly censusReps?: number;
  readonly censusAggregated?: boolean;
  readonly threads?: number;
  readonly replicates: number;
  readonly seed: number;
  /** Whether --replicates was given; if not, resampling is skipped above DEFAULT_MAX_DRAWS. */
  readonly replicatesExplicit?: boolean;
  readonly chunkBootstrap?: boolean;
}

/** B·K above which the default run skips the bootstrap (about 10–30 s of work). */
export const DEFAULT_MAX_DRAWS = 1e8;

const EXAMPLES = `
Examples:
  $ ragci analyze examples/covidqa-retrieval.csv --doc doc_id --metric hit5 --system system
  $ ragci analyze examples/covidqa-retrieval.csv --metric hit5 --system system=bm25   # one system
  $ ragci analyze results.parquet --doc doc_id --metric hit@5,mrr --population 1300 --json
  $ cat results.jsonl | ragci analyze - --format jsonl --doc doc --metric rr
  $ ragci analyze perdoc.csv --aggregated          # columns doc, n, s[, ss]
  $ ragci analyze shard1.csv shard2.csv --metric hit   # shards are merged per document
  $ ragci analyze results.csv --metric hit --design strata.json --stratum size   # stratified
  $ ragci analyze perdoc.csv --aggregated --design topics.json --psu topic       # two-stage
  $ ragci analyze results.csv --metric hit --design strata.json --lonely-psu adjust

Per-query input has one row per query result: a document id column and metric columns
(0/1 or any score). Aggregated input has one row per document: doc, n (results), s (their
sum) and, for non-binary metrics, ss (their sum of squares). A stratified or two-stage design
(--design FILE.json; README, “Designs, planning and size strata”) reads each document's stratum or first-stage unit from a column
of the input (--stratum, default stratum; --psu, default psu), per-query or aggregated.`;

export function registerAnalyze(program: Command, io: CommandIo): void {
  withInferenceOptions(
    withDesignOptions(
      program
        .command("analyze")
        .description("document-level intervals for micro and macro averages of retrieval metrics")
        .argument("<files...>", "per-query results (CSV, TSV, JSONL, Parquet; - for stdin)")
        .option(
          "--doc <column>",
          "document id column (default: doc_id, doc, document_id or document)",
        )
        .option(
          "--metric <columns>",
          "metric column(s), comma-separated (e.g. hit@5,mrr)",
          parseList,
        )
        .option(
          "--system <column[=values]>",
          "one analysis per value of this column; COLUMN=A or COLUMN=A,B analyses only those systems",
        )
        .option(
          "--format <format>",
          "csv, tsv, jsonl or parquet (default: from the extension; needed for -)",
        )
        .option("--aggregated", "input is one row per document: doc, n, s[, ss]")
        .option(
          "--chunk-bootstrap",
          "run the chunk bootstrap (a contrast) even when B·K > 2·10⁶, where it is skipped by default",
        )
        .option("--json", "JSON output (schema ragci.analysis/1)")
        .option("--markdown", "Markdown output")
        .option("-o, --output <file>", "write the report to a file (atomically) instead of stdout")
        .option(
          "--write-aggregates <file>",
          "save the per-document table (.csv or .parquet) to re-run from",
        )
        .option(
          "--census <file>",
          "every document of the population: run a coverage study at this K on it and recommend from it",
        )
        .option(
          "--census-reps <R>",
          "repetitions of the --census study",
          parseCount("--census-reps"),
          1000,
        )
        .option(
          "--census-aggregated",
          "the --census file is one row per document: doc, n, s[, ss]",
        ),
    ),
  )
    .addHelpText("after", EXAMPLES)
    .action(async (files: string[], options: AnalyzeCommandOptions, command: Command) => {
      const explicit = command.getOptionValueSource("replicates") === "cli";
      const text = await runAnalyze(files, { ...options, replicatesExplicit: explicit }, io);
      await emitReport(io, text, options.output);
    });
}

interface LoadedInput {
  readonly table: ResultsTable;
  readonly description: InputDescription;
}

async function loadInput(
  file: string,
  options: AnalyzeCommandOptions,
  io: CommandIo,
  designColumn: string | null,
): Promise<LoadedInput> {
  const stdin = file === "-";
  if (stdin && !options.format) {
    throw new RagciError(
      "invalid-option",
      "reading from stdin (-): name the format with --format csv|tsv|jsonl|parquet",
    );
  }
  const spooled = stdin
    ? await spoolStdin(io.stdin, options.format === "jsonl" ? "jsonl" : (options.format ?? "csv"))
    : null;
  const path = spooled?.path ?? file;
  const systemOption = parseSystemOption(options.system);
  const displayName = stdin ? "stdin" : file;
  try {
    io.progress.update(`reading ${displayName}…`);
    const common = {
      file: path,
      displayName,
      format: options.format ?? null,
      doc: options.doc ?? null,
      metrics: options.metric ?? null,
      system: systemOption?.column ?? null,
      ...(options.threads ? { threads: options.threads } : {}),
      valuesUpTo:
        options.replicates > 0 ? Math.floor(CHUNK_BOOTSTRAP_ROW_LIMIT / options.replicates) : 0,
      documentLabel: designColumn,
    };
    const [read, sha256] = await Promise.all([
      options.aggregated ? readAggregates(common) : readResults(common),
      sha256File(path, displayName),
    ]);
    const table = { ...read, groups: pickSystems(read.groups, systemOption, displayName) };
    return {
      table,
      description: {
        file: displayName,
        sha256,
        format: table.format,
        rows: options.aggregated
          ? table.groups
              .filter((g) => g.metric === table.metrics[0])
              .reduce((t, g) => t + g.stats.ids.length, 0)
          : table.rows,
        kind: options.aggregated ? "per-document" : "per-query",
      },
    };
  } finally {
    await spooled?.cleanup();
  }
}

function label(group: MetricAggregates): string {
  return group.system === null ? group.metric : `${group.system}/${group.metric}`;
}

/** Merges the same system × metric across input files (shards) by adding per-document sums. */
function mergeInputs(
  inputs: readonly LoadedInput[],
  labelColumn: string | null,
): MetricAggregates[] {
  const keyed = new Map<string, MetricAggregates[]>();
  const files = new Map<MetricAggregates, string>();
  for (const { table, description } of inputs) {
    for (const group of table.groups) {
      const key = JSON.stringify([group.system, group.metric]);
      keyed.set(key, [...(keyed.get(key) ?? []), group]);
      files.set(group, description.file);
    }
  }
  return [...keyed.values()].map((groups) => {
    if (groups.length === 1) return groups[0] as MetricAggregates;
    const stats = mergeDocumentStats(groups.map((g) => g.stats));
    return {
      system: (groups[0] as MetricAggregates).system,
      metric: (groups[0] as MetricAggregates).metric,
      stats,
      ...mergedValues(groups),
      ...(labelColumn ? { labels: mergedLabels(groups, files, stats.ids, labelColumn) } : {}),
    };
  });
}

/** A document's design label across shards: it must be the same in every shard that has it. */
function mergedLabels(
  groups: readonly MetricAggregates[],
  files: ReadonlyMap<MetricAggregates, string>,
  ids: readonly string[],
  labelColumn: string,
): string[] {
  const labelOf = new Map<string, { label: string; file: string }>();
  for (const g of groups) {
    const file = files.get(g) as string;
    g.stats.ids.forEach((id, d) => {
      const label = g.labels?.[d] as string;
      const seen = labelOf.get(id);
      if (seen !== undefined && seen.label !== label) {
        throw new RagciError(
          "invalid-design",
          `document ${id} has ${labelColumn} ${seen.label} in ${seen.file} and ${label} in ${file}; a document belongs to one ${labelColumn}: correct one of the files`,
          { column: labelColumn },
        );
      }
      labelOf.set(id, { label, file });
    });
  }
  return ids.map((id) => (labelOf.get(id) as { label: string }).label);
}

export async function runAnalyze(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  io: CommandIo,
): Promise<string> {
  if (files.filter((f) => f === "-").length > 1)
    throw new RagciError("invalid-option", "stdin (-) can be read only once");
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  parseSystemOption(options.system);
  if (options.writeAggregates) checkAggregatesFileName(options.writeAggregates);
  if (options.census && options.design) {
    throw new RagciError(
      "invalid-option",
      "--census runs an SRS study; with a design, study it with ragci simulate on the census",
    );
  }
  await refuseUnsafeOutputs(
    [
      ...files,
      ...(options.design ? [options.design] : []),
      ...(options.census ? [options.census] : []),
    ],
    [
      ...(options.output ? [{ flag: "-o", path: options.output }] : []),
      ...(options.writeAggregates
        ? [{ flag: "--write-aggregates", path: options.writeAggregates }]
        : []),
    ],
  );
  const designed = await declaredDesign(options);
  const population = designed.population;
  const loading = (async () => {
    const loaded: LoadedInput[] = [];
    for (const file of files) loaded.push(await loadInput(file, options, io, designed.label));
    return loaded;
  })();
  // The estimators (and @stdlib's quantile functions) load while DuckDB reads the files.
  const [{ analyze }, inputs] = await Promise.all([import("../../core/analyze.js"), loading]);
  const groups = mergeInputs(inputs, designed.label);
  io.progress.update("computing intervals…");
  const entries = groups.map((group) => {
    try {
      return {
        metric: group.metric,
        system: group.system,
        analysis: analyze(group.stats, {
          level: options.level,
          population,
          design: designed.build(group.labels),
          estimand: options.estimand ?? null,
          replicates: options.replicates,
          seed: options.seed,
          values: group.values ?? null,
          maxResamplingDraws: options.replicatesExplicit ? null : DEFAULT_MAX_DRAWS,
          chunkBootstrapMaxDraws: options.chunkBootstrap ? null : CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS,
          onProgress: (phase, f) =>
            io.progress.update(`${label(group)}: ${phase} ${Math.round(100 * f)}%`),
        }),
        aggregatesSha256: sha256Aggregates([group]),
      };
    } catch (error) {
      if (error instanceof RagciError && (group.system !== null || groups.length > 1)) {
        const where = [
          group.system === null ? null : `system ${group.system}`,
          `metric ${group.metric}`,
        ]
          .filter(Boolean)
          .join(", ");
        throw new RagciError(error.code, `${where}: ${error.message}`, error.context);
      }
      throw error;
    }
  });
  const studied = options.census ? await withCensusStudies(entries, options, io) : entries;
  if (options.writeAggregates)
    await writeAggregates(options.writeAggregates, groups, designed.label);
  io.progress.done();
  const report: AnalysisReport = {
    command: "ragci analyze",
    version: io.version,
    inputs: inputs.map((i) => i.description),
    entries: studied,
    aggregatesFile: options.writeAggregates ?? null,
    summation: inputs.some((i) => i.table.summation !== "exact") ? "double-single-thread" : "exact",
    notices: inputs.flatMap((i) => i.table.notices),
  };
  if (options.json) return formatReportJson(report);
  if (options.markdown) return markdownReport(report);
  return terminalReport(report, { color: io.color && !options.output });
}

/**
 * --census: for each system × metric, a coverage study on the census at the analysis's K (SRS,
 * fpc when a population was given), and the recommendation taken from it.
 */
async function withCensusStudies(
  entries: readonly AnalysisEntry[],
  options: AnalyzeCommandOptions,
  io: CommandIo,
): Promise<AnalysisEntry[]> {
  const file = options.census as string;
  const systemOption = parseSystemOption(options.system);
  const common = {
    file,
    format: null,
    doc: options.doc ?? null,
    metrics: options.metric ?? null,
    system: systemOption?.column ?? null,
  };
  io.progress.update(`reading the census ${file}…`);
  const census = options.censusAggregated
    ? await readAggregates(common)
    : await readResults(common);
  const { applyCensusStudy } = await import("../../core/simulation/applyCensusStudy.js");
  const out: AnalysisEntry[] = [];
  for (const entry of entries) {
    const group = census.groups.find(
      (g) => g.metric === entry.metric && (entry.system === null || g.system === entry.system),
    );
    if (!group) {
      throw new RagciError(
        "missing-column",
        `--census ${file}: no ${entry.system === null ? "" : `system ${entry.system}, `}metric ${entry.metric} in it; the census must hold the same metric${entry.system === null ? "" : " and systems"} as the sample`,
        { file },
      );
    }
    const k = entry.analysis.documents;
    if (k > group.stats.ids.length) {
      throw new RagciError(
        "invalid-option",
        `--census ${file}: it has ${group.stats.ids.length} documents, fewer than the sample's ${k}; give the census of the whole population`,
        { file },
      );
    }
    const study = await runCensusStudy(
      group.stats,
      censusStudyOptions({
        documents: k,
        ...(options.censusReps !== undefined ? { repetitions: options.censusReps } : {}),
        replicates: options.replicates,
        seed: options.seed,
        level: options.level,
        population: options.population ?? null,
      }),
      io,
      label({ system: entry.system, metric: entry.metric } as MetricAggregates),
    );
    out.push({
      ...entry,
      analysis: applyCensusStudy(entry.analysis, study, file),
      censusStudy: { file, study },
    });
  }
  return out;
}

/** Per-query values of shards, merged document by document (sorted inside each, as ingested). */
function mergedValues(groups: readonly MetricAggregates[]): { values?: ResultValues } {
  if (groups.some((g) => g.values === undefined)) return {};
  const perDocument = new Map<string, number[]>();
  for (const g of groups) {
    const v = g.values as ResultValues;
    g.stats.ids.forEach((id, d) => {
      const list = perDocument.get(id) ?? [];
      for (let i = v.offsets[d] as number; i < (v.offsets[d + 1] as number); i++)
        list.push(v.values[i] as number);
      perDocument.set(id, list);
    });
  }
  const ids = [...perDocument.keys()].sort(compareCodePoints);
  const offsets = new Uint32Array(ids.length + 1);
  const values: number[] = [];
  ids.forEach((id, d) => {
    values.push(...(perDocument.get(id) as number[]).sort((a, b) => a - b));
    offsets[d + 1] = values.length;
  });
  return { values: { offsets, values: Float64Array.from(values) } };
}
