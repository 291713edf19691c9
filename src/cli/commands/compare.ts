import type { Command } from "commander";
import { checkPairPolicy } from "../../core/comparisonPairs.js";
import { RagciError } from "../../core/errors.js";
import { adjustComparisons } from "../../core/multipleComparisons.js";
import type { Estimand } from "../../core/types.js";
import { pairedAggregateGroups } from "../../ingest/readPairedAggregates.js";
import { checkAggregatesFileName, writeAggregates } from "../../ingest/writeAggregates.js";
import { formatComparisonJson } from "../../report/comparisonJson.js";
import { comparisonMarkdown } from "../../report/comparisonMarkdown.js";
import type { ComparisonReport, MetricComparisons } from "../../report/comparisonReport.js";
import { comparisonTerminal } from "../../report/comparisonTerminal.js";
import { type CensusStudyFlags, censusDifferenceStudies } from "../censusStudy.js";
import { type DesignCommandOptions, declaredDesign, withDesignOptions } from "../designOptions.js";
import { aggregatesDownload, writeHtmlReport } from "../htmlOutput.js";
import { type CommandIo, emitReport } from "../io.js";
import { loadPairedInput, type PairedInputOptions } from "../loadPairedInput.js";
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

export interface CompareCommandOptions
  extends DesignCommandOptions,
    PairedInputOptions,
    ReportOptions,
    CensusStudyFlags {
  readonly system?: string;
  readonly metric?: string[];
  readonly estimand?: Estimand;
  readonly writeAggregates?: string;
  readonly replicatesExplicit?: boolean;
  readonly chunkBootstrap?: boolean;
}

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

The difference is B − A per query (A the first system in name order, or the baseline), summed
per document; every interval of \`ragci analyze\` is applied to those per-document sums. With
a stratified or two-stage design (--design FILE.json; README, “Designs, planning and size strata”) the difference, and each
system, get the design's interval, and the test of no difference uses it and its ν.`;

export function registerCompare(program: Command, io: CommandIo): void {
  withReportOptions(
    withInferenceOptions(
      withDesignOptions(
        withResultsFileOptions(
          program
            .command("compare")
            .description("paired comparison of systems on the same queries, at the document level")
            .argument(
              "<files...>",
              "per-query results: one file with a system column, or one file per system",
            ),
        )
          .option(
            "--query <column>",
            "query id column the systems are paired on (default: query_id, query, qid)",
          )
          .option(
            "--system <column[=A,B]>",
            "system column (one input file); COLUMN=A,B compares only those systems",
          )
          .option("--metric <columns>", "metric column(s), comma-separated", parseList)
          .option("--baseline <system>", "compare every other system with this one")
          .option("--all-pairs", "compare every pair of systems")
          .option(
            "--intersect",
            "keep the queries every system has (reports how many were dropped)",
          )
          .option(
            "--aggregated",
            "input is the per-document table of compare --write-aggregates (each system and each pair's differences)",
          )
          .option(
            "--write-aggregates <file>",
            "save the per-document table (.csv or .parquet) to re-run from with --aggregated",
          )
          .option(
            "--census <file>",
            "per-query results of every document for the same systems: run a coverage study of the differences at this K and recommend from it",
          ),
      ),
    ),
    "ragci.comparison/1 for two systems, ragci.comparisons/1 for --baseline or --all-pairs",
  )
    .addHelpText("after", EXAMPLES)
    .action(async (files: string[], options: CompareCommandOptions, command: Command) => {
      const explicit = command.getOptionValueSource("replicates") === "cli";
      const text = await runCompare(files, { ...options, replicatesExplicit: explicit }, io);
      await emitReport(io, text, options.output);
    });
}

