import type { Command } from "commander";
import type { AllocationRule } from "../../core/designs/allocation.js";
import { RagciError } from "../../core/errors.js";
import type { DocumentStats, Estimand } from "../../core/types.js";
import { sha256File } from "../../ingest/hashInputs.js";
import { refuseUnsafeOutputs } from "../../ingest/outputSafety.js";
import { readPairedResults } from "../../ingest/readPairedResults.js";
import { writeFileAtomic } from "../../ingest/writeAtomic.js";
import { fixed, percent, significant } from "../../report/format.js";
import { blocksToMarkdown, blocksToTerminal, type ReportBlock } from "../../report/reportBlocks.js";
import type { CommandIo } from "../io.js";
import { parseLevel, parseList, parsePopulation } from "../options.js";
import { parseSystemFilter, readOneSystem } from "../systemFilter.js";

/** One estimand's plan, as written to JSON. */
interface PlanBlock {
  readonly sd: number;
  readonly documents?: number;
  /** null: more than 10¹² documents without the correction. */
  readonly documentsWithoutFpc?: number | null;
  readonly detect?: { readonly documents: number; readonly documentsWithoutFpc: number | null };
  readonly curve: readonly { readonly halfWidth: number }[];
}

interface PlanCommandOptions {
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
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly output?: string;
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

function beyondLimit(documents: number | null | undefined): string {
  return documents === null || documents === undefined ? "more than 10¹²" : String(documents);
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
  program
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
    )
    .option("--json", "JSON output (schema ragci.plan/1)")
    .option("--markdown", "Markdown output")
    .option("-o, --output <file>", "write the report to a file (atomically)")
    .addHelpText("after", EXAMPLES)
    .action(async (file: string | undefined, options: PlanCommandOptions) => {
      const text = await runPlan(file, options, io);
      if (options.output) await writeFileAtomic(options.output, text);
      else process.stdout.write(text);
    });
}

