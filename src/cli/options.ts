import type { Command } from "commander";
import { checkReplicates, MAX_REPLICATES } from "../core/bootstrap/replicateLimit.js";
import {
  ALLOCATION_RULES,
  type AllocationRule,
  DEFAULT_ALLOCATION,
} from "../core/designs/allocation.js";
import { isLonelyPsu, LONELY_PSU_RULES, type LonelyPsu } from "../core/designs/lonelyPsu.js";
import { RagciError } from "../core/errors.js";
import { groupedInteger } from "../core/groupedInteger.js";
import { type StudySampling, studySampling } from "../core/simulation/studyPlan.js";
import { MAX_STUDY_REPETITIONS } from "../core/simulation/studyRepetitions.js";
import type { Estimand } from "../core/types.js";
import { namedEvalFormat, QUERY_CHECK_ROW_LIMIT, urlForms } from "../ingest/index.js";

// Numeric flags. Each is read by one of the kinds below (whole numbers; positive numbers, or
// ≥ 0; any number; probabilities and levels), so "--cutoff abc" says it is not a number instead
// of passing NaN on (Number() alone also reads "" and " " as 0 and "0x10" as 16).

/** A number as a flag writes it: decimal, optional sign, fraction and exponent, `_` between digits. */
const NUMBER = /^[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:e[+-]?\d(?:_?\d)*)?$/i;

/**
 * The finite number `digits` (by default the flag's whole `text`) writes; `give` completes
 * "…; give " in the refusal, which quotes the flag's `text` as the user wrote it.
 *
 * @throws RagciError "--flag abc: not a number; give …" (or "too large" past ±1.8·10³⁰⁸)
 */
function flagNumber(flag: string, text: string, give: string, digits = text): number {
  if (!NUMBER.test(digits)) {
    throw new RagciError("invalid-option", `${flag} ${text}: not a number; give ${give}`);
  }
  const value = Number(digits.replaceAll("_", ""));
  if (!Number.isFinite(value)) {
    throw new RagciError("invalid-option", `${flag} ${text}: too large; give ${give}`);
  }
  return value;
}

/** The number `text` writes in the flags' grammar, or NaN (for lists that say their own refusal). */
export function numberOrNaN(text: string): number {
  return NUMBER.test(text) ? Number(text.replaceAll("_", "")) : Number.NaN;
}

/** The refusal of a number outside the flag's range. */
function outOfRange(flag: string, text: string, give: string): RagciError {
  return new RagciError("invalid-option", `${flag} ${text}: give ${give}`);
}

/**
 * Whole numbers (counts, sizes, seeds, threads): an integer from `minimum` to `maximum` (by
 * default the largest a double holds exactly, 2⁵³ − 1); a larger one is told the maximum.
 */
export function wholeNumber(
  flag: string,
  minimum: number,
  give = `a whole number ≥ ${minimum}`,
  maximum = Number.MAX_SAFE_INTEGER,
): (text: string) => number {
  return (text) => {
    const value = flagNumber(flag, text, give);
    if (Number.isInteger(value) && value > maximum) {
      throw outOfRange(flag, text, `${give}, at most ${groupedInteger(maximum)}`);
    }
    if (!Number.isSafeInteger(value) || value < minimum) throw outOfRange(flag, text, give);
    return value;
  };
}

/** Positive numbers (a half-width): a finite number > 0. */
export function positiveNumber(flag: string): (text: string) => number {
  return (text) => {
    const value = flagNumber(flag, text, "a positive number");
    if (!(value > 0)) throw outOfRange(flag, text, "a positive number");
    return value;
  };
}

/** Positive numbers or 0 (an sd, a size cutoff, a margin): a finite number ≥ 0. */
export function nonNegativeNumber(flag: string): (text: string) => number {
  return (text) => {
    const value = flagNumber(flag, text, "a number ≥ 0");
    if (!(value >= 0)) throw outOfRange(flag, text, "a number ≥ 0");
    return value;
  };
}

/**
 * Any finite number (a difference to detect, whose sign is its direction); `give` says what to
 * give when the text is not one (core refuses the values a number can still be wrong in).
 */
