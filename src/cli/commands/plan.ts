import type { Command } from "commander";
import { RagciError } from "../../core/errors.js";
import { pilotStandardDeviations } from "../../core/planning/pilotStandardDeviations.js";
import { type PlanSource, planSample } from "../../core/planning/samplePlan.js";
import { planSizeStratified } from "../../core/planning/sizeStratifiedPlan.js";
import type { DocumentStats, Estimand } from "../../core/types.js";
import { sha256File } from "../../ingest/hashInputs.js";
import { readPilot } from "../../ingest/readPilot.js";
import { planJson, planMarkdown, planTerminal } from "../../report/planReport.js";
import { aggregatesDownload, writeHtmlReport } from "../htmlOutput.js";
import { type CommandIo, emitReport } from "../io.js";
import { parseLevel, parseList, parsePopulation } from "../options.js";
import {
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
  withReportOptions,
} from "../reportOptions.js";
import { parseSystemFilter } from "../systemFilter.js";

interface PlanCommandOptions extends ReportOptions {
  readonly sd?: number;
  readonly sdMacro?: number;
  readonly sdMicro?: number;
  readonly halfWidth?: number;
  readonly difference?: number;
  readonly power: number;
  readonly population?: number;
  readonly census?: boolean;
  readonly level: number;
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly query?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly curve?: string[];
  readonly cutoff?: number;
}

const EXAMPLES = `
Examples:
  $ ragci plan --sd 0.224 --population 1300 --half-width 0.05      # 76 documents (80 without fpc)
  $ ragci plan pilot.csv --doc doc_id --metric hit5 --system system=bm25 --half-width 0.03 --population 1300
  $ ragci plan census.csv --census --metric hit5 --half-width 0.02  # S from all M documents
  $ ragci plan --sd 0.18 --difference 0.03 --power 0.8             # paired: documents to detect d
  $ ragci plan pilot.csv --metric hit5 --system system=bm25,tfidf --difference 0.03
                                                # paired, S of the pilot's per-document difference
  $ ragci plan census.csv --census --metric hit5 --system system=bm25 --half-width 0.05 --cutoff 20
                                                # and stratified by size: large = more than 20 results

The rule (README, “Designs, planning and size strata”): the smallest K with t(1 − α/2; K − 1)·S/√K·√(1 − K/M) ≤ w, for macro
(S = sd of the document rates) and micro (S = sd of u_d = s_d − R·n_d over the mean size).`;

function positive(flag: string): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!(Number.isFinite(value) && value > 0))
      throw new RagciError("invalid-option", `${flag} ${text}: give a positive number`);
    return value;
  };
}

function nonNegative(flag: string): (text: string) => number {
  return (text) => {
    const value = Number(text);
    if (!(Number.isFinite(value) && value >= 0))
      throw new RagciError("invalid-option", `${flag} ${text}: give a number ≥ 0`);
    return value;
  };
}

/** One K of --curve: a whole number ≥ 2, at most M with a population. */
function curvePoint(text: string, population: number | null): number {
  const k = Number(text.replaceAll("_", ""));
  if (!Number.isInteger(k) || k < 2) {
    throw new RagciError(
      "invalid-option",
      `--curve ${text}: each K must be a whole number of documents ≥ 2 (e.g. --curve 10,20,50)`,
    );
  }
  if (population !== null && k > population) {
    throw new RagciError(
      "invalid-option",
      `--curve ${text}: more than the population's ${population} documents`,
    );
  }
  return k;
}

export function registerPlan(program: Command, io: CommandIo): void {
  const command = program
    .command("plan")
    .description(
      "how many documents to label for a target half-width (or to detect a paired difference)",
    )
    .argument("[file]", "a pilot sample or census (per-query, or per-document with --aggregated)")
    .option("--sd <S>", "per-document standard deviation S for both estimands", nonNegative("--sd"))
    .option("--sd-macro <S>", "S for macro (sd of the document rates)", nonNegative("--sd-macro"))
    .option(
      "--sd-micro <S>",
      "S for micro (sd of u_d over the mean size)",
      nonNegative("--sd-micro"),
    )
    .option("--half-width <w>", "target half-width of the interval", positive("--half-width"))
    .option("--difference <d>", "paired plan: the difference to detect", Number)
    .option("--power <p>", "paired plan: power to detect it", Number, 0.8)
    .option(
      "--population <M>",
      "documents in the population (finite-population correction)",
      parsePopulation,
    )
    .option("--census", "the file holds every document of the population: M = its K")
    .option("--level <level>", "confidence level", parseLevel, 0.95)
    .option("--doc <column>", "document id column of the file")
    .option("--metric <column>", "metric column of the file", parseList)
    .option(
      "--system <column=value>",
      "use the rows of one system (system=bm25), or pair two on the query id (system=bm25,tfidf)",
    )
    .option("--query <column>", "query id column, to pair two systems (default: detected)")
    .option("--format <format>", "format of the file (default: from the extension)")
    .option("--aggregated", "the file is one row per document: doc, n, s[, ss]")
    .option(
      "--curve <Ks>",
      "documents at which to show the half-width (comma-separated)",
      parseList,
    )
    .option(
      "--cutoff <n>",
      "with --census: also plan a size-stratified sample (large: more than n results)",
      nonNegative("--cutoff"),
    );
  withReportOptions(command, "ragci.plan/1")
    .addHelpText("after", EXAMPLES)
    .action(async (file: string | undefined, options: PlanCommandOptions) => {
      const text = await runPlan(file, options, io);
      await emitReport(io, text, options.output);
    });
}