export async function runCompare(
  files: readonly string[],
  options: CompareCommandOptions,
  io: CommandIo,
): Promise<string> {
  if (!options.metric || options.metric.length === 0) {
    throw new RagciError(
      "invalid-option",
      "name the metric(s) to compare with --metric (e.g. --metric hit5,rr)",
    );
  }
  const format = reportFormat(options);
  const metrics = options.metric;
  const systemOption = parseSystemOption(options.system);
  checkPairPolicy({ baseline: options.baseline ?? null, allPairs: options.allPairs ?? false });
  if (systemOption?.values && systemOption.values.length < 2) {
    throw new RagciError(
      "invalid-option",
      `--system ${options.system}: a comparison needs two systems or more, e.g. --system ${systemOption.column}=${systemOption.values[0]},OTHER (or the column alone for every system)`,
    );
  }
  if (options.writeAggregates) checkAggregatesFileName(options.writeAggregates);
  if (options.aggregated && files.length !== 1) {
    throw new RagciError(
      "invalid-option",
      "--aggregated reads one per-document table (written by ragci compare --write-aggregates); give one file",
    );
  }
  if (options.census && (options.design || !options.system || options.aggregated)) {
    throw new RagciError(
      "invalid-option",
      "--census reads a per-query census with a system column (--system COL) and runs an SRS study; with a design or per-document input, study it with ragci simulate",
    );
  }
  await refuseUnsafe([...files, options.design, options.census, options.docMap], options, [
    namedOutput("--write-aggregates", options.writeAggregates),
  ]);
  const designed = await declaredDesign(options);
  const [loaded, { compareSystems, withCensusStudy }] = await Promise.all([
    loadPairedInput(files, options, metrics, systemOption, designed.label, io),
    import("../../core/compare.js"),
  ]);
  const { table, mode } = loaded;
  const censusStudies = options.census
    ? await censusDifferenceStudies(options, systemOption?.column ?? null, table, loaded.pairs, io)
    : null;
  const analyzeOptions = {
    level: options.level,
    population: designed.population,
    estimand: options.estimand ?? null,
    replicates: options.replicates,
    seed: options.seed,
    ...resamplingLimits(options),
  };
  const results: MetricComparisons[] = metrics.map((metric) => {
    const stats = (system: string) => {
      const found = table.perSystem.find((p) => p.system === system && p.metric === metric);
      if (!found) throw new Error(`internal: no aggregates for ${system}/${metric}`);
      return found.stats;
    };
    io.progress.update(`comparing ${metric}…`);
    const comparisons = table.differences
      .filter((d) => d.metric === metric)
      .map((d) => {
        // The same documents in the same order for a, b and b − a, so one design serves all.
        const labels = table.labelOf
          ? d.stats.ids.map((id) => table.labelOf?.get(id) as string)
          : undefined;
        const comparison = compareSystems(
          {
            a: { name: d.a, stats: stats(d.a) },
            b: { name: d.b, stats: stats(d.b) },
            difference: d.stats,
            queriesDiffering: d.queriesDiffering,
          },
          { ...analyzeOptions, design: designed.build(labels), values: d.values ?? null },
        );
        const study = censusStudies?.get(JSON.stringify([d.a, d.b, metric]));
        return study ? withCensusStudy(comparison, study, options.census as string) : comparison;
      });
    return { metric, comparisons, ...adjustComparisons(comparisons, mode, options.level) };
  });
  if (options.writeAggregates)
    await writeAggregates(options.writeAggregates, pairedAggregateGroups(table), designed.label);
  io.progress.done();
  const report: ComparisonReport = {
    version: io.version,
    inputs: loaded.inputs,
    systems: table.systems,
    mode,
    queries: table.queries,
    dropped: table.dropped,
    metrics: results,
    summation: table.summation,
    notices: loaded.notices,
    aggregatesFile: options.writeAggregates ?? null,
  };
  const html = options.html;
  if (html) {
    await writeHtmlReport(html, async () => {
      const { compareHtml } = await import("../../report/html/comparePage.js");
      return compareHtml({
        report,
        differences: metrics.map((metric) =>
          table.differences.filter((d) => d.metric === metric).map((d) => d.stats),
        ),
        aggregates: aggregatesDownload(html, pairedAggregateGroups(table), designed.label),
      });
    });
  }
  if (format === "json") return formatComparisonJson(report);
  if (format === "markdown") return comparisonMarkdown(report);
  return comparisonTerminal(report, { color: io.color && !options.output });
}