export function finiteNumber(flag: string, give = "a number, e.g. 0.03"): (text: string) => number {
  return (text) => flagNumber(flag, text, give);
}

/**
 * Probabilities and confidence levels: strictly between 0 and 1, written 0.95 or 95%.
 * `give` names what the number is, e.g. "a confidence level between 0 and 1, e.g. 0.95 or 90%".
 */
export function probability(flag: string, give: string): (text: string) => number {
  return (text) => {
    const percent = text.endsWith("%");
    const digits = percent ? text.slice(0, -1) : text;
    const value = flagNumber(flag, text, give, digits) / (percent ? 100 : 1);
    if (!(value > 0 && value < 1)) throw outOfRange(flag, text, give);
    return value;
  };
}

/** --level, for every command that has it. */
export const parseLevel = probability(
  "--level",
  "a confidence level between 0 and 1, e.g. 0.95 or 90%",
);

/** --population M, for every command that has it. */
export const parsePopulation = wholeNumber(
  "--population",
  2,
  "M, the whole number of documents in the population",
);

/** --seed S, for every command that has it (numpy's default_rng(S) takes any S ≥ 0). */
export const parseSeed = wholeNumber("--seed", 0);

export function parseEstimand(text: string): Estimand {
  if (text === "micro" || text === "macro") return text;
  throw new RagciError(
    "invalid-option",
    `--estimand ${text}: use micro (rate of a random result) or macro (rate of a typical document)`,
  );
}

/** --threads n: what the threads run is said by each command's help. */
export const parseThreads = wholeNumber("--threads", 1);

/**
 * --threads of analyze, compare, aggregate and merge: DuckDB's threads for reading files
 * (ingest's Source.threads). simulate's --threads is its workers' count, and also this.
 */
const THREADS_READING_HELP =
  "DuckDB threads reading the files (default: all cores); not the --census study's workers, which use all cores";

/** "hit@5,mrr" → ["hit@5", "mrr"]; repeated flags accumulate. */
export function parseList(text: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...text
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  ];
}

/** --replicates B: a whole number up to the bootstrap's memory bound (core's MAX_REPLICATES). */
export function parseReplicates(text: string): number {
  const give = `a whole number from 0 to ${groupedInteger(MAX_REPLICATES)}`;
  const value = flagNumber("--replicates", text, give);
  checkReplicates(value, text);
  return value;
}

/**
 * The options every inference command shares: level, population, estimand, bootstrap
 * replicates and seed, DuckDB threads — declared once so analyze and compare agree.
 */
export function withInferenceOptions(command: Command): Command {
  withPopulationOption(withLevelOption(command)).option(
    "--estimand <estimand>",
    "report only micro or macro",
    parseEstimand,
  );
  withSeedOption(withReplicatesOption(command), "the bootstrap stream (numpy default_rng(S))");
  return withThreadsOption(command, "filesBesideCensus");
}

/** --population M, for every command that has it (analyze, compare, plan). */
export function withPopulationOption(command: Command): Command {
  return command.option(
    "--population <M>",
    "documents in the population: finite-population correction (1 − K/M)",
    parsePopulation,
  );
}

/** Comma-separated whole numbers ≥ minimum (e.g. --k 5,10,20); repeated flags accumulate. */
export function wholeNumberList(
  flag: string,
  minimum: number,
  maximum = Number.MAX_SAFE_INTEGER,
): (text: string, previous?: number[]) => number[] {
  const give = `whole numbers ≥ ${minimum}`;
  const each = wholeNumber(flag, minimum, give, maximum);
  return (text, previous = []) => [
    ...previous,
    ...numberListItems(flag, text, `${give}, comma-separated`).map(each),
  ];
}

/**
 * The items of a comma-separated list of numbers, refused when it has none: an empty list
 * (--k "" or --k ,) once fell back to the default, or printed an empty curve, without a word.
 */
