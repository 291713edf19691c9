import type { Command } from "commander";
import { RagciError } from "../../core/errors.js";
import { csvText } from "../../ingest/csvText.js";
import { refuseUnsafeOutputs } from "../../ingest/outputSafety.js";
import { readOneSystem } from "../../ingest/readOneSystem.js";
import { writeFileAtomic } from "../../ingest/writeAtomic.js";
import { percent, significant } from "../../report/format.js";
import { blocksToMarkdown, blocksToTerminal, type ReportBlock } from "../../report/reportBlocks.js";
import { type CommandIo, emitReport } from "../io.js";
import { parseCount, parseList } from "../options.js";
import { parseSystemFilter } from "../systemFilter.js";

interface StrataCommandOptions {
  readonly documents: number;
  readonly cutoff?: number;
  readonly doc?: string;
  readonly metric?: string[];
  readonly system?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly writeSample?: string;
  readonly allocation: string;
  readonly seed: number;
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly output?: string;
}

const RULES = ["equal", "proportional", "neyman"] as const;

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
  program
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
      "neyman",
    )
    .option("--write-sample <file>", "write the sampled document ids (CSV: doc, stratum)")
    .option("--seed <S>", "seed of the sample draw", parseCount("--seed"), 1)
    .option("--json", "JSON output (schema ragci.strata/1)")
    .option("--markdown", "Markdown output")
    .option("-o, --output <file>", "write the report to a file (atomically) instead of stdout")
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
  const core = await import("../../core/index.js");
  if (!(RULES as readonly string[]).includes(options.allocation)) {
    throw new RagciError(
      "invalid-option",
      `--allocation ${options.allocation}: use equal, proportional or neyman`,
    );
  }
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  await refuseUnsafeOutputs(
    [file],
    [
      ...(options.output ? [{ flag: "-o", path: options.output }] : []),
      ...(options.writeSample ? [{ flag: "--write-sample", path: options.writeSample }] : []),
    ],
  );
  const filter = parseSystemFilter(options.system);
  io.progress.update(`reading ${file}…`);
  const { stats: census } = await readOneSystem({ ...options, file }, filter, "strata");
  io.progress.done();

  const M = census.n.length;
  const K = options.documents;
  if (K < 4 || K > M)
    throw new RagciError(
      "invalid-option",
      `--documents ${K}: give between 4 and the census's ${M} documents`,
    );
  const N = census.n.reduce((a, b) => a + b, 0);

  const evaluate = (cutoff: number) => {
    const strata = core.sizeStrata(census.n, cutoff);
    if (strata.some((h) => h.documents.length < 2)) return null;
    // Neyman allocates on an estimand's own S_h, so it differs between micro and macro (as in
    // plan --cutoff): one row per estimand; equal and proportional do not depend on S_h.
    const allocation = (rule: (typeof RULES)[number], estimand: "micro" | "macro") => {
      const sampled = core.allocate(
        K,
        strata.map((h) => ({
          population: h.documents.length,
          sd: core.stratumStandardDeviations(census, h)[estimand],
        })),
        rule,
      );
      return {
        rule,
        estimand: rule === "neyman" ? estimand : null,
        sampled,
        predicted: core.predictedStandardErrors(census, strata, sampled),
      };
    };
    const rows = [...RULES.map((rule) => allocation(rule, "micro")), allocation("neyman", "macro")];
    return { cutoff, strata, rows };
  };
  let chosen: ReturnType<typeof evaluate>;
  if (options.cutoff !== undefined) {
    chosen = evaluate(options.cutoff);
    if (!chosen)
      throw new RagciError(
        "invalid-option",
        `--cutoff ${options.cutoff}: each stratum needs at least two documents`,
      );
  } else {
    // Candidate cutoffs: the distinct sizes (at most 200 of them, by quantile); keep the one
    // with the smallest predicted micro se under Neyman allocation.
    const sizes = [...new Set(Array.from(census.n))].sort((a, b) => a - b);
    const step = Math.max(1, Math.floor(sizes.length / 200));
    chosen = null;
    for (let i = 0; i < sizes.length; i += step) {
      const candidate = evaluate(sizes[i] as number);
      if (!candidate) continue;
      if (
        !chosen ||
        (candidate.rows[2]?.predicted.micro ?? Infinity) <
          (chosen.rows[2]?.predicted.micro ?? Infinity)
      )
        chosen = candidate;
    }
    if (!chosen)
      throw new RagciError(
        "invalid-option",
        `${file}: no size cutoff leaves two documents in each stratum`,
      );
  }
  const srs = core.predictedStandardErrors(
    census,
    [{ documents: Array.from({ length: M }, (_, d) => d) }],
    [K],
  );
  const [large] = chosen.strata;
  const resultsAbove = large.results;

  let samplePath: string | null = null;
  if (options.writeSample) {
    const rule = chosen.rows.find((r) => r.rule === options.allocation) ?? chosen.rows[2];
    const uniform = core.uniformSource(options.seed);
    const sample: [string, string][] = [];
    chosen.strata.forEach((h, i) => {
      const pool = [...h.documents];
      const take = rule?.sampled[i] ?? 0;
      // Partial Fisher–Yates: the first `take` positions become an SRS of the stratum.
      for (let j = 0; j < take; j++) {
        const pick = j + Math.floor(uniform() * (pool.length - j));
        [pool[j], pool[pick]] = [pool[pick] as number, pool[j] as number];
        sample.push([census.ids[pool[j] as number] as string, h.name]);
      }
    });
    await writeFileAtomic(options.writeSample, csvText(["doc", "stratum"], sample));
    samplePath = options.writeSample;
  }

  const out = {
    schema: "ragci.strata/1",
    ragci: io.version,
    documents: K,
    population: M,
    results: N,
    cutoff: chosen.cutoff,
    cutoffProposed: options.cutoff === undefined,
    strata: chosen.strata.map((h) => ({ name: h.name, documents: h.documents.length })),
    shareOfResultsAbove: resultsAbove / N,
    srs,
    allocations: chosen.rows.map((r) => ({
      rule: r.rule,
      ...(r.estimand ? { estimand: r.estimand } : {}),
      sampled: Object.fromEntries(chosen.strata.map((h, i) => [h.name, r.sampled[i]])),
      predicted: r.predicted,
    })),
    sample: samplePath,
  };
  if (options.json) return `${JSON.stringify(out, null, 2)}\n`;
  const rows: string[][] = [
    ["design", "large", "small", "se micro", "se macro"],
    ["SRS", "", "", significant(srs.micro), significant(srs.macro)],
  ];
  for (const r of chosen.rows)
    rows.push([
      r.estimand ? `${r.rule} (${r.estimand} S_h)` : r.rule,
      String(r.sampled[0]),
      String(r.sampled[1]),
      significant(r.predicted.micro),
      significant(r.predicted.macro),
    ]);
  const blocks: ReportBlock[] = [
    {
      kind: "title",
      text: `ragci strata ${file}${filter?.value ? ` · ${filter.column} ${filter.value}` : ""} · census of ${M} documents, ${N} results · K = ${K}`,
    },
    {
      kind: "text",
      text: `cutoff ${chosen.cutoff}${options.cutoff === undefined ? " (proposed: smallest predicted micro se under Neyman)" : ""}: ${large.documents.length} documents have more than ${chosen.cutoff} results and hold ${percent(resultsAbove / N)} of all results`,
    },
    { kind: "table", rows, align: ["l", "r", "r", "r", "r"] },
    {
      kind: "bullets",
      items: [
        "Predicted from the census with the stratified estimators (combined ratio for micro); the strata are fixed and documents are drawn by SRS inside each.",
        "Neyman allocates on each estimand's own S_h, so it has a row for each: the micro row is best for micro's se, the macro row for macro's (as in ragci plan --cutoff); --write-sample with neyman uses the micro row.",
        "Stratifying makes each document count more; it does not replace having more documents.",
        ...(samplePath
          ? [
              `sample written to ${samplePath} (seed ${options.seed}, ${options.allocation} allocation)`,
            ]
          : []),
      ],
    },
  ];
  return options.markdown ? blocksToMarkdown(blocks) : blocksToTerminal(blocks);
}