export async function runPlan(
  file: string | undefined,
  options: PlanCommandOptions,
  io: CommandIo,
): Promise<string> {
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  await refuseUnsafeOutputs(
    file ? [file] : [],
    options.output ? [{ flag: "-o", path: options.output }] : [],
  );
  const core = await import("../../core/index.js");
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
  let sd: Partial<Record<Estimand, number>> = {};
  let source:
    | { kind: "given" }
    | {
        kind: "pilot" | "census";
        file: string;
        documents: number;
        sha256: string;
        difference?: { a: string; b: string; metric: string };
      } = {
    kind: "given",
  };
  let population = options.population ?? null;
  let censusStats: DocumentStats | null = null;
  let paired: PairedPilot["paired"] = null;
  let oneSystemWarning: string | null = null;
  if (file) {
    if (
      options.sd !== undefined ||
      options.sdMacro !== undefined ||
      options.sdMicro !== undefined
    ) {
      throw new RagciError("invalid-option", "give either a file or --sd, not both");
    }
    io.progress.update(`reading ${file}…`);
    const [pilot, sha256] = await Promise.all([readPilot(file, options), sha256File(file)]);
    io.progress.done();
    censusStats = pilot.stats;
    paired = pilot.paired;
    if (options.difference !== undefined && !paired && pilot.oneOfSeveral) {
      oneSystemWarning = `S is of one system's results (${options.system}), not of a per-document difference between two systems; for a paired plan give both, e.g. --system ${options.system?.split("=")[0]}=A,B.`;
    }
    const s = core.pilotStandardDeviations(pilot.stats);
    sd = { macro: s.macro, micro: s.micro };
    if (options.census) {
      if (population !== null && population !== s.documents) {
        throw new RagciError(
          "invalid-option",
          `--census: the file has ${s.documents} documents but --population says ${population}`,
        );
      }
      population = s.documents;
    }
    source = {
      kind: options.census ? "census" : "pilot",
      file,
      documents: s.documents,
      sha256,
      ...(paired ? { difference: paired } : {}),
    };
  } else {
    if (options.census) throw new RagciError("invalid-option", "--census needs the census file");
    const macro = options.sdMacro ?? options.sd;
    const micro = options.sdMicro ?? options.sd;
    if (macro === undefined && micro === undefined) {
      throw new RagciError(
        "invalid-option",
        "give S with --sd (or --sd-macro / --sd-micro), or a pilot file to estimate it from",
      );
    }
    if (macro !== undefined) sd.macro = macro;
    if (micro !== undefined) sd.micro = micro;
  }
  const level = options.level;
  const estimands = (["macro", "micro"] as const).filter((e) => sd[e] !== undefined);
  const curveKs = options.curve
    ? options.curve.map((text) => curvePoint(text, population))
    : [5, 10, 20, 50, 100, 200, 500, 1000].filter((k) => population === null || k <= population);
  const result: Record<string, unknown> = {};
  for (const e of estimands) {
    const S = sd[e] as number;
    const block: Record<string, unknown> = { sd: S };
    if (options.halfWidth !== undefined) {
      block.documents = core.requiredDocuments({
        sd: S,
        halfWidth: options.halfWidth,
        population,
        level,
      });
      block.documentsWithoutFpc = core.requiredDocumentsWithinLimit({
        sd: S,
        halfWidth: options.halfWidth,
        population: null,
        level,
      });
    }
    if (options.difference !== undefined) {
      block.detect = {
        difference: options.difference,
        power: options.power,
        documents: core.requiredDocumentsToDetect({
          sd: S,
          difference: options.difference,
          power: options.power,
          population,
          level,
        }),
        documentsWithoutFpc: core.requiredDocumentsToDetectWithinLimit({
          sd: S,
          difference: options.difference,
          power: options.power,
          population: null,
          level,
        }),
      };
    }
    block.curve = core.halfWidthCurve({ sd: S, population, level, documents: curveKs });
    result[e] = block;
  }
  const stratified =
    options.cutoff !== undefined && censusStats !== null && options.halfWidth !== undefined
      ? stratifiedPlan(core, censusStats, options.cutoff, options.halfWidth, level, result)
      : null;
  const warnings: string[] = [
    "The rule uses ν = K − 1 and a normal-theory interval: it does not guarantee coverage, nor use the CR2 ν (micro ν is often far below K − 1 with unequal sizes); check skewness and influential documents.",
  ];
  if (oneSystemWarning) warnings.unshift(oneSystemWarning);
  const census = estimands.filter(
    (e) => population !== null && (result[e] as PlanBlock).documents === population,
  );
  if (census.length > 0) {
    warnings.unshift(
      `For ${census.join(" and ")} the answer is every document (K = M = ${population}): only the census itself reaches a half-width of ${options.halfWidth}; a sample of fewer documents is wider.`,
    );
  }
  const flat = estimands.filter((e) => sd[e] === 0);
  if (flat.length > 0) {
    warnings.unshift(
      `S = 0 for ${flat.join(" and ")}: ${source.kind === "given" ? "with no variation between documents" : `the ${source.documents} documents of ${source.kind === "census" ? "the census" : "the pilot"} do not vary`}, every K gives a half-width of 0, so the ${flat.length > 1 ? "plans" : "plan"} above cannot size anything; plan with a realistic S (from a pilot whose documents differ, or a published one).`,
    );
  }
  if (source.kind === "pilot") {
    warnings.unshift(
      `S is estimated from a pilot of ${source.documents} documents and is itself uncertain: with so few documents the plan can be off by a wide margin; plan with a larger S for safety.`,
    );
  }
  const json = {
    schema: "ragci.plan/1",
    ragci: io.version,
    level,
    halfWidth: options.halfWidth ?? null,
    population,
    source,
    ...result,
    ...(stratified ? { stratified } : {}),
    warnings,
  };
  if (options.json) return `${JSON.stringify(json, null, 2)}\n`;

  const from =
    source.kind === "given"
      ? "S given"
      : `S${source.difference ? ` of the per-document difference ${source.difference.b} − ${source.difference.a} in ${source.difference.metric}` : ""} from the ${source.kind} ${source.file} (K = ${source.documents})`;
  const blocks: ReportBlock[] = [
    {
      kind: "title",
      text: `ragci plan · ${from} · ${options.halfWidth === undefined ? "" : `half-width ${options.halfWidth} at `}${percent(level)} · ${population === null ? "no fpc" : `M = ${population}`}`,
    },
  ];
  const rows: string[][] = [
    [
      "",
      "S",
      ...(options.halfWidth !== undefined ? ["documents", "without fpc"] : []),
      ...(options.difference !== undefined
        ? [`to detect ${options.difference} (power ${options.power})`]
        : []),
    ],
  ];
  for (const e of estimands) {
    const b = result[e] as PlanBlock;
    rows.push([
      e,
      significant(b.sd as number),
      ...(options.halfWidth !== undefined
        ? [String(b.documents), beyondLimit(b.documentsWithoutFpc)]
        : []),
      ...(b.detect !== undefined
        ? [`${b.detect.documents} (${beyondLimit(b.detect.documentsWithoutFpc)} without fpc)`]
        : []),
    ]);
  }
  blocks.push({ kind: "table", rows, align: ["l", "r", "r", "r", "l"] });
  const curve: string[][] = [["K", ...estimands]];
  curveKs.forEach((k, i) => {
    curve.push([
      String(k),
      ...estimands.map((e) => fixed((result[e] as PlanBlock).curve[i]?.halfWidth as number, 4)),
    ]);
  });
  blocks.push({ kind: "heading", text: "half-width against K" });
  blocks.push({ kind: "table", rows: curve, align: ["r", "r", "r"] });
  if (stratified) blocks.push(...stratifiedBlocks(stratified));
  blocks.push({ kind: "heading", text: "advice" }, { kind: "bullets", items: warnings });
  return options.markdown ? blocksToMarkdown(blocks) : blocksToTerminal(blocks);
}