export async function runPlan(
  file: string | undefined,
  options: PlanCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = reportFormat(options);
  await refuseUnsafe([file], options);
  if (options.halfWidth === undefined && options.difference === undefined) {
    throw new RagciError(
      "invalid-option",
      "give --half-width w (or --difference d for a paired plan)",
    );
  }
  if (options.cutoff !== undefined && !(file && options.census)) {
    throw new RagciError(
      "invalid-option",
      "--cutoff plans a stratified sample from a census: give the census file and --census",
    );
  }
  if (options.cutoff !== undefined && options.halfWidth === undefined) {
    throw new RagciError("invalid-option", "--cutoff needs the target --half-width w");
  }
  const input = file ? await fromFile(file, options, io) : fromGivenSd(options);
  const population = input.population;
  const plan = planSample({
    sd: input.sd,
    ...(options.halfWidth === undefined ? {} : { halfWidth: options.halfWidth }),
    ...(options.difference === undefined
      ? {}
      : { difference: options.difference, power: options.power }),
    population,
    level: options.level,
    ...(options.curve ? { curve: options.curve.map((t) => curvePoint(t, population)) } : {}),
    source: input.source,
    oneSystemForDifference: input.oneSystemForDifference,
  });
  const stratified =
    options.cutoff !== undefined && input.census && options.halfWidth !== undefined
      ? planSizeStratified({
          census: input.census,
          cutoff: options.cutoff,
          halfWidth: options.halfWidth,
          level: options.level,
          srs: {
            macro: { sd: plan.macro?.sd as number, documents: plan.macro?.documents as number },
            micro: { sd: plan.micro?.sd as number, documents: plan.micro?.documents as number },
          },
        })
      : null;
  const report = { version: io.version, plan, stratified };
  const html = options.html;
  if (html) {
    await writeHtmlReport(html, async () => {
      const { planHtml } = await import("../../report/html/planPage.js");
      const source = plan.source;
      const pair = source.kind === "given" ? undefined : source.difference;
      return planHtml({
        report,
        aggregates: input.census
          ? aggregatesDownload(html, [
              {
                system: pair
                  ? `${pair.b} - ${pair.a}`
                  : parseSystemFilter(options.system)?.value || null,
                metric: pair?.metric ?? options.metric?.[0] ?? "metric",
                stats: input.census,
              },
            ])
          : null,
      });
    });
  }
  if (format === "json") return planJson(report);
  return format === "markdown" ? planMarkdown(report) : planTerminal(report);
}

/** What a plan starts from: S per estimand, M, and where S came from. */
interface PlanStart {
  readonly sd: Partial<Record<Estimand, number>>;
  readonly population: number | null;
  readonly source: PlanSource;
  /** The census's per-document sums (for a stratified plan), when the file is a census. */
  readonly census: DocumentStats | null;
  readonly oneSystemForDifference: string | null;
}

async function fromFile(
  file: string,
  options: PlanCommandOptions,
  io: CommandIo,
): Promise<PlanStart> {
  if (options.sd !== undefined || options.sdMacro !== undefined || options.sdMicro !== undefined) {
    throw new RagciError("invalid-option", "give either a file or --sd, not both");
  }
  io.progress.update(`reading ${file}…`);
  const [pilot, sha256] = await Promise.all([
    readPilot({
      ...options,
      file,
      system: parseSystemFilter(options.system),
      systemText: options.system,
    }),
    sha256File(file),
  ]);
  io.progress.done();
  const s = pilotStandardDeviations(pilot.stats);
  let population = options.population ?? null;
  if (options.census) {
    if (population !== null && population !== s.documents) {
      throw new RagciError(
        "invalid-option",
        `--census: the file has ${s.documents} documents but --population says ${population}`,
      );
    }
    population = s.documents;
  }
  return {
    sd: { macro: s.macro, micro: s.micro },
    population,
    source: {
      kind: options.census ? "census" : "pilot",
      file,
      documents: s.documents,
      sha256,
      ...(pilot.paired ? { difference: pilot.paired } : {}),
    },
    census: pilot.stats,
    oneSystemForDifference:
      options.difference !== undefined && !pilot.paired && pilot.oneOfSeveral
        ? (options.system ?? null)
        : null,
  };
}

function fromGivenSd(options: PlanCommandOptions): PlanStart {
  if (options.census) throw new RagciError("invalid-option", "--census needs the census file");
  const macro = options.sdMacro ?? options.sd;
  const micro = options.sdMicro ?? options.sd;
  if (macro === undefined && micro === undefined) {
    throw new RagciError(
      "invalid-option",
      "give S with --sd (or --sd-macro / --sd-micro), or a pilot file to estimate it from",
    );
  }
  return {
    sd: {
      ...(macro === undefined ? {} : { macro }),
      ...(micro === undefined ? {} : { micro }),
    },
    population: options.population ?? null,
    source: { kind: "given" },
    census: null,
    oneSystemForDifference: null,
  };
}