function numberListItems(flag: string, text: string, give: string): string[] {
  const values = parseList(text);
  if (values.length === 0)
    throw new RagciError(
      "invalid-option",
      `${flag} ${JSON.stringify(text)}: no number; give ${give}`,
    );
  return values;
}

/** --allocation: one of core's allocation rules. */
export function parseAllocation(text: string): AllocationRule {
  if (!(ALLOCATION_RULES as readonly string[]).includes(text)) {
    throw new RagciError(
      "invalid-option",
      `--allocation ${text}: use ${ALLOCATION_RULES.slice(0, -1).join(", ")} or ${ALLOCATION_RULES.at(-1)}`,
    );
  }
  return text as AllocationRule;
}

/**
 * --sampling (simulate): how the coverage study draws its samples, srs, stratified or two-stage
 * (core's study samplings). Not --design, which is a design FILE in every command that has it.
 */
export function parseSampling(text: string): StudySampling {
  return studySampling(text);
}

/**
 * The flags analyze and compare read results files with, declared once: the document column,
 * the format (tables or tools' outputs), --doc-map, the chunk bootstrap's override and the
 * --census study's repetitions.
 */
export function withResultsFileOptions(command: Command): Command {
  withFormatOption(withDocOption(command), "inputs");
  return withChunkBootstrapOption(withToolOutputOptions(command), "run").option(
    "--census-reps <R>",
    "repetitions of the --census study",
    wholeNumber("--census-reps", 0, undefined, MAX_STUDY_REPETITIONS),
    1000,
  );
}

/** The flags that say how to read evaluation tools' outputs (analyze, compare, aggregate). */
export function withToolOutputOptions(command: Command): Command {
  return command
    .option("--doc-map <file>", DOC_MAP_HELP)
    .option("--qrels <file>", QRELS_HELP)
    .option("--complete-queries", COMPLETE_QUERIES_HELP)
    .option("--errors-as-failures", ERRORS_AS_FAILURES_HELP);
}

// --format has two meanings, each declared once: analyze, compare and aggregate read a table or
// a tool's output; plan, strata, simulate and merge read tables only. Each parser refuses at once
// a name its commands do not read (ingest's inputFormat and namedEvalFormat read the rest).

/** The names of a table's format (ingest's inputFormat; ndjson is jsonl). */
const TABLE_FORMATS = ["csv", "tsv", "jsonl", "ndjson", "parquet"];

/** The formats analyze, compare and aggregate read: the tables' and the evaluation tools'. */
const INPUT_FORMAT_NAMES =
  "csv, tsv, jsonl, parquet, or a tool's output: promptfoo, inspect, deepeval, braintrust, evalite, trec_eval, trec-run, run-json, run-jsonl";

/** --format of analyze, compare and aggregate: a table's format, or the tool that wrote the file. */
export function parseInputFormat(text: string): string {
  if (TABLE_FORMATS.includes(text.toLowerCase()) || namedEvalFormat(text)) return text;
  throw new RagciError("invalid-option", `--format ${text}: give ${INPUT_FORMAT_NAMES}`);
}

/** --format of plan, strata, simulate and merge, which read tables only. */
export function parseTableFormat(text: string): string {
  if (TABLE_FORMATS.includes(text.toLowerCase())) return text;
  const tool = namedEvalFormat(text)
    ? `; a tool's output is read by analyze, compare and aggregate (ragci aggregate writes its per-document table, read here with --aggregated)`
    : "";
  throw new RagciError(
    "invalid-option",
    `--format ${text}: give csv, tsv, jsonl or parquet${tool}`,
  );
}

/** --format: the table formats and the evaluation tools whose outputs ragci reads. */
export const INPUT_FORMAT_HELP = `${INPUT_FORMAT_NAMES} (default: from the extension and the content; stdin's from its content)`;

/** --format of the commands that read tables only. */
export const TABLE_FORMAT_HELP =
  "csv, tsv, jsonl or parquet (default: from the extension; stdin's from its content)";

/** --doc-map, for outputs that name no document (trec_eval). */
const DOC_MAP_HELP =
  "a table of query id → document id (columns such as query_id, doc), for outputs without a document field (trec_eval)";

