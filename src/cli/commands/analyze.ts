import type { Command } from "commander";
import { compareCodePoints, mergeDocumentStats } from "../../core/aggregate/mergeDocumentStats.js";
import type { DocumentDesign } from "../../core/analyze.js";
import {
  CHUNK_BOOTSTRAP_ROW_LIMIT,
  type ResultValues,
} from "../../core/bootstrap/chunkBootstrap.js";
import { isLonelyPsu, LONELY_PSU_RULES, type LonelyPsu } from "../../core/designs/lonelyPsu.js";
import { RagciError } from "../../core/errors.js";
import type { Estimand } from "../../core/types.js";
import { sha256Aggregates, sha256File } from "../../ingest/hashInputs.js";
import { readAggregates } from "../../ingest/readAggregates.js";
import { readDesign } from "../../ingest/readDesign.js";
import { type MetricAggregates, type ResultsTable, readResults } from "../../ingest/readResults.js";
import { writeAggregates } from "../../ingest/writeAggregates.js";
import { writeFileAtomic } from "../../ingest/writeAtomic.js";
import type { AnalysisReport, InputDescription } from "../../report/analysisReport.js";
import { formatReportJson } from "../../report/json.js";
import { markdownReport } from "../../report/markdown.js";
import { terminalReport } from "../../report/terminal.js";
import type { CommandIo } from "../io.js";
import { parseList, withInferenceOptions } from "../options.js";
import { spoolStdin } from "../spoolStdin.js";

export interface AnalyzeCommandOptions {
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
  readonly threads?: number;
  readonly replicates: number;
  readonly seed: number;
  /** Whether --replicates was given; if not, resampling is skipped above DEFAULT_MAX_DRAWS. */
  readonly replicatesExplicit?: boolean;
  readonly design?: string;
  readonly stratum?: string;
  readonly psu?: string;
  /** Overrides "lonely_psu" of the design file. */
  readonly lonelyPsu?: LonelyPsu;
}

function parseLonelyPsu(text: string): LonelyPsu {
  if (isLonelyPsu(text)) return text;
  throw new RagciError(
    "invalid-option",
    `--lonely-psu ${text}: use one of ${LONELY_PSU_RULES.join(", ")} (R survey's survey.lonely.psu)`,
  );
}

/** B·K above which the default run skips the bootstrap (about 10–30 s of work). */
export const DEFAULT_MAX_DRAWS = 1e8;

const EXAMPLES = `
Examples:
  $ ragci analyze examples/covidqa-retrieval.csv --doc doc_id --metric hit5 --system system
  $ ragci analyze results.parquet --doc doc_id --metric hit@5,mrr --population 1300 --json
  $ cat results.jsonl | ragci analyze - --format jsonl --doc doc --metric rr
  $ ragci analyze perdoc.csv --aggregated          # columns doc, n, s[, ss]
  $ ragci analyze shard1.csv shard2.csv --metric hit   # shards are merged per document

Per-query input has one row per query result: a document id column and metric columns
(0/1 or any score). Aggregated input has one row per document: doc, n (results), s (their
sum) and, for non-binary metrics, ss (their sum of squares).`;