type Core = typeof import("../../core/index.js");

/** One allocation rule's stratified plan for one estimand. */
interface StratifiedAllocationPlan {
  readonly rule: AllocationRule;
  /** Smallest K whose stratified half-width meets w (allocation redone at each K). */
  readonly documents: number;
  readonly sampled: Record<string, number>;
  readonly halfWidth: number;
  readonly df: number;
  /** The same rule at the SRS plan's K: what stratifying buys for the same labelling cost. */
  readonly atSrsDocuments: {
    readonly sampled: Record<string, number>;
    readonly halfWidth: number;
    readonly df: number;
  } | null;
}

interface StratifiedEstimandPlan {
  readonly srsDocuments: number;
  readonly srsHalfWidth: number;
  readonly allocations: readonly StratifiedAllocationPlan[];
}

interface StratifiedPlan {
  readonly cutoff: number;
  readonly strata: readonly {
    readonly name: string;
    readonly population: number;
    readonly shareOfResults: number;
  }[];
  readonly macro: StratifiedEstimandPlan;
  readonly micro: StratifiedEstimandPlan;
}

const ALLOCATION_RULES: readonly AllocationRule[] = ["equal", "proportional", "neyman"];

/**
 * The size-stratified plan from a census split at `cutoff`: for each estimand and allocation
 * rule, the smallest K meeting w and the half-width at the SRS plan's K, with ν = K − H.
 */
function stratifiedPlan(
  core: Core,
  census: DocumentStats,
  cutoff: number,
  halfWidth: number,
  level: number,
  srs: Record<string, unknown>,
): StratifiedPlan {
  const strata = core.sizeStrata(census.n, cutoff);
  const thin = strata.find((h) => h.documents.length < 2);
  if (thin) {
    throw new RagciError(
      "invalid-option",
      `--cutoff ${cutoff}: the ${thin.name} stratum would hold ${thin.documents.length} document${thin.documents.length === 1 ? "" : "s"}; each needs at least two (ragci strata proposes a cutoff)`,
    );
  }
  const summary = core.summarizeCensusStrata(census, strata);
  const N = core.compensatedSum(census.n);
  const named = (sampled: readonly number[]) =>
    Object.fromEntries(strata.map((h, i) => [h.name, sampled[i] as number]));
  const H = strata.length;
  const plan = (estimand: Estimand): StratifiedEstimandPlan => {
    const block = srs[estimand] as PlanBlock;
    const srsDocuments = block.documents as number;
    const allocations = ALLOCATION_RULES.map((rule) => {
      const input = { summary, rule, estimand, level };
      const documents = core.requiredStratifiedDocuments({ ...input, halfWidth });
      const at = core.stratifiedHalfWidth({ ...input, documents });
      const atSrs =
        srsDocuments >= 2 * H
          ? core.stratifiedHalfWidth({ ...input, documents: srsDocuments })
          : null;
      return {
        rule,
        documents,
        sampled: named(at.sampled),
        halfWidth: at.halfWidth,
        df: at.df,
        atSrsDocuments: atSrs
          ? { sampled: named(atSrs.sampled), halfWidth: atSrs.halfWidth, df: atSrs.df }
          : null,
      };
    });
    return {
      srsDocuments,
      srsHalfWidth: core.planningHalfWidth({
        sd: block.sd,
        population: summary.population,
        level,
        documents: srsDocuments,
      }),
      allocations,
    };
  };
  return {
    cutoff,
    strata: strata.map((h) => ({
      name: h.name,
      population: h.documents.length,
      shareOfResults: h.results / N,
    })),
    macro: plan("macro"),
    micro: plan("micro"),
  };
}