/** --qrels and --complete-queries, for TREC runs (scored by ragci as trec_eval does). */
const QRELS_HELP =
  "TREC qrels (query iteration document grade) that run files (TREC, JSON, JSON lines) are scored against, with trec_eval's measures";
const COMPLETE_QUERIES_HELP =
  "score the --qrels queries a run does not retrieve as empty rankings (trec_eval -c); by default only queries in both are scored";

/** --errors-as-failures, for outputs that record provider errors apart (promptfoo). */
const ERRORS_AS_FAILURES_HELP =
  "keep the items a tool records as provider errors (promptfoo's failureReason 2) as failures, scored 0; by default they are left out and counted in a note";

/** --curve: each K a whole number ≥ 2, in the order given (core's planSample checks K ≤ M). */
export function parseCurve(text: string, previous: number[] = []): number[] {
  const each = (k: string) => {
    const value = flagNumber("--curve", k, `each K as a whole number of documents ${CURVE}`);
    if (Number.isInteger(value) && value >= 2) return value;
    throw new RagciError(
      "invalid-option",
      `--curve ${k}: each K must be a whole number of documents ${CURVE}`,
    );
  };
  const give = `each K as a whole number of documents ${CURVE}`;
  return [...previous, ...numberListItems("--curve", text, give).map(each)];
}

const CURVE = "≥ 2 (e.g. --curve 10,20,50)";

/**
 * --trial, --judge, --variant (analyze, compare, plan): the facets of a per-query file, as
 * ingest's FilesSource.trial, .judge and .variant.
 */
export function withFacetOptions(command: Command): Command {
  return command
    .option(
      "--trial <column>",
      "reruns' column (epoch, repeat): each query's trials are averaged for the interval and kept as cells; for a tool's output its own: epoch (Inspect), repeat (promptfoo), trial (evalite)",
    )
    .option(
      "--judge <column>",
      "the judge's (grader's) column, crossed with documents; for an Inspect log: scorer (each scorer a judge of one metric, score); for promptfoo: grader (each grading assertion's provider a judge of its metric)",
    )
    .option("--variant <column>", "the prompt wording's column, crossed with documents");
}

// The flags several commands share, each declared once: its flags, help, parser and default.
// Where a command's flag means something else, the declaration takes that difference as a
// parameter and its help says it (test/cli/flagTable.test.ts lists those differences).

/** --level, for every command that has it (analyze, compare, plan, simulate). */
export function withLevelOption(command: Command): Command {
  return command.option("--level <level>", "confidence level", parseLevel, 0.95);
}

/**
 * --seed S (default 1); `seeds` says what the seed starts: analyze's and compare's bootstrap,
 * strata's sample draw, every stream of simulate's study.
 */
export function withSeedOption(command: Command, seeds: string): Command {
  return command.option("--seed <S>", `seed of ${seeds}`, parseSeed, 1);
}

/**
 * --replicates B: the bootstrap's replicates, 9999 for one analysis; simulate's study runs one
 * bootstrap per repetition, 999 each by default (its help says "per repetition").
 */
export function withReplicatesOption(command: Command, perRepetition = false): Command {
  return command.option(
    "--replicates <B>",
    `bootstrap replicates${perRepetition ? " per repetition" : ""} (0 turns resampling off)`,
    parseReplicates,
    perRepetition ? 999 : 9999,
  );
}

/**
 * --doc: the document id column, found by its usual names when not given (ingest's readers);
 * `named` for sql, whose statement names the column (no detection): required there.
 */
export function withDocOption(command: Command, named = false): Command {
  return named
    ? command.requiredOption(
        "--doc <column>",
        "document id column (required: the statement names it)",
      )
    : command.option(
        "--doc <column>",
        "document id column (default: doc_id, doc, document_id or document)",
      );
}

/**
 * --metric: the metric columns of per-query results (analyze, compare, aggregate), or the one
 * a single-metric command (plan, strata, simulate) works on. merge's --metric names values of
 * a per-document table's metric column, not columns.
 */
