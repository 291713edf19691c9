import type { Command } from "commander";
import { groupedInteger } from "../../core/groupedInteger.js";
import { chunkBootstrapValuesToKeep } from "../../core/resamplingBudget.js";
import { namingSystemMetric, systemMetricLabel } from "../../core/systemMetricLabel.js";
import {
  cellsOfSystem,
  declaredDesign,
  mergeShards,
  QUERY_CHECK_ROW_LIMIT,
  readSource,
  sha256Aggregates,
  writeAggregates,
} from "../../ingest/index.js";
import type { AnalysisReport } from "../../report/analysisReport.js";
import { ANALYSIS_SCHEMA, formatReportJson } from "../../report/json.js";
import { markdownReport } from "../../report/markdown.js";
import { terminalReport } from "../../report/terminal.js";
import { type AnalyzeCommandOptions, checkAnalyzeOptions } from "../analyzeOptions.js";
import { analysisCensusStudies, readAnalysisCensus } from "../censusStudy.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { inferenceCommand } from "../inferenceCommand.js";
import type { CommandIo } from "../io.js";
import { loadDuringScan } from "../loadDuringScan.js";
import { analysisSettings, parseList, withFacetOptions } from "../options.js";
import { readingProgress } from "../readingProgress.js";
import { renderReport } from "../reportOptions.js";
import { selectionOf, sourceOf, withDatabaseOptions } from "../sourceOptions.js";

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
(--design FILE.json; docs/designs.md) reads each document's stratum or first-stage unit from a column
of the input (--stratum, default stratum; --psu, default psu), per-query or aggregated.`;

export function registerAnalyze(program: Command, io: CommandIo): void {
  inferenceCommand(
    withDatabaseOptions(program.command("analyze"))
      .description("document-level intervals for micro and macro averages of retrieval metrics")
      .argument("[files...]", "per-query results (CSV, TSV, JSONL, Parquet; - for stdin)"),
    (command) =>
      withFacetOptions(command)
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
          "--query <column>",
          `query id column, checked for ids repeated within a system on any number of rows (found by its usual name, it is checked up to ${groupedInteger(QUERY_CHECK_ROW_LIMIT)} rows)`,
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
    { schema: ANALYSIS_SCHEMA, examples: EXAMPLES },
    runAnalyze,
    io,
  );
}

export async function runAnalyze(
  files: readonly string[],
  options: AnalyzeCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = await checkAnalyzeOptions(files, options);
  const designed = await declaredDesign(options);
  // The estimators (and @stdlib's quantile functions) load while DuckDB scans the files.
  const [inputs, { analyze }] = await loadDuringScan(
    readSource(sourceOf(files, options, io), selectionOf(options), {
      read: "tables",
      documentLabel: designed.label,
      valuesUpTo: chunkBootstrapValuesToKeep(options.replicates),
      progress: readingProgress(io),
    }),
    () => import("../../core/analyze.js"),
  );
  const groups = mergeShards(
    inputs.map((i) => ({ file: i.description.file, groups: i.table.groups })),
    designed.label,
  );
  // --census: read first, so that each analysis is computed once, with the census's M.
  const census = options.census ? await readAnalysisCensus(options, io) : null;
  io.progress.update("computing intervals…");
  const settings = analysisSettings(options, designed.population);
  const analysisOf = (group: (typeof groups)[number], population: number | null) =>
    analyze(group.stats, {
      ...settings,
      population,
      design: designed.build(group.labels),
      values: group.values ?? null,
      onProgress: (phase, f) =>
        io.progress.update(`${systemMetricLabel(group)}: ${phase} ${Math.round(100 * f)}%`),
    });
  // With facets, each system × metric's variance components from its cells.
  const components = inputs.some((i) => i.cells)
    ? (await import("../../core/facets/facetInterval.js")).facetInterval
    : null;
  const entries = groups.map((group) =>
    namingSystemMetric(group, groups.length, () => {
      const cells = components ? cellsOfSystem(inputs, group.system, group.metric) : null;
      return {
        metric: group.metric,
        system: group.system,
        analysis: analysisOf(group, settings.population ?? census?.populationOf(group) ?? null),
        aggregatesSha256: sha256Aggregates([group]),
        ...(components && cells ? { facets: components(cells, { level: options.level }) } : {}),
      };
    }),
  );
  const studied = census ? await analysisCensusStudies(entries, census) : entries;
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
  const renderers = { json: formatReportJson, markdown: markdownReport, terminal: terminalReport };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { analyzeHtml } = await import("../../report/html/analyzePage.js");
      const stats = groups.map((g) => g.stats);
      const aggregates = aggregatesDownload(path, groups, designed.label);
      return analyzeHtml({ report, stats, aggregates });
    },
  });
}
