import type { Command } from "commander";
import { CHUNK_BOOTSTRAP_ROW_LIMIT } from "../../core/bootstrap/chunkBootstrap.js";
import { comparisonPairs } from "../../core/comparisonPairs.js";
import { RagciError } from "../../core/errors.js";
import { adjustComparisons } from "../../core/multipleComparisons.js";
import { CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS } from "../../core/resamplingIntervals.js";
import { censusStudyOptions } from "../../core/simulation/censusStudyOptions.js";
import type { StudyResult } from "../../core/simulation/studySummary.js";
import type { Estimand } from "../../core/types.js";
import { sha256File } from "../../ingest/hashInputs.js";
import { refuseUnsafeOutputs } from "../../ingest/outputSafety.js";
import { pairedAggregateGroups, readPairedAggregates } from "../../ingest/readPairedAggregates.js";
import { type PairedTable, readPairedResults } from "../../ingest/readPairedResults.js";
import { checkAggregatesFileName, writeAggregates } from "../../ingest/writeAggregates.js";
import { formatComparisonJson } from "../../report/comparisonJson.js";
import { comparisonMarkdown } from "../../report/comparisonMarkdown.js";
import type { ComparisonReport, MetricComparisons } from "../../report/comparisonReport.js";
import { comparisonTerminal } from "../../report/comparisonTerminal.js";
import { runCensusStudy } from "../censusStudy.js";
import { type DesignCommandOptions, declaredDesign, withDesignOptions } from "../designOptions.js";
import { type CommandIo, emitReport } from "../io.js";
import { parseCount, parseList, withInferenceOptions } from "../options.js";
import { spoolStdin } from "../spoolStdin.js";
import { parseSystemOption } from "../systemFilter.js";
import { DEFAULT_MAX_DRAWS } from "./analyze.js";

export interface CompareCommandOptions extends DesignCommandOptions {
  readonly doc?: string;
  readonly query?: string;
  readonly system?: string;
  readonly metric?: string[];
  readonly format?: string;
  readonly baseline?: string;
  readonly allPairs?: boolean;
  readonly intersect?: boolean;
  readonly level: number;
  readonly estimand?: Estimand;
  readonly replicates: number;
  readonly seed: number;
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly output?: string;
  readonly aggregated?: boolean;
  readonly writeAggregates?: string;
  readonly census?: string;
  readonly censusReps?: number;
  readonly threads?: number;
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
  withInferenceOptions(
    withDesignOptions(
      program
        .command("compare")
        .description("paired comparison of systems on the same queries, at the document level")
        .argument(
          "<files...>",
          "per-query results: one file with a system column, or one file per system",
        )
        .option(
          "--doc <column>",
          "document id column (default: doc_id, doc, document_id or document)",
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
        .option("--format <format>", "csv, tsv, jsonl or parquet (default: from the extension)")
        .option("--baseline <system>", "compare every other system with this one")
        .option("--all-pairs", "compare every pair of systems")
        .option(
          "--chunk-bootstrap",
          "run the chunk bootstrap (a contrast) even when B·K > 2·10⁶, where it is skipped by default",
        )
        .option("--intersect", "keep the queries every system has (reports how many were dropped)")
        .option(
          "--json",
          "JSON output (schema ragci.comparison/1 for two systems, ragci.comparisons/1 for --baseline or --all-pairs)",
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
        )
        .option(
          "--census-reps <R>",
          "repetitions of the --census study",
          parseCount("--census-reps"),
          1000,
        )
        .option("--markdown", "Markdown output")
        .option("-o, --output <file>", "write the report to a file (atomically)"),
    ),
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
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  if (options.baseline && options.allPairs)
    throw new RagciError("invalid-option", "choose one of --baseline and --all-pairs");
  const metrics = options.metric;
  const systemOption = parseSystemOption(options.system);
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
  const spooled = files.includes("-") ? await spoolStdin(io.stdin, options.format ?? "csv") : null;
  if (spooled && !options.format) {
    await spooled.cleanup();
    throw new RagciError(
      "invalid-option",
      "reading from stdin (-): name the format with --format csv|tsv|jsonl|parquet",
    );
  }
  try {
    const inputs = files.map((f) => ({
      path: f === "-" ? (spooled?.path as string) : f,
      displayName: f === "-" ? "stdin" : f,
    }));
    let mode: ComparisonReport["mode"] = "two";
    const pairing = {
      format: options.format ?? null,
      doc: options.doc ?? null,
      query: options.query ?? null,
      system: systemOption?.column ?? null,
      onlySystems: systemOption?.values ?? null,
      metrics,
      intersect: options.intersect ?? false,
      documentLabel: designed.label,
      ...(options.threads ? { threads: options.threads } : {}),
      valuesUpTo:
        options.replicates > 0 ? Math.floor(CHUNK_BOOTSTRAP_ROW_LIMIT / options.replicates) : 0,
      pairs: (systems: readonly string[]): (readonly [string, string])[] => {
        const chosen = comparisonPairs(systems, {
          baseline: options.baseline ?? null,
          allPairs: options.allPairs ?? false,
        });
        mode = chosen.mode;
        return chosen.pairs;
      },
    };
    io.progress.update("reading and pairing…");
    const [table, hashes, { compareSystems, withCensusStudy }] = await Promise.all([
      options.aggregated
        ? readPairedAggregates({
            file: (inputs[0] as { path: string }).path,
            displayName: (inputs[0] as { displayName: string }).displayName,
            format: pairing.format,
            doc: pairing.doc,
            system: pairing.system,
            onlySystems: pairing.onlySystems,
            metrics,
            documentLabel: designed.label,
            pairs: pairing.pairs,
            ...(options.threads ? { threads: options.threads } : {}),
          })
        : readPairedResults({ inputs, ...pairing }),
      Promise.all(inputs.map((i) => sha256File(i.path, i.displayName))),
      import("../../core/compare.js"),
    ]);
    const analyzeOptions = {
      level: options.level,
      population: designed.population,
      estimand: options.estimand ?? null,
      replicates: options.replicates,
      seed: options.seed,
      maxResamplingDraws: options.replicatesExplicit ? null : DEFAULT_MAX_DRAWS,
      chunkBootstrapMaxDraws: options.chunkBootstrap ? null : CHUNK_BOOTSTRAP_DEFAULT_MAX_DRAWS,
    };
    const censusStudies = options.census
      ? await censusDifferenceStudies(options, table, pairing.pairs, io)
      : null;
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
          return compareSystems(
            {
              a: { name: d.a, stats: stats(d.a) },
              b: { name: d.b, stats: stats(d.b) },
              difference: d.stats,
              queriesDiffering: d.queriesDiffering,
            },
            { ...analyzeOptions, design: designed.build(labels), values: d.values ?? null },
          );
        })
        .map((c) => {
          const study = censusStudies?.get(JSON.stringify([c.a, c.b, metric]));
          return study ? withCensusStudy(c, study, options.census as string) : c;
        });
      return { metric, comparisons, ...adjustComparisons(comparisons, mode, options.level) };
    });
    if (options.writeAggregates)
      await writeAggregates(options.writeAggregates, pairedAggregateGroups(table), designed.label);
    io.progress.done();
    const report: ComparisonReport = {
      version: io.version,
      inputs: inputs.map((input, i) => ({
        file: input.displayName,
        sha256: hashes[i] as string,
        format: options.format ?? "auto",
        rows: table.rowsPerInput[i] as number,
        kind: options.aggregated ? "per-document" : "per-query",
      })),
      systems: table.systems,
      mode,
      queries: table.queries,
      dropped: table.dropped,
      metrics: results,
      aggregatesFile: options.writeAggregates ?? null,
    };
    if (options.json) return formatComparisonJson(report);
    if (options.markdown) return comparisonMarkdown(report);
    return comparisonTerminal(report, { color: io.color && !options.output });
  } finally {
    await spooled?.cleanup();
  }
}

