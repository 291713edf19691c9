import type { Command } from "commander";
import { ANALYSIS_SCHEMA, formatReportJson } from "../../report/json.js";
import { analysisReportMarkdown } from "../../report/markdown.js";
import { analysisReportTerminal } from "../../report/terminal.js";
import { analyzeSource } from "../../simulation/analyzeSource.js";
import { type AnalyzeCommandOptions, checkAnalyzeOptions } from "../analyzeOptions.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { inferenceCommand } from "../inferenceCommand.js";
import type { CommandIo } from "../io.js";
import {
  withAggregatedOption,
  withCensusOption,
  withDatabaseOptions,
  withFacetOptions,
  withMetricOption,
  withQueryOption,
  withSystemOption,
  withWriteAggregatesOption,
} from "../options.js";
import { readingProgress } from "../readingProgress.js";
import { renderReport } from "../reportOptions.js";
import { selectionOf, sourceOf } from "../sourceOptions.js";

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
    (command) => {
      withSystemOption(withMetricOption(withFacetOptions(command), "columns"), "each");
      withAggregatedOption(withQueryOption(command, "checked"));
      return withCensusOption(withWriteAggregatesOption(command), "study");
    },
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
  const status = (message: string) => io.progress.update(message);
  const progress = readingProgress(io);
  const { report, groups, documentLabel } = await analyzeSource(
    sourceOf(files, options, io),
    selectionOf(options),
    options,
    { version: io.version, status, progress, ...(io.signal ? { signal: io.signal } : {}) },
  );
  io.progress.done();
  const renderers = {
    json: formatReportJson,
    markdown: analysisReportMarkdown,
    terminal: analysisReportTerminal,
  };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { analyzeHtml } = await import("../../report/html/analyzePage.js");
      const stats = groups.map((g) => g.stats);
      const aggregates = aggregatesDownload(path, groups, documentLabel);
      return analyzeHtml({ report, stats, aggregates });
    },
  });
}