export function withMetricOption(command: Command, read: "columns" | "one" | "names"): Command {
  if (read === "names")
    return command.option("--metric <names>", "keep only these metrics", parseList);
  if (read === "one") return command.option("--metric <column>", "metric column (one)", parseList);
  return command.option(
    "--metric <columns>",
    "metric column(s), comma-separated (e.g. hit@5,mrr)",
    parseList,
  );
}

/** What a command makes of --system's systems (ingest's parseSystemSelection reads them all). */
const SYSTEM_FLAGS = {
  /** analyze, aggregate, sql: each system apart. */
  each: [
    "--system <column[=values]>",
    "system column: each system apart; COLUMN=A or COLUMN=A,B keeps only those systems",
  ],
  /** merge: the per-document table's own system column. */
  table: [
    "--system <column[=values]>",
    "system column (default: system); COLUMN=A,B keeps only those systems",
  ],
  /** compare: the systems compared. */
  compared: [
    "--system <column[=A,B]>",
    "system column (one input file); COLUMN=A,B compares only those systems",
  ],
  /** plan, simulate: one system, or a pair's per-query differences. */
  oneOrPair: [
    "--system <column=values>",
    "use the rows of one system (system=bm25), or pair two on the query id (system=bm25,tfidf)",
  ],
  /** strata: one system. */
  one: [
    "--system <column[=value]>",
    "use the rows of one system, e.g. system=bm25 (a column alone: the file must hold one system)",
  ],
} as const;

/** What a command makes of the systems --system names. */
export type SystemUse = keyof typeof SYSTEM_FLAGS;

/** --system, with what the command makes of the systems it names. */
export function withSystemOption(command: Command, systems: SystemUse): Command {
  const [flags, help] = SYSTEM_FLAGS[systems];
  return command.option(flags, help);
}

/** What --threads's DuckDB threads read, and what else runs in threads beside them. */
const THREADS_HELP = {
  /** aggregate, merge. */
  files: "DuckDB threads reading the files (default: all cores)",
  /** analyze, compare: their --census study runs workers on all cores. */
  filesBesideCensus: THREADS_READING_HELP,
  /** simulate: its study's workers are --workers. */
  census: "DuckDB threads reading the census file (default: all cores); the study's are --workers",
} as const;

/** --threads n: DuckDB's threads reading the input, in every command that reads files. */
export function withThreadsOption(command: Command, reading: keyof typeof THREADS_HELP): Command {
  return command.option("--threads <n>", THREADS_HELP[reading], parseThreads);
}

/** -o: a report (analyze, compare, plan, strata, simulate) or a per-document table (aggregate, merge). */
export function withOutputOption(command: Command, writes: "report" | "table"): Command {
  return command.option(
    "-o, --output <file>",
    writes === "report"
      ? "write the report to a file (atomically) instead of stdout"
      : "write the table (.csv or .parquet) atomically instead of CSV to stdout",
  );
}

/** --psu: a two-stage design's first-stage unit column (analyze, compare, simulate). */
export function withPsuOption(command: Command): Command {
  return command.option(
    "--psu <column>",
    "first-stage unit column for a two-stage design (default: psu)",
  );
}

/** --label: a per-document column carried into the per-document table (aggregate, merge, sql). */
export function withLabelOption(command: Command): Command {
  return command.option(
    "--label <column>",
    "a per-document column to keep, e.g. a design's stratum or psu (for --aggregated --design)",
  );
}

/** --write-aggregates: the per-document table analyze and compare re-run from. */
export function withWriteAggregatesOption(command: Command): Command {
  return command.option(
    "--write-aggregates <file>",
    "save the per-document table (.csv or .parquet) to re-run from with --aggregated",
  );
}

/**
 * --aggregated: the input is the per-document table (ingest's aggregated reading); compare's
 * also holds each pair's differences, as compare --write-aggregates writes it.
 */
export function withAggregatedOption(command: Command, pairs = false): Command {
  return command.option(
    "--aggregated",
    pairs
      ? "input is the per-document table of compare --write-aggregates (each system and each pair's differences)"
      : "input is one row per document: doc, n, s[, ss]",
  );
}