/**
 * --census: the paired differences of each compared pair in the census, and a coverage study
 * of them at the sample's K (SRS; fpc when a population was given), keyed by [a, b, metric].
 */
async function censusDifferenceStudies(
  options: CompareCommandOptions,
  sample: PairedTable,
  pairs: (systems: readonly string[]) => (readonly [string, string])[],
  io: CommandIo,
): Promise<Map<string, StudyResult>> {
  const file = options.census as string;
  const systemOption = parseSystemOption(options.system);
  io.progress.update(`reading the census ${file}…`);
  const census = await readPairedResults({
    inputs: [{ path: file, displayName: file }],
    format: null,
    doc: options.doc ?? null,
    query: options.query ?? null,
    system: systemOption?.column ?? null,
    onlySystems: sample.systems,
    metrics: options.metric ?? [],
    pairs,
  });
  const studies = new Map<string, StudyResult>();
  for (const d of sample.differences) {
    const whole = census.differences.find(
      (c) => c.a === d.a && c.b === d.b && c.metric === d.metric,
    );
    if (!whole) throw new Error(`internal: no census difference for ${d.b} - ${d.a}`);
    const k = d.stats.ids.length;
    if (k > whole.stats.ids.length) {
      throw new RagciError(
        "invalid-option",
        `--census ${file}: it has ${whole.stats.ids.length} documents, fewer than the sample's ${k}; give the census of the whole population`,
        { file },
      );
    }
    studies.set(
      JSON.stringify([d.a, d.b, d.metric]),
      await runCensusStudy(
        whole.stats,
        censusStudyOptions({
          documents: k,
          ...(options.censusReps !== undefined ? { repetitions: options.censusReps } : {}),
          replicates: options.replicates,
          seed: options.seed,
          level: options.level,
          population: options.population ?? null,
          differences: true,
        }),
        io,
        `${d.b} − ${d.a} (${d.metric})`,
      ),
    );
  }
  return studies;
}
