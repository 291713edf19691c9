import type { Command } from "commander";
import type { AllocationRule } from "../../core/designs/allocation.js";
import { checkedSizeStrataDesign } from "../../core/designs/checkedSizeStrataDesign.js";
import { drawStratifiedSample } from "../../core/designs/drawStratifiedSample.js";
import type { SizeStrataAllocation } from "../../core/designs/sizeStrataDesign.js";
import { sizeStrataDesignFile } from "../../core/designs/sizeStrataDesignFile.js";
import { csvText, readSource, sha256File, writeFileAtomic } from "../../ingest/index.js";
import { jsonText } from "../../report/jsonText.js";
import {
  STRATA_SCHEMA,
  type StrataReport,
  strataJson,
  strataMarkdown,
  strataTerminal,
} from "../../report/strataReport.js";
import { type CensusInputOptions, withCensusFileOptions } from "../censusFileOptions.js";
import { aggregatesDownload } from "../htmlOutput.js";
import { type CommandIo, reportAction } from "../io.js";
import {
  wholeNumber,
  withAllocationOption,
  withCutoffOption,
  withDatabaseOptions,
  withReportOptions,
  withSeedOption,
} from "../options.js";
import { readingProgress } from "../readingProgress.js";
import {
  namedOutput,
  type ReportOptions,
  refuseUnsafe,
  renderReport,
  reportFormat,
} from "../reportOptions.js";
import { checkSources, selectionOf, sourceOf } from "../sourceOptions.js";

interface StrataCommandOptions extends ReportOptions, CensusInputOptions {
  readonly documents: number;
  readonly cutoff?: number;
  readonly writeSample?: string;
  readonly writeDesign?: string;
  readonly allocation: AllocationRule;
  readonly seed: number;
}

const EXAMPLES = `
Examples:
  $ ragci strata census.csv --metric hit --documents 20               # propose a size cutoff
  $ ragci strata census.csv --metric hit --documents 20 --cutoff 76   # documents with more than 76 results
  $ ragci strata census.csv --metric hit --documents 20 --write-sample sample.csv --seed 7
  $ ragci strata census.csv --metric hit --documents 20 --write-sample sample.csv --write-design strata.json
  $ ragci strata results.csv --metric hit5 --system system=bm25 --documents 30   # one system's rows
  $ ragci strata --from postgresql://me@db/eval --table results --doc doc_id --metric hit5 --system system=bm25 --documents 30

From a census of all M documents: split them at a size cutoff (large: n_d > cutoff), allocate
K documents to the two strata (equal, proportional, Neyman), and predict the se of the
stratified micro and macro estimators next to SRS of K documents.`;

export function registerStrata(program: Command, io: CommandIo): void {
  const command = withCensusFileOptions(
    withCutoffOption(
      program
        .command("strata")
        .description("size stratification from a census: cutoff, allocation, predicted se")
        .argument(
          "[census]",
          "every document of the population (per-query, or per-document with --aggregated); or --from",
        )
        .requiredOption(
          "--documents <K>",
          "documents to sample",
          wholeNumber("--documents", 4, "a whole number ≥ 4 (two strata of two)"),
        ),
      "split",
    ),
    "one",
    false,
  );
  withAllocationOption(command, "sample")
    .option("--write-sample <file>", "write the sampled document ids (CSV: doc, stratum)")
    .option(
      "--write-design <file>",
      "write the sample's design file for analyze --design (JSON: each stratum's M_h)",
    );
  withSeedOption(command, "the sample draw");
  withReportOptions(withDatabaseOptions(command), STRATA_SCHEMA)
    .addHelpText("after", EXAMPLES)
    .action(reportAction(io, runStrata));
}

export async function runStrata(
  file: string | undefined,
  options: StrataCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = reportFormat(options);
  await refuseUnsafe([file], options, [
    namedOutput("--write-sample", options.writeSample),
    namedOutput("--write-design", options.writeDesign),
  ]);
  const files = file === undefined ? [] : [file];
  checkSources(files, options, "the census file");
  const selection = selectionOf(options);
  const read = await readSource(sourceOf(files, options, io), selection, {
    read: "one",
    usedBy: "strata",
    allowPair: false,
    // The file's SHA-256 is read only when the HTML page shows it.
    hash: false,
    progress: readingProgress(io),
  });
  const { stats: census, metric } = read;
  const source = read.description.file;
  io.progress.done();

  const design = checkedSizeStrataDesign(census, options.documents, options.cutoff, source);
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
  if (options.writeDesign)
    await writeFileAtomic(options.writeDesign, jsonText(sizeStrataDesignFile(design, source)));
  const system = selection.systems?.[0] ?? null;
  const report: StrataReport = {
    version: io.version,
    file: source,
    system: system === null ? null : `${selection.systemColumn} ${system}`,
    design,
    sample,
    designFile: options.writeDesign ?? null,
  };
  const renderers = {
    json: (r: typeof report) => jsonText(strataJson(r)),
    markdown: strataMarkdown,
    terminal: strataTerminal,
  };
  return renderReport(report, format, renderers, {
    options,
    io,
    html: async (path) => {
      const { strataHtml } = await import("../../report/html/strataPage.js");
      const aggregates = aggregatesDownload(path, [{ system, metric, stats: census }]);
      const sha256 = read.description.sha256 ?? (await sha256File(source));
      return strataHtml({ report, census, sha256, aggregates });
    },
  });
}