/** What a command does with --query's column. */
const QUERY_HELP = {
  /** analyze: ingest's check of repeated query ids. */
  checked: `query id column, checked for ids repeated within a system on any number of rows (found by its usual name, it is checked up to ${groupedInteger(QUERY_CHECK_ROW_LIMIT)} rows)`,
  /** compare: the pairing of every system. */
  paired: "query id column the systems are paired on (default: query_id, query, qid)",
  /** plan, simulate: the pairing of two systems, when --system names two. */
  pairedWhenTwo: "query id column, to pair two systems (default: detected)",
  /** sql: the statement's check of repeated query ids. */
  statement: "query id column: a query repeated for a system is refused",
} as const;

/** --query, with what the command does with the column. */
export function withQueryOption(command: Command, use: keyof typeof QUERY_HELP): Command {
  return command.option("--query <column>", QUERY_HELP[use]);
}

/** --format: what the command reads, a table or a tool's output, or tables only. */
export function withFormatOption(command: Command, reads: "inputs" | "tables"): Command {
  return reads === "inputs"
    ? command.option("--format <format>", INPUT_FORMAT_HELP, parseInputFormat)
    : command.option("--format <format>", TABLE_FORMAT_HELP, parseTableFormat);
}

/** Adds --json (with the command's schema), --markdown, -o and --html to a command. */
export function withReportOptions(command: Command, schema: string): Command {
  command
    .option("--json", `JSON output (schema ${schema})`)
    .option("--markdown", "Markdown output");
  return withOutputOption(command, "report").option(
    "--html <file>",
    "also write a self-contained HTML report with figures (no script, no network) to this file",
  );
}

/** --table and --sql: the per-query rows, a table or a SELECT's. */
const TABLE_HELP = "the table of per-query results";
const SELECT_HELP = "a SELECT giving the per-query results";

/**
 * --table and --sql: with --from, where the rows are read (ingest's DatabaseSource.table and
 * .sql); sql's own print a statement on them that ragci never runs (its --sql the alternative
 * to --table).
 */
function withRowsOptions(command: Command, read: "from" | "statement"): Command {
  return read === "from"
    ? command
        .option("--table <name>", `with --from: ${TABLE_HELP}`)
        .option("--sql <select>", `with --from: ${SELECT_HELP}`)
    : command
        .option("--table <name>", `${TABLE_HELP} (schema.table parts are quoted)`)
        .option("--sql <select>", `or ${SELECT_HELP}`);
}

/** Adds --from, --table and --sql to a command. */
export function withDatabaseOptions(command: Command): Command {
  return withRowsOptions(
    command.option(
      "--from <url>",
      `read through a database, aggregating there: ${urlForms()} (credentials from each client's usual environment variables; never shown)`,
    ),
    "from",
  );
}

/** --table and --sql of sql: the rows the printed statement reads. */
export function withStatementRowsOptions(command: Command): Command {
  return withRowsOptions(command, "statement");
}

/** What --design's file is: a design of the sample, or of simulate's two-stage population. */
const DESIGN_HELP = {
  /** analyze, compare: the design the sample was drawn with (core's designs). */
  sample: "sampling design (JSON: srs, stratified or two-stage; docs/designs.md)",
  /** simulate: the two-stage design its samples are drawn with. */
  population:
    "a two-stage design file (JSON, docs/designs.md) whose T and M_i the census must match; implies --sampling two-stage",
} as const;

/** --design FILE, a design file (JSON, docs/designs.md) in every command that has it. */
export function withDesignOption(command: Command, design: keyof typeof DESIGN_HELP): Command {
  return command.option("--design <file>", DESIGN_HELP[design]);
}

function parseLonelyPsu(text: string): LonelyPsu {
  if (isLonelyPsu(text)) return text;
  throw new RagciError(
    "invalid-option",
    `--lonely-psu ${text}: use one of ${LONELY_PSU_RULES.join(", ")} (R survey's survey.lonely.psu)`,
  );
}