export function registerAnalyze(program: Command, io: CommandIo): void {
  withInferenceOptions(
    program
      .command("analyze")
      .description("document-level intervals for micro and macro averages of retrieval metrics")
      .argument("<files...>", "per-query results (CSV, TSV, JSONL, Parquet; - for stdin)")
      .option(
        "--doc <column>",
        "document id column (default: doc_id, doc, document_id or document)",
      )
      .option("--metric <columns>", "metric column(s), comma-separated (e.g. hit@5,mrr)", parseList)
      .option("--system <column>", "one analysis per value of this column")
      .option(
        "--format <format>",
        "csv, tsv, jsonl or parquet (default: from the extension; needed for -)",
      )
      .option("--aggregated", "input is one row per document: doc, n, s[, ss]")
      .option("--design <file>", "sampling design (JSON: srs, stratified or two-stage; SPEC §4)")
      .option("--stratum <column>", "stratum column for a stratified design (default: stratum)")
      .option("--psu <column>", "first-stage unit column for a two-stage design (default: psu)")
      .option(
        "--lonely-psu <rule>",
        "stratum with one sampled document: fail (default), remove, adjust, average or certainty",
        parseLonelyPsu,
      )
      .option("--json", "JSON output (schema ragci.analysis/1)")
      .option("--markdown", "Markdown output")
      .option("-o, --output <file>", "write the report to a file (atomically) instead of stdout")
      .option(
        "--write-aggregates <file>",
        "save the per-document table (.csv or .parquet) to re-run from",
      ),
  )
    .addHelpText("after", EXAMPLES)
    .action(async (files: string[], options: AnalyzeCommandOptions, command: Command) => {
      const explicit = command.getOptionValueSource("replicates") === "cli";
      const text = await runAnalyze(files, { ...options, replicatesExplicit: explicit }, io);
      if (options.output) await writeFileAtomic(options.output, text);
      else process.stdout.write(text);
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
  const displayName = stdin ? "stdin" : file;
  try {
    io.progress.update(`reading ${displayName}…`);
    const common = {
      file: path,
      displayName,
      format: options.format ?? null,
      doc: options.doc ?? null,
      metrics: options.metric ?? null,
      system: options.system ?? null,
      ...(options.threads ? { threads: options.threads } : {}),
      valuesUpTo:
        options.replicates > 0 ? Math.floor(CHUNK_BOOTSTRAP_ROW_LIMIT / options.replicates) : 0,
      documentLabel: designColumn,
    };
    if (designColumn && options.aggregated) {
      throw new RagciError(
        "invalid-option",
        "a stratified or two-stage design needs per-query input with its stratum or psu column (not yet --aggregated)",
      );
    }
    const [table, sha256] = await Promise.all([
      options.aggregated ? readAggregates(common) : readResults(common),
      sha256File(path, displayName),
    ]);
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
function mergeInputs(tables: readonly ResultsTable[]): MetricAggregates[] {
  const keyed = new Map<string, MetricAggregates[]>();
  for (const table of tables) {
    for (const group of table.groups) {
      const key = JSON.stringify([group.system, group.metric]);
      keyed.set(key, [...(keyed.get(key) ?? []), group]);
    }
  }
  return [...keyed.values()].map((groups) =>
    groups.length === 1
      ? (groups[0] as MetricAggregates)
      : {
          system: (groups[0] as MetricAggregates).system,
          metric: (groups[0] as MetricAggregates).metric,
          stats: mergeDocumentStats(groups.map((g) => g.stats)),
          ...mergedValues(groups),
        },
  );
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
  const designed = await declaredDesign(options);
  if (designed.label && files.length > 1) {
    throw new RagciError(
      "invalid-option",
      "a stratified or two-stage design takes one input file (merge the shards first)",
    );
  }
  const population = designed.population;
  const loading = (async () => {
    const loaded: LoadedInput[] = [];
    for (const file of files) loaded.push(await loadInput(file, options, io, designed.label));
    return loaded;
  })();
  // The estimators (and @stdlib's quantile functions) load while DuckDB reads the files.
  const [{ analyze }, inputs] = await Promise.all([import("../../core/analyze.js"), loading]);
  const groups = mergeInputs(inputs.map((i) => i.table));
  io.progress.update("computing intervals…");
  const entries = groups.map((group) => {
    try {
      return {
        metric: group.metric,
        system: group.system,
        analysis: analyze(group.stats, {
          level: options.level,
          population,
          design: designed.build(group),
          estimand: options.estimand ?? null,
          replicates: options.replicates,
          seed: options.seed,
          values: group.values ?? null,
          maxResamplingDraws: options.replicatesExplicit ? null : DEFAULT_MAX_DRAWS,
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
  if (options.writeAggregates) await writeAggregates(options.writeAggregates, groups);
  io.progress.done();
  const report: AnalysisReport = {
    command: "ragci analyze",
    version: io.version,
    inputs: inputs.map((i) => i.description),
    entries,
    aggregatesFile: options.writeAggregates ?? null,
    summation: inputs.some((i) => i.table.summation !== "exact") ? "double-single-thread" : "exact",
  };
  if (options.json) return formatReportJson(report);
  if (options.markdown) return markdownReport(report);
  return terminalReport(report, { color: io.color && !options.output });
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

interface DeclaredDesign {
  /** The per-document column the design needs (stratum or psu), if any. */
  readonly label: string | null;
  readonly population: number | null;
  readonly build: (group: MetricAggregates) => DocumentDesign | null;
}

/** The design of --design FILE (or SRS with --population), checked against the flags. */
async function declaredDesign(options: AnalyzeCommandOptions): Promise<DeclaredDesign> {
  if (!options.design) {
    if (options.stratum || options.psu || options.lonelyPsu) {
      throw new RagciError(
        "invalid-option",
        "--stratum, --psu and --lonely-psu belong to a design: give the design with --design FILE.json (population sizes per stratum or unit)",
      );
    }
    return { label: null, population: options.population ?? null, build: () => null };
  }
  const spec = await readDesign(options.design);
  if (options.lonelyPsu && spec.kind !== "stratified") {
    throw new RagciError(
      "invalid-option",
      `--lonely-psu applies to a stratified design; ${options.design} is ${spec.kind}`,
    );
  }
  if (spec.kind === "srs") {
    if (
      options.population !== undefined &&
      spec.population !== null &&
      options.population !== spec.population
    ) {
      throw new RagciError(
        "invalid-option",
        `--population ${options.population} disagrees with population_documents ${spec.population} in ${options.design}`,
      );
    }
    return { label: null, population: options.population ?? spec.population, build: () => null };
  }
  if (options.population !== undefined) {
    throw new RagciError(
      "invalid-option",
      `--population applies to SRS; the ${spec.kind} design in ${options.design} gives its own population sizes`,
    );
  }
  const column =
    spec.kind === "stratified" ? (options.stratum ?? "stratum") : (options.psu ?? "psu");
  return {
    label: column,
    population: null,
    build: (group) => {
      const labels = group.labels ?? [];
      return spec.kind === "stratified"
        ? {
            kind: "stratified",
            strata: labels,
            populationSizes: spec.strata,
            lonelyPsu: options.lonelyPsu ?? spec.lonelyPsu ?? "fail",
          }
        : {
            kind: "two-stage",
            units: labels,
            firstStagePopulation: spec.firstStagePopulation,
            secondStagePopulation: spec.secondStagePopulation,
          };
    },
  };
}
