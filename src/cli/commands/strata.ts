import type { Command } from "commander";
import type { AllocationRule } from "../../core/designs/allocation.js";
import { drawStratifiedSample } from "../../core/designs/drawStratifiedSample.js";
import {
  type SizeStrataAllocation,
  sizeStrataDesign,
} from "../../core/designs/sizeStrataDesign.js";
import { RagciError } from "../../core/errors.js";
import { csvText } from "../../ingest/csvText.js";
import { sha256File } from "../../ingest/hashInputs.js";
import { readOneSystem } from "../../ingest/readOneSystem.js";
import { writeFileAtomic } from "../../ingest/writeAtomic.js";
import {
  type StrataReport,
  strataJson,
  strataMarkdown,
  strataTerminal,
} from "../../report/strataReport.js";
import { aggregatesDownload, writeHtmlReport } from "../htmlOutput.js";
import { type CommandIo, emitReport } from "../io.js";
import { parseAllocation, parseCount, parseList } from "../options.js";
import {
  namedOutput,
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
  withReportOptions,
} from "../reportOptions.js";
import { parseSystemFilter } from "../systemFilter.js";

interface StrataCommandOptions extends ReportOptions {
  readonly documents: number;
  readonly cutoff?: number;
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly writeSample?: string;
  readonly allocation: AllocationRule;
  readonly seed: number;
}

const EXAMPLES = `
Examples:
  $ ragci strata census.csv --metric hit --documents 20               # propose a size cutoff
  $ ragci strata census.csv --metric hit --documents 20 --cutoff 76   # documents with more than 76 results
  $ ragci strata census.csv --metric hit --documents 20 --write-sample sample.csv --seed 7
  $ ragci strata results.csv --metric hit5 --system system=bm25 --documents 30   # one system's rows

From a census of all M documents: split them at a size cutoff (large: n_d > cutoff), allocate
K documents to the two strata (equal, proportional, Neyman), and predict the se of the
stratified micro and macro estimators next to SRS of K documents.`;

export function registerStrata(program: Command, io: CommandIo): void {
  const command = program
    .command("strata")
    .description("size stratification from a census: cutoff, allocation, predicted se")
    .argument(
      "<census>",
      "every document of the population (per-query, or per-document with --aggregated)",
    )
    .requiredOption("--documents <K>", "documents to sample", parseCount("--documents"))
    .option(
      "--cutoff <n>",
      "large documents have more than this many results (default: proposed)",
      Number,
    )
    .option("--doc <column>", "document id column")
    .option("--metric <column>", "metric column", parseList)
    .option(
      "--system <column[=value]>",
      "use the rows of one system, e.g. system=bm25 (a column alone: the file must hold one system)",
    )
    .option("--format <format>", "csv, tsv, jsonl or parquet")
    .option("--aggregated", "the census is one row per document: doc, n, s[, ss]")
    .option(
      "--allocation <rule>",
      "allocation used for --write-sample: equal, proportional or neyman",
      parseAllocation,
      "neyman",
    )
    .option("--write-sample <file>", "write the sampled document ids (CSV: doc, stratum)")
    .option("--seed <S>", "seed of the sample draw", parseCount("--seed"), 1);
  withReportOptions(command, "ragci.strata/1")
    .addHelpText("after", EXAMPLES)
    .action(async (census: string, options: StrataCommandOptions) => {
      const text = await runStrata(census, options, io);
      await emitReport(io, text, options.output);
    });
}

export async function runStrata(
  file: string,
  options: StrataCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = reportFormat(options);
  await refuseUnsafe([file], options, [namedOutput("--write-sample", options.writeSample)]);
  const filter = parseSystemFilter(options.system);
  io.progress.update(`reading ${file}…`);
  const { stats: census, metric } = await readOneSystem({ ...options, file }, filter, "strata");
  io.progress.done();

  const M = census.n.length;
  const K = options.documents;
  if (K < 4 || K > M)
    throw new RagciError(
      "invalid-option",
      `--documents ${K}: give between 4 and the census's ${M} documents`,
    );
  const design = sizeStrataDesign(census, K, options.cutoff);
  if (!design) {
    throw new RagciError(
      "invalid-option",
      options.cutoff !== undefined
        ? `--cutoff ${options.cutoff}: each stratum needs at least two documents`
        : `${file}: no size cutoff leaves two documents in each stratum`,
    );
  }
  let sample: StrataReport["sample"] = null;
  if (options.writeSample) {
    // neyman: the micro row (the first neyman allocation)
    const rule = design.allocations.find(
      (r) => r.rule === options.allocation,
    ) as SizeStrataAllocation;
    const rows = drawStratifiedSample(design, rule.sampled, census.ids, options.seed);
    await writeFileAtomic(options.writeSample, csvText(["doc", "stratum"], rows));
    sample = { path: options.writeSample, seed: options.seed, allocation: options.allocation };
  }
  const report: StrataReport = {
    version: io.version,
    file,
    system: filter?.value ? `${filter.column} ${filter.value}` : null,
    design,
    sample,
  };
  const html = options.html;
  if (html) {
    await writeHtmlReport(html, async () => {
      const { strataHtml } = await import("../../report/html/strataPage.js");
      return strataHtml({
        report,
        census,
        sha256: await sha256File(file),
        aggregates: aggregatesDownload(html, [
          { system: filter?.value || null, metric, stats: census },
        ]),
      });
    });
  }
  if (format === "json") return strataJson(report);
  return format === "markdown" ? strataMarkdown(report) : strataTerminal(report);
}
