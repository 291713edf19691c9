import type { Command } from "commander";
import { RagciError } from "../../core/errors.js";
import type { Estimand } from "../../core/types.js";
import { sha256Aggregates } from "../../ingest/hashInputs.js";
import { mergeShards } from "../../ingest/mergeShards.js";
import { checkAggregatesFileName, writeAggregates } from "../../ingest/writeAggregates.js";
import type { AnalysisReport } from "../../report/analysisReport.js";
import { formatReportJson } from "../../report/json.js";
import { markdownReport } from "../../report/markdown.js";
import { terminalReport } from "../../report/terminal.js";
import { type AnalysisCensusFlags, analysisCensusStudies } from "../censusStudy.js";
import { type DesignCommandOptions, declaredDesign, withDesignOptions } from "../designOptions.js";
import { aggregatesDownload, writeHtmlReport } from "../htmlOutput.js";
import { type CommandIo, emitReport } from "../io.js";
import {
  checkSources,
  type DatabaseOptions,
  loadFromDatabase,
  withDatabaseOptions,
} from "../loadFromDatabase.js";
import { type InputOptions, type LoadedInput, loadInput } from "../loadInput.js";
import {
  parseList,
  resamplingLimits,
  withInferenceOptions,
  withResultsFileOptions,
} from "../options.js";
import {
  namedOutput,
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
  withReportOptions,
} from "../reportOptions.js";
import { parseSystemOption } from "../systemFilter.js";
import { namingSystemMetric, systemMetricLabel } from "../systemMetricLabel.js";

export interface AnalyzeCommandOptions
  extends DesignCommandOptions,
    InputOptions,
    DatabaseOptions,
    ReportOptions,
    AnalysisCensusFlags {
  readonly level: number;
  readonly population?: number;
  readonly estimand?: Estimand;
  readonly writeAggregates?: string;
  readonly censusAggregated?: boolean;
  readonly seed: number;
  /** Whether --replicates was given; if not, resampling is skipped above DEFAULT_MAX_DRAWS. */
  readonly replicatesExplicit?: boolean;
  readonly chunkBootstrap?: boolean;
}

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
  $ ragci analyze --from postgresql://me@db/eval --table results --doc doc_id --metric hit5 --system system

Per-query input has one row per query result: a document id column and metric columns
(0/1 or any score). Aggregated input has one row per document: doc, n (results), s (their
sum) and, for non-binary metrics, ss (their sum of squares). A stratified or two-stage design
(--design FILE.json; README, “Designs, planning and size strata”) reads each document's stratum or first-stage unit from a column
of the input (--stratum, default stratum; --psu, default psu), per-query or aggregated.`;

export function registerAnalyze(program: Command, io: CommandIo): void {
  withReportOptions(
    withInferenceOptions(
      withDesignOptions(
        withResultsFileOptions(
          withDatabaseOptions(program.command("analyze"))
            .description(
              "document-level intervals for micro and macro averages of retrieval metrics",
            )
            .argument("[files...]", "per-query results (CSV, TSV, JSONL, Parquet; - for stdin)"),
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
          .option("--aggregated", "input is one row per document: doc, n, s[, ss]")
          .option(
            "--write-aggregates <file>",
            "save the per-document table (.csv or .parquet) to re-run from",
          )
          .option(
            "--census <file>",
            "every document of the population: run a coverage study at this K on it and recommend from it",
          )
          .option(
            "--census-aggregated",
            "the --census file is one row per document: doc, n, s[, ss]",
          ),
      ),
    ),
    "ragci.analysis/1",
  )
    .addHelpText("after", EXAMPLES)
    .action(async (files: string[], options: AnalyzeCommandOptions, command: Command) => {
      const explicit = command.getOptionValueSource("replicates") === "cli";
      const text = await runAnalyze(files, { ...options, replicatesExplicit: explicit }, io);
      await emitReport(io, text, options.output);
    });
}

export async function runAnalyze(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  io: CommandIo,
): Promise<string> {
  if (files.filter((f) => f === "-").length > 1)
    throw new RagciError("invalid-option", "stdin (-) can be read only once");
  checkSources(files, options);
  const format = reportFormat(options);
  parseSystemOption(options.system);
  if (options.writeAggregates) checkAggregatesFileName(options.writeAggregates);
  if (options.census && options.design) {
    throw new RagciError(
      "invalid-option",
      "--census runs an SRS study; with a design, study it with ragci simulate on the census",
    );
  }
  await refuseUnsafe([...files, options.design, options.census, options.docMap], options, [
    namedOutput("--write-aggregates", options.writeAggregates),
  ]);
  const designed = await declaredDesign(options);
  const loading = (async () => {
    const loaded: LoadedInput[] = [];
    if (options.from) loaded.push(await loadFromDatabase(options, io, designed.label));
    for (const file of files) loaded.push(await loadInput(file, options, io, designed.label));
    return loaded;
  })();
  // The estimators (and @stdlib's quantile functions) load while DuckDB reads the files.
  const [{ analyze }, inputs] = await Promise.all([import("../../core/analyze.js"), loading]);
  const groups = mergeShards(
    inputs.map((i) => ({ file: i.description.file, groups: i.table.groups })),
    designed.label,
  );
  io.progress.update("computing intervals…");
  const entries = groups.map((group) =>
    namingSystemMetric(group, groups.length, () => ({
      metric: group.metric,
      system: group.system,
      analysis: analyze(group.stats, {
        level: options.level,
        population: designed.population,
        design: designed.build(group.labels),
        estimand: options.estimand ?? null,
        replicates: options.replicates,
        seed: options.seed,
        values: group.values ?? null,
        ...resamplingLimits(options),
        onProgress: (phase, f) =>
          io.progress.update(`${systemMetricLabel(group)}: ${phase} ${Math.round(100 * f)}%`),
      }),
      aggregatesSha256: sha256Aggregates([group]),
    })),
  );
  const studied = options.census ? await analysisCensusStudies(entries, options, io) : entries;
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
  const html = options.html;
  if (html) {
    await writeHtmlReport(html, async () => {
      const { analyzeHtml } = await import("../../report/html/analyzePage.js");
      return analyzeHtml({
        report,
        stats: groups.map((g) => g.stats),
        aggregates: aggregatesDownload(html, groups, designed.label),
      });
    });
  }
  if (format === "json") return formatReportJson(report);
  if (format === "markdown") return markdownReport(report);
  return terminalReport(report, { color: io.color && !options.output });
}