/** Registers --design, --stratum, --psu and --lonely-psu (--population is an inference option). */
export function withDesignOptions(command: Command): Command {
  withDesignOption(command, "sample").option(
    "--stratum <column>",
    "stratum column for a stratified design (default: stratum)",
  );
  return withPsuOption(command).option(
    "--lonely-psu <rule>",
    "stratum with one sampled document: fail (default), remove, adjust, average or certainty",
    parseLonelyPsu,
  );
}

/**
 * --census: every document of the population. analyze and compare run a coverage study at the
 * sample's K on it (compare's of the systems' differences; analyze also reads it per document
 * with --census-aggregated); plan takes M = its K, from a FILE or the file given.
 */
const CENSUS_FLAGS = {
  study: [
    "--census <file>",
    "every document of the population: run a coverage study at this K on it and recommend from it",
  ],
  pairStudy: [
    "--census <file>",
    "per-query results of every document for the same systems: run a coverage study of the differences at this K and recommend from it",
  ],
  population: [
    "--census [file]",
    "every document of the population, M = its K: the census FILE (as analyze's --census), or without FILE the file given (or the --from source)",
  ],
} as const;

/** --census, with what the command makes of the census. */
export function withCensusOption(command: Command, census: keyof typeof CENSUS_FLAGS): Command {
  const [flags, help] = CENSUS_FLAGS[census];
  command.option(flags, help);
  if (census !== "study") return command;
  return command.option(
    "--census-aggregated",
    "the --census file is one row per document: doc, n, s[, ss]",
  );
}

/**
 * --chunk-bootstrap: the chunk bootstrap, a contrast. analyze and compare skip it when B·K >
 * 2·10⁶ unless the flag is given; simulate scores it only when given.
 */
export function withChunkBootstrapOption(command: Command, use: "run" | "score"): Command {
  return command.option(
    "--chunk-bootstrap",
    use === "run"
      ? "run the chunk bootstrap (a contrast) even when B·K > 2·10⁶, where it is skipped by default"
      : "also score the chunk bootstrap (a contrast; the slowest method)",
  );
}

/** --cutoff n: the size strata's split, large documents having more than n results. */
const CUTOFF = "large documents have more than n results";

/** What a command does with --cutoff's size strata. */
const CUTOFF_HELP = {
  /** plan: a size-stratified plan beside the simple one. */
  plan: `with --census: also plan a size-stratified sample; ${CUTOFF}`,
  /** strata: its split, proposed when not given. */
  split: `${CUTOFF} (default: proposed)`,
  /** simulate: its stratified sampling's split. */
  sampling: `with --sampling stratified: ${CUTOFF}`,
} as const;

/** --cutoff n (a size, ≥ 0), with what the command does with the strata. */
export function withCutoffOption(command: Command, use: keyof typeof CUTOFF_HELP): Command {
  return command.option("--cutoff <n>", CUTOFF_HELP[use], nonNegativeNumber("--cutoff"));
}

/** Which draw --allocation allocates between the size strata. */
const ALLOCATION_USE = {
  /** strata: the sample --write-sample draws. */
  sample: "allocation used for --write-sample",
  /** simulate: each sample of its stratified sampling. */
  sampling: "with --sampling stratified",
} as const;

/** --allocation: core's allocation rule for the size strata (default Neyman's). */
export function withAllocationOption(command: Command, use: keyof typeof ALLOCATION_USE): Command {
  return command.option(
    "--allocation <rule>",
    `${ALLOCATION_USE[use]}: ${ALLOCATION_RULES.slice(0, -1).join(", ")} or ${ALLOCATION_RULES.at(-1)}`,
    parseAllocation,
    DEFAULT_ALLOCATION,
  );
}

/**
 * --intersect: keep the queries every system has. compare drops the others (and reports how
 * many); sql's --pair statement leaves them out instead of failing on them.
 */
export function withIntersectOption(command: Command, use: "compare" | "statement"): Command {
  return command.option(
    "--intersect",
    use === "compare"
      ? "keep the queries every system has (reports how many were dropped)"
      : "with --pair: keep the queries both systems have (compare --intersect) instead of failing on the others",
  );
}
