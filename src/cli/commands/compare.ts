import type { Command } from "commander";
import { gateOfRequest } from "../../core/gateRequest.js";
import { COMPARISON_SCHEMA, formatComparisonJson } from "../../report/comparisonJson.js";
import { comparisonMarkdown } from "../../report/comparisonMarkdown.js";
import { comparisonTerminal } from "../../report/comparisonTerminal.js";
import { compareSource } from "../../simulation/compareSource.js";
import { type CompareCommandOptions, checkCompareOptions } from "../compareOptions.js";
import { GATE_HELP, withGateOptions } from "../gateOptions.js";
import { applyGate } from "../gateOutcome.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { inferenceCommand } from "../inferenceCommand.js";
import type { CommandIo } from "../io.js";
import {
  withAggregatedOption,
  withCensusOption,
  withDatabaseOptions,
  withFacetOptions,
  withIntersectOption,
  withMetricOption,
  withQueryOption,
  withSystemOption,
  withWriteAggregatesOption,
} from "../options.js";
import { readingProgress } from "../readingProgress.js";
import { renderReport } from "../reportOptions.js";
import { sourceOf } from "../sourceOptions.js";

const EXAMPLES = `
Examples:
  $ ragci compare examples/covidqa-retrieval.csv --doc doc_id --query query_id --system system --metric hit5
  $ ragci compare a.jsonl b.jsonl --doc doc --query qid --metric rr        # one file per system, joined on the query
  $ ragci compare results.parquet --system system --metric hit5 --baseline bm25 --json
  $ ragci compare results.csv --system system --metric hit5 --all-pairs    # every pair, Holm, tie groups
  $ ragci compare results.csv --system system=bm25,tfidf --metric hit5     # two of a file's systems
  $ ragci compare results.csv --system system --metric hit5 --write-aggregates pairs.parquet
  $ ragci compare pairs.parquet --aggregated --metric hit5                 # re-run from that table
  $ ragci compare results.csv --system system --metric hit5 --design strata.json --stratum size
  $ ragci compare a.csv b.csv --metric rr --design topics.json --psu topic   # two-stage
  $ ragci compare --from postgresql://me@db/eval --table results --doc doc_id --query query_id --system system --metric hit5
                                          # joined on the query and summed in the database

The difference is B − A per query (A the first system in name order, or the baseline), summed
per document; every interval of \`ragci analyze\` is applied to those per-document sums. With
a stratified or two-stage design (--design FILE.json; docs/designs.md) the difference, and each
system, get the design's interval, and the test of no difference uses it and its ν.`;

export function registerCompare(program: Command, io: CommandIo): void {
  inferenceCommand(
    withDatabaseOptions(program.command("compare"))
      .description("paired comparison of systems on the same queries, at the document level")
      .argument(
        "[files...]",
        "per-query results: one file with a system column, or one file per system (or --from)",
      ),
    (command) => {
      const paired = withQueryOption(withFacetOptions(withGateOptions(command)), "paired");
      withMetricOption(withSystemOption(paired, "compared"), "columns")
        .option("--baseline <system>", "compare every other system with this one")
        .option("--all-pairs", "compare every pair of systems");
      withAggregatedOption(withIntersectOption(command, "compare"), true);
      return withCensusOption(withWriteAggregatesOption(command), "pairStudy");
    },
    {
      schema: COMPARISON_SCHEMA,
      examples: EXAMPLES + GATE_HELP,
    },
    runCompare,
    io,
  );
}

export async function runCompare(
  files: readonly string[],
  options: CompareCommandOptions,
  io: CommandIo,
): Promise<string> {
  const { format, selection } = await checkCompareOptions(files, options, io.env);
  const gate = gateOfRequest(options);
  const status = (message: string) => io.progress.update(message);
  const progress = readingProgress(io);
  const compared = await compareSource(sourceOf(files, options, io), selection, options, {
    version: io.version,
    status,
    progress,
    ...(io.signal ? { signal: io.signal } : {}),
  });
  const { table, aggregates } = compared;
  io.progress.done();
  const decision = gate ? await applyGate(compared.report.metrics, options.level, gate, io) : null;
  const report = { ...compared.report, gate: decision };
  const renderers = {
    json: formatComparisonJson,
    markdown: comparisonMarkdown,
    terminal: comparisonTerminal,
  };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { compareHtml } = await import("../../report/html/comparePage.js");
      const differences = table.metrics.map((metric) =>
        table.differences.filter((d) => d.metric === metric).map((d) => d.stats),
      );
      return compareHtml({
        report,
        differences,
        aggregates: aggregatesDownload(path, aggregates, compared.documentLabel),
      });
    },
  });
}