function stratifiedBlocks(plan: StratifiedPlan): ReportBlock[] {
  const [large, small] = plan.strata;
  const rows: string[][] = [
    ["", "design", "documents for w", "large + small", "half-width at the SRS K"],
  ];
  for (const e of ["macro", "micro"] as const) {
    const p = plan[e];
    rows.push([e, "SRS", String(p.srsDocuments), "", fixed(p.srsHalfWidth, 4)]);
    for (const a of p.allocations) {
      rows.push([
        "",
        a.rule,
        String(a.documents),
        `${a.sampled.large} + ${a.sampled.small}`,
        a.atSrsDocuments ? fixed(a.atSrsDocuments.halfWidth, 4) : "—",
      ]);
    }
  }
  return [
    {
      kind: "heading",
      text: `stratified by size at cutoff ${plan.cutoff}: large ${large?.population} documents (${percent(large?.shareOfResults ?? 0)} of results), small ${small?.population}`,
    },
    { kind: "table", rows, align: ["l", "l", "r", "r", "r"] },
    {
      kind: "bullets",
      items: [
        "Predicted from the census (combined ratio for micro); Neyman allocates on each estimand's own S_h, so its counts differ between macro and micro; the stratified interval has ν = K − 2, SRS ν = K − 1.",
      ],
    },
  ];
}

/** The per-document table a plan's S comes from: one system's, or the difference of two. */
interface PairedPilot {
  readonly stats: DocumentStats;
  /** The pair differenced (b − a per query, paired on the query id), if two were named. */
  readonly paired: { readonly a: string; readonly b: string; readonly metric: string } | null;
  /** One system picked by --system from a file of several. */
  readonly oneOfSeveral: boolean;
}

async function readPilot(file: string, options: PlanCommandOptions): Promise<PairedPilot> {
  const filter = parseSystemFilter(options.system);
  const pair = filter?.value.includes(",") ? filter.value.split(",") : null;
  if (filter && pair) {
    const [a, b] = pair;
    if (pair.length !== 2 || !a || !b || a === b) {
      throw new RagciError(
        "invalid-option",
        `--system ${options.system}: name one system, or two different ones to pair (e.g. ${filter.column}=bm25,tfidf)`,
      );
    }
    if (options.aggregated) {
      throw new RagciError(
        "invalid-option",
        "--system COLUMN=A,B pairs per-query results on the query id; it cannot read an --aggregated table",
      );
    }
    const metric = options.metric?.length === 1 ? options.metric[0] : undefined;
    if (metric === undefined) {
      throw new RagciError(
        "invalid-option",
        "a paired plan uses one metric: name it with --metric",
      );
    }
    const table = await readPairedResults({
      inputs: [{ path: file, displayName: file }],
      format: options.format ?? null,
      doc: options.doc ?? null,
      query: options.query ?? null,
      system: filter.column,
      metrics: [metric],
      pairs: (systems) => {
        const missing = pair.filter((s) => !systems.includes(s));
        if (missing.length > 0) {
          throw new RagciError(
            "invalid-option",
            `${file}: no system "${missing.join('", "')}" in column ${filter.column} (found ${systems.join(", ")})`,
          );
        }
        return [[a, b]];
      },
    });
    const difference = table.differences[0];
    if (!difference) throw new Error("internal: no paired difference");
    return { stats: difference.stats, paired: { a, b, metric }, oneOfSeveral: false };
  }
  const one = await readOneSystem({ ...options, file }, filter, "plan");
  return { stats: one.stats, paired: null, oneOfSeveral: one.systemsInFile > 1 };
}
