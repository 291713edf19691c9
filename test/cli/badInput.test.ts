/**
 * SPEC §11 and issue 11: every user error ends with one line naming the file, row or column
 * and what to do, exit code 2, no stack trace, nothing on stdout — and it touches nothing:
 * every file in the run's directory has the same SHA-256 afterwards and no file is left
 * behind (no report, no aggregates, no temporary file).
 *
 * Each case runs in its own directory with the files it names, and the paths are relative
 * to it, as a user types them.
 */
import {
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { sha256File } from "../support/sha256File.js";
import { EXAMPLE, FIXTURES, ROOT, ragci, scratchDir } from "./runCli.js";

const root = scratchDir();

/**
 * Files a case starts from: contents, or a path to copy (with the bytes from `invert[0]` up to
 * `invert[1]` inverted, to damage a copy of a binary file).
 */
type Files = Readonly<
  Record<string, string | { readonly copy: string; readonly invert?: readonly [number, number] }>
>;

interface Case {
  readonly name: string;
  readonly files?: Files;
  readonly args: readonly string[];
  readonly input?: string;
  readonly message: RegExp;
}

const K5 = { copy: join(FIXTURES, "k5_binary.csv") };
const COVID = { copy: EXAMPLE };
const TWO_STAGE = { copy: join(FIXTURES, "two_stage_types.csv") };
const TWO_STAGE_DESIGN = { copy: join(FIXTURES, "two_stage_types.design.json") };
const BM25 = ["--metric", "hit5", "--system", "system=bm25"];
const REAL_TOOLS = join(ROOT, "test/fixtures/realTools");
const PROMPTFOO = { copy: join(REAL_TOOLS, "promptfoo/results.json") };
/** promptfoo's results.jsonl cut off: its first 10 lines and 500 characters of the 11th. */
const PROMPTFOO_JSONL_CUT = (() => {
  const lines = readFileSync(join(REAL_TOOLS, "promptfoo/results.jsonl"), "utf8").split("\n");
  return `${lines.slice(0, 10).join("\n")}\n${(lines[10] as string).slice(0, 500)}`;
})();
/** Inspect's cancelled log with sample 2's score and reduction NaN, as Python writes NaN. */
const INSPECT_NAN = (() => {
  const log = JSON.parse(
    readFileSync(join(REAL_TOOLS, "inspect/2025-05-12T20-28-13-04-00_popularity.json"), "utf8"),
  );
  log.samples[1].scores.match.value = "__nan__";
  for (const r of log.reductions[0].samples) if (r.sample_id === 2) r.value = "__nan__";
  return JSON.stringify(log, null, 2).replaceAll('"__nan__"', "NaN");
})();
/** Records as pandas' to_json(orient="records") writes them. */
const RECORDS = [
  { doc_id: "a", hit5: 1 },
  { doc_id: "b", hit5: 0 },
  { doc_id: "c", hit5: 1 },
];
/** What plan, strata and simulate need besides the file, so the file is what is refused. */
const TABLE_ONLY_ARGS = {
  plan: ["--half-width", "0.05"],
  strata: ["--documents", "4"],
  simulate: ["--k", "2", "--reps", "5"],
};

/**
 * A Parquet file (hand-made edge case) whose columns "Hit5" and "hit5" differ only in case.
 * DuckDB renames such a column when it writes one, so "hxt5" is written and renamed in place:
 * the same length, so the file stays valid.
 */
async function caseAlikeParquet(path: string): Promise<string> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const db = await DuckDBInstance.create(":memory:");
  const c = await db.connect();
  await c.run(
    `COPY (SELECT * FROM (VALUES ('a', 1, 1), ('b', 2, 1), ('c', 3, 0)) t(doc_id, "Hit5", hxt5)) TO '${path}' (FORMAT parquet)`,
  );
  c.closeSync();
  db.closeSync();
  const bytes = readFileSync(path);
  const [from, to] = [Buffer.from("hxt5"), Buffer.from("hit5")];
  let renamed = 0;
  for (let at = bytes.indexOf(from); at >= 0; at = bytes.indexOf(from, at + 1), renamed++)
    to.copy(bytes, at);
  if (renamed === 0) throw new Error("the column name was not found in the Parquet file");
  writeFileSync(path, bytes);
  return path;
}
const CASE_ALIKE_PARQUET = { copy: await caseAlikeParquet(join(root, "case-alike.parquet")) };
/** A gzip-compressed CSV whose header has "Hit5" and "hit5" (read by DuckDB, not line by line). */
const CASE_ALIKE_GZ = join(root, "case-alike.csv.gz");
writeFileSync(CASE_ALIKE_GZ, gzipSync("doc_id,Hit5,hit5\na,1,1\nb,2,1\nc,3,0\n"));

/** Five documents' rows, the first document's id "café": the text the encodings below hold. */
const ENCODED_ROWS = `doc,query,hit\n${["café", "b", "c", "d", "e"]
  .flatMap((d, i) => [`${d},q${i}a,1`, `${d},q${i}b,${i % 2}`])
  .join("\n")}\n`;
/** A file of these bytes, written once, for the cases to copy. */
function bytesFile(name: string, bytes: Uint8Array): { readonly copy: string } {
  const path = join(root, name);
  writeFileSync(path, bytes);
  return { copy: path };
}
const UTF16_LE = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ENCODED_ROWS, "utf16le")]);
/** UTF-16 big-endian with its mark: the little-endian bytes, each pair swapped. */
const UTF16_BE = Buffer.from(UTF16_LE).swap16();
/** Rows past DuckDB's first look (its sniffer samples 20,480 rows), `line` replaced (1 = header). */
const ROWS_WITH_LATE_LINE = (line: number, text: string) => {
  const lines = ["doc,query,hit"];
  for (let i = 1; i < 25_000; i++) lines.push(`d${i % 50},q${i},${i % 2}`);
  lines[line - 1] = text;
  return `${lines.join("\n")}\n`;
};

/** Two trials of each query, line 24000 (past DuckDB's sample) holding a quote left open. */
const TRIALS_WITH_LATE_OPEN_QUOTE = (() => {
  const lines = ["doc,query,trial,hit"];
  for (let i = 1; i < 25_000; i++)
    lines.push(`d${(i >> 1) % 50},q${i >> 1},${(i % 2) + 1},${i % 2}`);
  lines[24_000 - 1] = 'd3,"q0,1,1';
  return `${lines.join("\n")}\n`;
})();

/** analyze of trials.csv read with its trials (the facets' own pass over the file). */
const ANALYZE_TRIALS = [
  "analyze",
  "trials.csv",
  "--doc",
  "doc",
  "--query",
  "query",
  "--trial",
  "trial",
  "--metric",
  "hit",
];

/** The same trials with a metric in line 24000 that is not a number (past DuckDB's sample). */
const TRIALS_WITH_LATE_WORD = TRIALS_WITH_LATE_OPEN_QUOTE.replace('d3,"q0,1,1', "d3,q0x,1,abc");

/** Per-query rows of bm25 and tfidf for these documents, two queries each. */
const sampleOf = (docs: readonly string[]) =>
  `doc_id,query_id,system,hit5\n${docs
    .flatMap((d, i) => [
      `${d},q${i}a,bm25,1`,
      `${d},q${i}b,bm25,0`,
      `${d},q${i}a,tfidf,${i % 2}`,
      `${d},q${i}b,tfidf,1`,
    ])
    .join("\n")}\n`;
/** A sample none of whose documents is in COVID (whose ids are numbers). */
const OUTSIDE_SAMPLE = sampleOf(["x1", "x2", "x3", "x4", "x5"]);
/** Three of COVID's documents and one that is not. */
const PARTLY_OUTSIDE_SAMPLE = sampleOf(["630", "1545", "1546", "x1"]);

const CASES: readonly Case[] = [
  // Files and formats.
  {
    name: "a file that does not exist",
    args: ["analyze", "missing.csv", "--metric", "score"],
    message: /^ragci: missing\.csv: cannot read it \(no such file\)/,
  },
  {
    name: "an unknown extension without --format",
    files: { "results.xyz": "a,b\n1,2\n" },
    args: ["analyze", "results.xyz", "--metric", "b"],
    message: /results\.xyz: cannot tell the format .* --format/,
  },
  {
    name: "a directory given as the input",
    files: { "runs/a.csv": "doc,hit\na,1\n" },
    args: ["analyze", "runs", "--metric", "hit"],
    message: /runs: is a directory; give the results file/,
  },
  {
    name: "an empty file (0 bytes)",
    files: { "empty.csv": "" },
    args: ["analyze", "empty.csv", "--metric", "hit"],
    message: /empty\.csv: the file is empty/,
  },
  {
    name: "a header and no rows",
    files: { "header-only.csv": "doc_id,hit\n" },
    args: ["analyze", "header-only.csv", "--metric", "hit"],
    message: /header-only\.csv: no rows/,
  },
  {
    name: "a row with too many fields",
    files: { "ragged.csv": "doc,hit\na,1\nb,0,3\nc,1\n" },
    args: ["analyze", "ragged.csv", "--metric", "hit"],
    message: /ragged\.csv line 3: 3 fields where the header has 2/,
  },
  {
    name: "a row with too few fields",
    files: { "short.csv": "doc,hit\na,1\nb,0\nc\nd,1\n" },
    args: ["analyze", "short.csv", "--metric", "hit"],
    message: /short\.csv line 4: 1 field where the header has 2/,
  },
  {
    name: "imitation: a CSV saved as UTF-16 little-endian with a byte-order mark",
    files: { "excel.csv": bytesFile("utf16le.csv", UTF16_LE) },
    args: ["analyze", "excel.csv", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: excel\.csv: the text is UTF-16 \(little-endian, with a byte-order mark\), and ragci reads UTF-8; convert it, e\.g\. `iconv -f UTF-16 -t UTF-8 excel\.csv > excel-utf8\.csv`, and give that\n$/,
  },
  {
    name: "imitation: a CSV saved as UTF-16 big-endian with a byte-order mark",
    files: { "be.csv": bytesFile("utf16be.csv", UTF16_BE) },
    args: ["analyze", "be.csv", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: be\.csv: the text is UTF-16 \(big-endian, with a byte-order mark\), and ragci reads UTF-8; convert it, e\.g\. `iconv -f UTF-16 -t UTF-8 be\.csv > be-utf8\.csv`, and give that\n$/,
  },
  {
    name: "imitation: a CSV in Latin-1 (café written as caf and the byte 0xE9, line 2)",
    files: { "latin1.csv": bytesFile("latin1.csv", Buffer.from(ENCODED_ROWS, "latin1")) },
    args: ["analyze", "latin1.csv", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: latin1\.csv line 2: has bytes that are not UTF-8 \(ragci reads UTF-8\); if it was saved as Latin-1 \(é as the one byte 0xE9\), convert it, e\.g\. `iconv -f LATIN1 -t UTF-8 latin1\.csv > latin1-utf8\.csv`, and give that\n$/,
  },
  {
    name: "imitation: a Latin-1 byte in line 24000, past DuckDB's sample of the file",
    files: {
      "late.csv": bytesFile(
        "late-latin1.csv",
        Buffer.from(ROWS_WITH_LATE_LINE(24_000, "café,q0,1"), "latin1"),
      ),
    },
    args: ["analyze", "late.csv", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: late\.csv line 24000: has bytes that are not UTF-8 \(ragci reads UTF-8\); if it was saved as Latin-1 \(é as the one byte 0xE9\), convert it, e\.g\. `iconv -f LATIN1 -t UTF-8 late\.csv > late-utf8\.csv`, and give that\n$/,
  },
  {
    name: "imitation: JSON Lines in Latin-1, café in line 1 (DuckDB says line 2)",
    files: {
      "latin1.jsonl": bytesFile(
        "latin1.jsonl",
        Buffer.from('{"doc":"café","hit":1}\n{"doc":"b","hit":0}\n{"doc":"c","hit":1}\n', "latin1"),
      ),
    },
    args: ["analyze", "latin1.jsonl", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: latin1\.jsonl line 1: has bytes that are not UTF-8 \(ragci reads UTF-8\); if it was saved as Latin-1 \(é as the one byte 0xE9\), convert it, e\.g\. `iconv -f LATIN1 -t UTF-8 latin1\.jsonl > latin1-utf8\.jsonl`, and give that\n$/,
  },
  {
    name: "a quote that opens a field and never closes (line 2)",
    files: { "open.csv": 'doc,query,hit\na,"b,1\nc,d,0\n' },
    args: ["analyze", "open.csv", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: open\.csv line 2: a field opens with a quote \("\) that is not closed right before the next delimiter or line end; close it there \(a quote inside a quoted field is written twice: ""\), or remove the opening quote\n$/,
  },
  {
    name: "a quoted field with text after its closing quote (line 3)",
    files: { "after.csv": 'doc,query,hit\na,b,1\nc,"d"x,0\ne,f,1\n' },
    args: ["analyze", "after.csv", "--doc", "doc", "--metric", "hit"],
    message: /^ragci: after\.csv line 3: a field opens with a quote \("\) that is not closed right/,
  },
  {
    name: "a quote left open in line 24000, past DuckDB's sample of the file",
    files: { "late-quote.csv": ROWS_WITH_LATE_LINE(24_000, 'd3,"q0,1') },
    args: ["analyze", "late-quote.csv", "--doc", "doc", "--metric", "hit"],
    message:
      /^ragci: late-quote\.csv line 24000: a field opens with a quote \("\) that is not closed right/,
  },
  {
    name: "a quote left open in line 24000, read with --trial (the facets' own pass)",
    files: { "trials.csv": TRIALS_WITH_LATE_OPEN_QUOTE },
    args: ANALYZE_TRIALS,
    message:
      /^ragci: trials\.csv line 24000: a field opens with a quote \("\) that is not closed right/,
  },
  {
    name: "a metric that is not a number in line 24000, read with --trial (the facets' own pass)",
    files: { "trials.csv": TRIALS_WITH_LATE_WORD },
    args: ANALYZE_TRIALS,
    message:
      /^ragci: trials\.csv line 24000: column hit has "abc", which is not a number; fix or remove the row\n$/,
  },
  {
    name: "a ragged row on stdin names stdin and the line, not a temporary path",
    args: ["analyze", "-", "--format", "csv", "--metric", "hit"],
    input: "doc,hit\na,1\nb,0,3\n",
    message: /^ragci: stdin line 3: 3 fields where the header has 2[^/]*$/,
  },
  {
    name: "a broken JSON line on stdin names stdin",
    args: ["analyze", "-", "--format", "jsonl", "--metric", "hit"],
    input: '{"doc":"a","hit":1}\n{"doc":"b",\n',
    message:
      /^ragci: stdin line 2: the last line is not complete JSON \(is the file cut off\?\); write the file again\n$/,
  },
  {
    name: "nothing on stdin",
    args: ["analyze", "-", "--format", "csv", "--metric", "hit"],
    input: "",
    message: /stdin: nothing was read from standard input/,
  },
  {
    name: "stdin without --format, whose format its content does not tell",
    args: ["analyze", "-", "--metric", "score"],
    input: "doc_id score\na 1\n",
    message:
      /^ragci: stdin: cannot tell the format from its content; name it with --format csv\|tsv\|jsonl\|parquet\n$/,
  },
  {
    name: "stdin named twice",
    args: ["analyze", "-", "-", "--format", "csv", "--metric", "score"],
    input: "doc_id,score\na,1\n",
    message: /stdin \(-\) can be read only once/,
  },
  {
    name: "a repeated column name",
    files: { "dup.csv": "doc,hit,hit\na,1,0\nb,0,1\nc,1,1\n" },
    args: ["analyze", "dup.csv", "--metric", "hit"],
    message: /dup\.csv line 1: column name "hit" appears twice \(columns 2 and 3\)/,
  },
  // Names equal ignoring case: DuckDB matches names ignoring case, so --metric hit5 read Hit5
  // and --doc doc_id read Doc_id, silently.
  {
    name: "two metric columns whose names differ only in case (aggregate)",
    files: { "casedup.csv": "doc_id,Hit5,hit5\na,1,1\nb,2,1\nc,3,0\n" },
    args: ["aggregate", "casedup.csv", "--metric", "hit5"],
    message:
      /^ragci: casedup\.csv line 1: columns "Hit5" \(column 2\) and "hit5" \(column 3\) differ only in case, and ragci's reader \(DuckDB\) matches column names ignoring case, so it cannot tell them apart; rename one of them\n$/,
  },
  {
    name: "two document columns whose names differ only in case",
    files: { "casedoc.csv": "Doc_id,doc_id,query_id,hit5\nX,a,1,1\nX,b,2,1\nX,c,3,0\n" },
    args: ["analyze", "casedoc.csv", "--doc", "doc_id", "--metric", "hit5"],
    message:
      /casedoc\.csv line 1: columns "Doc_id" \(column 1\) and "doc_id" \(column 2\) differ only in case/,
  },
  {
    name: "names that differ only in case in a TSV header",
    files: { "casedup.tsv": "doc_id\tHit5\thit5\na\t1\t1\nb\t2\t1\nc\t3\t0\n" },
    args: ["analyze", "casedup.tsv", "--metric", "hit5"],
    message:
      /casedup\.tsv line 1: columns "Hit5" \(column 2\) and "hit5" \(column 3\) differ only in case/,
  },
  {
    name: "JSON keys that differ only in case",
    files: {
      "casedup.jsonl":
        '{"doc_id":"a","Hit5":1,"hit5":1}\n{"doc_id":"b","Hit5":2,"hit5":1}\n{"doc_id":"c","Hit5":3,"hit5":0}\n',
    },
    args: ["analyze", "casedup.jsonl", "--metric", "hit5"],
    message:
      /^ragci: casedup\.jsonl: columns "Hit5" and "hit5" differ only in case, .*rename one of them\n$/,
  },
  {
    name: "Parquet columns that differ only in case (hand-made file)",
    files: { "casedup.parquet": CASE_ALIKE_PARQUET },
    args: ["aggregate", "casedup.parquet", "--metric", "hit5"],
    message:
      /^ragci: casedup\.parquet: columns "Hit5" and "hit5" differ only in case, .*rename one of them\n$/,
  },
  {
    name: "names that differ only in case in a gzip-compressed CSV header",
    files: { "casedup.csv.gz": { copy: CASE_ALIKE_GZ } },
    args: ["analyze", "casedup.csv.gz", "--metric", "hit5"],
    message:
      /^ragci: casedup\.csv\.gz line 1: columns "Hit5" \(column 2\) and "hit5" \(column 3\) differ only in case/,
  },
  {
    name: "a per-document table whose names differ only in case (--aggregated)",
    files: { "agg.csv": "doc,n,s,S\na,3,2,1\nb,2,1,1\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv line 1: columns "s" \(column 3\) and "S" \(column 4\) differ only in case/,
  },
  {
    name: "an unknown --format, answered with the tables' and the tools' formats analyze reads",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--format", "xlsx", "--metric", "score"],
    message:
      /^ragci: --format xlsx: give csv, tsv, jsonl, parquet, or a tool's output: promptfoo, inspect, deepeval, braintrust, evalite, trec_eval, trec-run, run-json, run-jsonl\n$/,
  },
  {
    name: "a tool's --format where only tables are read (simulate --format promptfoo)",
    files: { "covid.csv": COVID },
    args: ["simulate", "covid.csv", ...BM25, "--format", "promptfoo"],
    message:
      /^ragci: --format promptfoo: give csv, tsv, jsonl or parquet; a tool's output is read by analyze, compare and aggregate \(ragci aggregate writes its per-document table, read here with --aggregated\)\n$/,
  },
  // A tool's output without --format where only tables are read: refused before DuckDB reads
  // it as a table (it said "Malformed JSON"), with the commands to run instead.
  ...(["plan", "strata", "simulate"] as const).map((command) => ({
    name: `promptfoo's output given to ${command} without --format`,
    files: { "results.json": PROMPTFOO },
    args: [command, "results.json", "--metric", "hit5", ...TABLE_ONLY_ARGS[command]],
    message: new RegExp(
      `^ragci: results\\.json: promptfoo's output; ${command} reads results tables only \\(CSV, TSV, JSONL, Parquet\\): write its per-document table with \`ragci aggregate results\\.json --doc … --metric … -o perdoc\\.csv\`, then run \`ragci ${command} perdoc\\.csv --aggregated\` \\(if it is a results table in JSON lines, say so with --format jsonl\\)\n$`,
    ),
  })),
  {
    name: "Inspect's log given to a faceted simulate (--judge) without --format",
    files: { "log.json": { copy: join(REAL_TOOLS, "inspect/log_formats.json") } },
    args: ["simulate", "log.json", "--judge", "scorer", "--k", "2"],
    message:
      /^ragci: log\.json: inspect's output; simulate reads results tables only \(CSV, TSV, JSONL, Parquet\), and with --trial, --judge or --variant one row per evaluation with the facet's column; ragci analyze and compare read the tool's output with its facets \(if it is a results table in JSON lines, say so with --format jsonl\)\n$/,
  },
  {
    name: "promptfoo's output given to merge without --format",
    files: { "results.json": PROMPTFOO },
    args: ["merge", "results.json"],
    message:
      /^ragci: results\.json: promptfoo's output; merge adds per-document tables only: write one with `ragci aggregate results\.json --doc … --metric … -o perdoc\.csv`, then merge the tables \(if it is a results table in JSON lines, say so with --format jsonl\)\n$/,
  },
  // --aggregated asks for a per-document table: a tool's output named as a file was sent to
  // DuckDB and failed as "Malformed JSON" (a pipe's copy was refused as here).
  ...(["analyze", "compare"] as const).map((command) => ({
    name: `promptfoo's output given to ${command} --aggregated without --format`,
    files: { "results.json": PROMPTFOO },
    args: [command, "results.json", "--aggregated", "--metric", "hit5"],
    message:
      /^ragci: results\.json: promptfoo's output; a per-document table \(CSV, TSV, JSONL, Parquet\) is read here: write one with `ragci aggregate results\.json --doc … --metric … -o perdoc\.csv` and give that \(if it is a results table in JSON lines, say so with --format jsonl\)\n$/,
  })),
  {
    name: "an unknown --format where only tables are read (merge --format xlsx)",
    files: { "agg.csv": "doc,n,s\na,2,1\n" },
    args: ["merge", "agg.csv", "--format", "xlsx"],
    message: /^ragci: --format xlsx: give csv, tsv, jsonl or parquet\n$/,
  },
  // Columns.
  {
    name: "a missing metric column",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "hit"],
    message: /k5\.csv: no metric column "hit"; the columns are doc_id, query_id, score/,
  },
  {
    name: "a missing document column",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--doc", "article", "--metric", "score"],
    message: /no document column "article"/,
  },
  {
    name: "an ambiguous column",
    files: { "ambiguous.csv": "doc_id,Hit_5,hit5\na,1,1\nb,0,0\n" },
    args: ["analyze", "ambiguous.csv", "--metric", "hit@5"],
    message: /"hit@5" matches several columns \(Hit_5, hit5\)/,
  },
  {
    name: "a metric not named when several are numeric",
    files: { "many.csv": "doc_id,hit1,hit5\na,1,1\nb,0,1\n" },
    args: ["analyze", "many.csv"],
    message: /name the metric with --metric \(numeric columns: hit1, hit5\)/,
  },
  {
    name: "the document column named as the metric",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "doc_id"],
    message: /column doc_id cannot be both a metric and an id/,
  },
  // Values.
  {
    name: "a non-numeric metric",
    files: { "text.csv": "doc_id,hit\na,1\nb,0\nc,yes\n" },
    args: ["analyze", "text.csv", "--metric", "hit"],
    message: /text\.csv line 4: column hit has "yes", which is not a number/,
  },
  {
    name: "an empty metric value",
    files: { "empty-value.csv": "doc_id,hit\na,1\nb,\nc,0\n" },
    args: ["analyze", "empty-value.csv", "--metric", "hit"],
    message: /empty-value\.csv line 3: column hit is empty or not a number; every result needs/,
  },
  {
    name: "NaN metrics",
    files: { "nan.csv": "doc_id,hit\na,1\nb,0\nc,nan\nd,NaN\n" },
    args: ["analyze", "nan.csv", "--metric", "hit"],
    message:
      /nan\.csv line 4: column hit is NaN; every result needs a finite value \(and 1 more row\)/,
  },
  {
    name: "an infinite metric",
    files: { "inf.csv": "doc_id,score\na,1\nb,inf\nc,0\n" },
    args: ["analyze", "inf.csv", "--metric", "score"],
    message: /inf\.csv line 3: column score is infinite \(inf\); every result needs/,
  },
  {
    name: "an empty document id",
    files: { "noid.csv": "doc_id,hit\na,1\n,0\nc,0\n" },
    args: ["analyze", "noid.csv", "--metric", "hit"],
    message: /noid\.csv line 3: column doc_id is empty/,
  },
  {
    name: "one document",
    files: { "one.csv": "doc_id,hit\na,1\na,0\n" },
    args: ["analyze", "one.csv", "--metric", "hit"],
    message: /1 document found; a standard error needs at least 2 documents/,
  },
  // Aggregated input.
  {
    name: "n_d ≤ 0 in aggregated input",
    files: { "agg.csv": "doc,n,s\na,3,1\nb,0,0\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv line 3: column n must be a whole number of results ≥ 1/,
  },
  {
    name: "a fractional n_d in aggregated input",
    files: { "agg.csv": "doc,n,s\na,2.5,1\nb,2,1\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv line 2: column n must be a whole number of results ≥ 1/,
  },
  {
    name: "s > n in binary aggregated input",
    files: { "agg.csv": "doc,n,s\na,3,1\nb,2,5\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv: document "b" has s = 5 with n = 2/,
  },
  {
    name: "a negative sum of squares",
    files: { "agg.csv": "doc,n,s,ss\na,3,2,-1\nb,4,2,2\nc,2,1,1\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv: document "a" has ss = -1: a sum of squares cannot be negative/,
  },
  {
    name: "ss below s²/n (no values have these sums)",
    files: { "agg.csv": "doc,n,s,ss\na,3,1.5,1\nb,4,2,0.5\nc,2,1,1\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv: document "b" has ss = 0\.5 below s²\/n = 1 \(s = 2, n = 4\)/,
  },
  {
    name: "an aggregated table without s",
    files: { "agg.csv": "doc,n\na,3\nb,2\n" },
    args: ["analyze", "agg.csv", "--aggregated"],
    message: /agg\.csv: no sum \(s\) column "s"; the columns are doc, n/,
  },
  // A per-document table holds one row per document: a document listed twice was added
  // silently (ragci merge is what adds shards' tables).
  ...(["analyze", "plan", "strata", "simulate"] as const).map((command) => ({
    name: `a document on two rows of a per-document table (${command} --aggregated)`,
    files: { "ag_dup.csv": "doc,n,s\na,3,2\nb,2,1\nc,4,4\nd,2,0\na,3,2\n" },
    args: [
      command,
      "ag_dup.csv",
      "--aggregated",
      ...(command === "analyze" ? [] : TABLE_ONLY_ARGS[command]),
    ],
    message:
      /^ragci: ag_dup\.csv: document "a" is on 2 rows; a per-document table has one row per document: to add shards' tables, use ragci merge\n$/,
  })),
  {
    name: "a document on two rows of compare --write-aggregates' table",
    files: {
      "paired.csv": [
        "system,metric,doc,n,s,ss",
        "bm25,hit5,a,2,1,1",
        "bm25,hit5,b,2,2,2",
        "tfidf,hit5,a,2,2,2",
        "tfidf,hit5,b,2,1,1",
        "tfidf - bm25,hit5,a,2,1,1",
        "tfidf - bm25,hit5,b,2,-1,1",
        "tfidf,hit5,b,2,1,1",
      ].join("\n"),
    },
    args: ["compare", "paired.csv", "--aggregated", "--metric", "hit5"],
    message:
      /^ragci: paired\.csv: document "b" \(system tfidf, metric hit5\) is on 2 rows; a per-document table has one row per document: to add shards' tables, use ragci merge\n$/,
  },
  // A census study speaks for a sample drawn from the census's documents; a sample of other
  // documents ran and reported a coverage.
  {
    name: "analyze --census whose census holds none of the sample's documents",
    files: { "sample.csv": OUTSIDE_SAMPLE, "census.csv": COVID },
    args: ["analyze", "sample.csv", "--census", "census.csv", ...BM25],
    message:
      /^ragci: --census census\.csv: 5 of the sample's 5 documents \(system bm25, metric hit5\) are not in it \("x1", "x2", "x3", …\); the census must hold every document of the population the sample was drawn from: give that census, with the same document column and ids as the sample\n$/,
  },
  {
    name: "compare --census whose census lacks one of the sample's documents",
    files: { "sample.csv": PARTLY_OUTSIDE_SAMPLE, "census.csv": COVID },
    args: [
      "compare",
      "sample.csv",
      "--census",
      "census.csv",
      "--system",
      "system",
      "--metric",
      "hit5",
    ],
    message:
      /^ragci: --census census\.csv: 1 of the sample's 4 documents \(tfidf − bm25, metric hit5\) is not in it \("x1"\); the census must hold every document/,
  },
  // Options.
  {
    name: "M < K",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--population", "4"],
    message: /population size M = 4 is smaller than the 5 documents/,
  },
  {
    name: "a fractional population",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--population", "1.5"],
    message: /--population 1\.5: give M, the whole number of documents/,
  },
  {
    name: "a level of 95",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--level", "95"],
    message: /--level 95: give a confidence level between 0 and 1/,
  },
  {
    name: "a level of 0",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--level", "0"],
    message: /--level 0: give a confidence level between 0 and 1/,
  },
  {
    name: "an unknown estimand",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--estimand", "mean"],
    message: /--estimand mean: use micro .* or macro/,
  },
  {
    name: "an unknown option points to the subcommand's help",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metrics", "score"],
    message:
      /unknown option '--metrics' \(Did you mean --metric\?\) \(see ragci analyze --help\)\n$/,
  },
  {
    name: "an unknown command",
    args: ["analyse", "k5.csv"],
    message: /unknown command 'analyse' \(Did you mean analyze\?\) \(see ragci --help\)\n$/,
  },
  {
    name: "help for a command that does not exist (it printed nothing and exited 0)",
    args: ["help", "analyse"],
    message: /^ragci: unknown command 'analyse' \(Did you mean analyze\?\) \(see ragci --help\)\n$/,
  },
  {
    name: "two files that would be one system (a/run.csv, b/run.csv): refused, not pooled",
    files: { "a/run.csv": K5, "b/run.csv": K5 },
    args: ["compare", "a/run.csv", "b/run.csv", "--metric", "score"],
    message:
      /^ragci: a\/run\.csv and b\/run\.csv would both be system "run" \(one file per system is named after its file\): rename one, or give one file with a system column\n$/,
  },
  {
    name: "one file per system with --system naming a column (it was ignored)",
    files: { "x.csv": K5, "y.csv": K5 },
    args: ["compare", "x.csv", "y.csv", "--metric", "score", "--system", "nope"],
    message:
      /^ragci: --system nope: with one file per system each file's system is its name \(x, y\), not a column's; leave --system out\n$/,
  },
  {
    name: "one file per system with --system naming systems no file is (it said 'no rows')",
    files: { "x.csv": K5, "y.csv": K5 },
    args: ["compare", "x.csv", "y.csv", "--metric", "score", "--system", "system=bm25,tfidf"],
    message:
      /^ragci: --system: with one file per system the systems are the files' names \(x, y\), and bm25, tfidf are none of them; name those, or leave --system out\n$/,
  },
  {
    name: "--qrels on a results table (it was ignored: the flag is for tools' outputs)",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--qrels", "qrels.txt"],
    message:
      /^ragci: k5\.csv: is a results table, not an evaluation tool's output, and --qrels applies only to tools' outputs \(docs\/inputs\.md\); leave it out, or name the tool with --format\n$/,
  },
  {
    name: "--complete-queries on two results tables (it was ignored)",
    files: { "x.csv": K5, "y.csv": K5 },
    args: ["compare", "x.csv", "y.csv", "--metric", "score", "--complete-queries"],
    message:
      /^ragci: x\.csv: is a results table, .* --complete-queries applies only to tools' outputs/,
  },
  {
    name: "simulate --k 5,5 (it ran the same study twice)",
    files: { "k5.csv": K5 },
    args: ["simulate", "k5.csv", "--metric", "score", "--k", "2,2", "--reps", "5"],
    message: /^ragci: --k 2,2: 2 is given twice; give each once\n$/,
  },
  {
    name: "plan --cost pricing one unit twice (the last price was used)",
    args: [
      "plan",
      "--sd",
      "0.2",
      "--half-width",
      "0.05",
      "--cost",
      "document=20,document=3,query=1,trial=0,judge=0",
    ],
    message:
      /^ragci: --cost document=20,document=3,query=1,trial=0,judge=0: document is priced twice; give each unit once\n$/,
  },
  {
    name: "simulate --allocation without stratified sampling (it was ignored)",
    files: { "k5.csv": K5 },
    args: [
      "simulate",
      "k5.csv",
      "--metric",
      "score",
      "--k",
      "2",
      "--reps",
      "5",
      "--allocation",
      "equal",
    ],
    message: /^ragci: --allocation belongs to --sampling stratified\n$/,
  },
  {
    name: "aggregate --label naming a column the table already has (its header repeated n)",
    files: { "k5.csv": K5 },
    args: ["aggregate", "k5.csv", "--metric", "score", "--label", "n"],
    message:
      /^ragci: --label n: the per-document table already has a column n \(system, metric, doc, n, s, ss, min, max\); keep a column of another name\n$/,
  },
  {
    name: "a shard without the system column beside one with it (it became an unnamed system)",
    files: {
      "a.csv": "doc,query,system,hit\nd1,q1,x,1\nd2,q2,x,0\n",
      "b.csv": "doc,query,hit\nd2,q3,1\nd3,q4,0\n",
    },
    args: ["analyze", "a.csv", "b.csv", "--metric", "hit"],
    message:
      /^ragci: b\.csv: has no system column, while a\.csv has one \(system\); the shards of one evaluation need the same columns: add the column, or analyse the files apart\n$/,
  },
  {
    name: "values so large their sum of squares overflows: the file, the metric and what to do",
    files: { "big.csv": "doc,hit\na,1e200\na,1e200\nb,1\nc,2\n" },
    args: ["analyze", "big.csv", "--metric", "hit"],
    message:
      /^ragci: big\.csv: hit: document "a" has a non-finite sum \(s = 2e\+200, ss = Infinity\); its values are too large for their sums and sums of squares to be doubles: rescale hit \(e\.g\. to other units\)\n$/,
  },
  {
    name: "plan --power without --difference (it was ignored)",
    args: ["plan", "--sd", "0.2", "--half-width", "0.05", "--power", "0.9"],
    message:
      /^ragci: --power 0\.9 is the power to detect a difference: give the difference too \(--difference\)\n$/,
  },
  {
    name: "a blank judge label (it was counted as one more judge)",
    files: {
      "judges.csv":
        "doc,query,judge,found\na,q1,j1,1\na,q1, ,0\nb,q2,j1,1\nb,q2,j2,1\nc,q3,j1,0\nc,q3,j2,1\n",
    },
    args: [
      "analyze",
      "judges.csv",
      "--doc",
      "doc",
      "--query",
      "query",
      "--judge",
      "judge",
      "--metric",
      "found",
    ],
    message:
      /^ragci: judges\.csv: document a, query q1: a row has no label in the judge or variant column \(empty or blank\); every row needs one\n$/,
  },
  {
    name: "--replicates 1e12 states the bound instead of an internal error",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--replicates", "1e12"],
    message:
      /--replicates 1e12: give a whole number from 0 to 1,000,000 \(more replicates need more memory/,
  },
  {
    name: "--replicates 1e8 is refused before it takes gigabytes",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--replicates", "1e8"],
    message: /--replicates 1e8: give a whole number from 0 to 1,000,000/,
  },
  {
    name: "simulate --reps 1e12 states the bound instead of an internal error",
    files: { "k5.csv": K5 },
    args: ["simulate", "k5.csv", "--metric", "score", "--k", "2", "--reps", "1e12"],
    message: /^ragci: --reps 1e12: give whole numbers ≥ 1, at most 1,000,000\n$/,
  },
  {
    name: "--census-reps 1e9 is refused before a study that would not end",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--census", "k5.csv", "--census-reps", "1e9"],
    message: /^ragci: --census-reps 1e9: give a whole number ≥ 0, at most 1,000,000\n$/,
  },
  {
    name: "a seed past 2⁵³ − 1 is told the largest, not that it is no whole number",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--seed", "9007199254740993"],
    message:
      /^ragci: --seed 9007199254740993: give a whole number ≥ 0, at most 9,007,199,254,740,991\n$/,
  },
  {
    name: "a paired plan with a query one system lacks: no --intersect offered where there is none",
    files: {
      "pair.csv":
        "doc,query,system,hit\na,1,x,1\na,1,y,0\na,2,x,1\nb,3,x,0\nb,3,y,1\nc,4,x,1\nc,4,y,1\n",
    },
    args: ["plan", "pair.csv", "--metric", "hit", "--system", "system=x,y", "--difference", "0.1"],
    message:
      /^ragci: pair\.csv: query 2 has a result for x but not for y; x has 1 query missing from another system\. A pair needs both systems' result for every query here: remove the unpaired queries from the file \(ragci compare --intersect keeps the common ones\)\n$/,
  },
  {
    name: "--replicates 1 is too few for a 95% interval's tails (it gave 0-wide intervals)",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--replicates", "1"],
    message:
      /^ragci: --replicates 1 is too few for 95% bootstrap intervals: each 2\.5% tail needs a replicate beyond its end; give B ≥ 39 \(999 or more for stable ends\), or 0 to turn resampling off\n$/,
  },
  {
    name: "simulate --replicates 100 at --level 0.99 is too few for its tails",
    files: { "k5.csv": K5 },
    args: [
      "simulate",
      "k5.csv",
      "--metric",
      "score",
      "--k",
      "3",
      "--replicates",
      "100",
      "--level",
      "0.99",
    ],
    message:
      /^ragci: --replicates 100 is too few for 99% bootstrap intervals: each 0\.5% tail needs a replicate beyond its end; give B ≥ 199 \(999 or more for stable ends\), or 0 to turn resampling off\n$/,
  },
  {
    name: "a negative --replicates",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--replicates", "-1"],
    message: /--replicates -1: give a whole number/,
  },
  {
    name: "a word for --replicates",
    files: { "k5.csv": K5 },
    args: ["compare", "k5.csv", "k5.csv", "--metric", "score", "--replicates", "many"],
    message: /--replicates many: not a number; give a whole number from 0 to 1,000,000\n$/,
  },
  // Numeric flags: each kind of number refuses what is not one (Number() read "abc" as NaN,
  // "0x10" as 16 and "" as 0).
  {
    name: "a whole-number flag given a word (--threads abc)",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--threads", "abc"],
    message: /^ragci: --threads abc: not a number; give a whole number ≥ 1\n$/,
  },
  {
    name: "simulate's --seed reads as every other --seed (0x10 is not a number)",
    files: { "covid.csv": COVID },
    args: ["simulate", "covid.csv", ...BM25, "--k", "5", "--seed", "0x10"],
    message: /^ragci: --seed 0x10: not a number; give a whole number ≥ 0\n$/,
  },
  {
    name: "a number-≥-0 flag given a word (strata --cutoff abc, once NaN)",
    files: { "covid.csv": COVID },
    args: ["strata", "covid.csv", ...BM25, "--documents", "20", "--cutoff", "abc"],
    message: /^ragci: --cutoff abc: not a number; give a number ≥ 0\n$/,
  },
  {
    name: "simulate --sampling stratified --cutoff abc says it is not a number",
    files: { "covid.csv": COVID },
    args: ["simulate", "covid.csv", ...BM25, "--sampling", "stratified", "--cutoff", "abc"],
    message: /^ragci: --cutoff abc: not a number; give a number ≥ 0\n$/,
  },
  {
    name: "a positive-number flag given blanks (plan --half-width ' ', once 0)",
    args: ["plan", "--sd", "0.2", "--half-width", " "],
    message: /^ragci: --half-width {2}: not a number; give a positive number\n$/,
  },
  {
    name: "a signed-number flag given a word (plan --difference abc)",
    args: ["plan", "--sd", "0.2", "--difference", "abc"],
    message: /^ragci: --difference abc: not a number; give a non-zero number, e\.g\. 0\.03\n$/,
  },
  {
    name: "a level given a word with a percent sign (--level 95%x)",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--level", "95%x"],
    message:
      /^ragci: --level 95%x: not a number; give a confidence level between 0 and 1, e\.g\. 0\.95 or 90%\n$/,
  },
  {
    name: "a probability given a word (plan --power high)",
    args: ["plan", "--sd", "0.2", "--difference", "0.1", "--power", "high"],
    message:
      /^ragci: --power high: not a number; give a power between 0\.5 and 1, e\.g\. 0\.8 or 80%\n$/,
  },
  {
    name: "a negative seed",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--seed", "-3"],
    message: /--seed -3: give a whole number ≥ 0/,
  },
  {
    name: "zero DuckDB threads",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--threads", "0"],
    message: /--threads 0: give a whole number ≥ 1/,
  },
  {
    name: "--json with --markdown",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--json", "--markdown"],
    message: /choose one of --json and --markdown/,
  },
  {
    name: "a system that is not in the file",
    files: { "covid.csv": COVID },
    args: ["analyze", "covid.csv", "--metric", "hit5", "--system", "system=bm2"],
    message: /covid\.csv: no system "bm2" in column system \(found bm25, tfidf\)/,
  },
  {
    name: "--system with no column",
    files: { "covid.csv": COVID },
    args: ["analyze", "covid.csv", "--metric", "hit5", "--system", "=bm25"],
    message: /--system =bm25: give COLUMN, COLUMN=VALUE or COLUMN=A,B/,
  },
  {
    name: "a system named twice",
    files: { "covid.csv": COVID },
    args: ["compare", "covid.csv", "--metric", "hit5", "--system", "system=bm25,bm25"],
    message: /--system system=bm25,bm25: name each system once/,
  },
  {
    name: "--stratum without a design",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--stratum", "size"],
    message: /--stratum, --psu and --lonely-psu belong to a design/,
  },
  {
    name: "an unknown lonely-PSU rule",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--lonely-psu", "drop"],
    message: /--lonely-psu drop: use one of fail, remove, adjust, average, certainty/,
  },
  {
    name: "a design file that does not exist",
    files: { "k5.csv": K5 },
    args: ["analyze", "k5.csv", "--metric", "score", "--design", "nope.json"],
    message: /nope\.json: cannot read the design/,
  },
  // A design file's unknown keys were ignored: a misspelt "population_documents" gave no fpc.
  {
    name: "a design file with a misspelt key (population_docs)",
    files: { "k5.csv": K5, "srs.json": '{"design": "srs", "population_docs": 500}' },
    args: ["analyze", "k5.csv", "--metric", "score", "--design", "srs.json"],
    message:
      /^ragci: srs\.json: unknown key "population_docs" \(did you mean "population_documents"\?\); a design file's keys are "design", "population_documents", /,
  },
  {
    name: "a design file with lonely-psu for lonely_psu",
    files: {
      "t.csv": TWO_STAGE,
      "strata.json": '{"design": "stratified", "strata": {"a": 3}, "lonely-psu": "adjust"}',
    },
    args: ["compare", "t.csv", "--metric", "score", "--design", "strata.json"],
    message: /^ragci: strata\.json: unknown key "lonely-psu" \(did you mean "lonely_psu"\?\)/,
  },
  // Outputs that would destroy data or each other (more spellings in outputSafety.test.ts).
  {
    name: "-o onto the input",
    files: { "x.csv": K5 },
    args: ["analyze", "x.csv", "--metric", "score", "-o", "x.csv"],
    message: /-o x\.csv: is the same file as the input x\.csv; ragci never overwrites its input/,
  },
  {
    name: "--write-aggregates onto the input through ./sub/..",
    files: { "x.csv": K5, "sub/keep.txt": "" },
    args: ["analyze", "x.csv", "--metric", "score", "--write-aggregates", "./sub/../x.csv"],
    message: /--write-aggregates \.\/sub\/\.\.\/x\.csv: is the same file as the input x\.csv/,
  },
  {
    name: "--write-aggregates with an unknown extension",
    files: { "x.csv": K5 },
    args: ["analyze", "x.csv", "--metric", "score", "--write-aggregates", "perdoc.txt"],
    message: /--write-aggregates perdoc\.txt: the name must end in \.csv or \.parquet/,
  },
  {
    name: "-o and --write-aggregates naming one file",
    files: { "x.csv": K5 },
    args: [
      "analyze",
      "x.csv",
      "--metric",
      "score",
      "-o",
      "out.csv",
      "--write-aggregates",
      "./out.csv",
    ],
    message:
      /--write-aggregates \.\/out\.csv: is also the file of -o out\.csv; give each output its own file/,
  },
  {
    name: "-o into a directory that does not exist",
    files: { "x.csv": K5 },
    args: ["analyze", "x.csv", "--metric", "score", "-o", "reports/today.txt"],
    message: /-o reports\/today\.txt: directory .*reports does not exist/,
  },
  {
    name: "-o naming a directory",
    files: { "x.csv": K5, "reports/keep.txt": "" },
    args: ["analyze", "x.csv", "--metric", "score", "-o", "reports"],
    message: /-o reports: is a directory; give a file name/,
  },
  {
    name: "-o onto the design file",
    files: { "t.csv": TWO_STAGE, "t.design.json": TWO_STAGE_DESIGN },
    args: [
      "analyze",
      "t.csv",
      "--metric",
      "score",
      "--design",
      "t.design.json",
      "-o",
      "t.design.json",
    ],
    message: /-o t\.design\.json: is the same file as the input t\.design\.json/,
  },
  // compare.
  {
    name: "compare without --metric",
    files: { "covid.csv": COVID },
    args: ["compare", "covid.csv", "--system", "system"],
    message: /name the metric\(s\) to compare with --metric/,
  },
  {
    name: "compare with one system",
    files: { "k5.csv": K5, "sys.csv": "doc_id,query_id,system,hit\na,q1,bm25,1\nb,q2,bm25,0\n" },
    args: ["compare", "sys.csv", "--system", "system", "--metric", "hit"],
    message: /sys\.csv: found 1 system \(bm25\); a comparison needs at least two/,
  },
  {
    name: "compare with --baseline and --all-pairs",
    files: { "covid.csv": COVID },
    args: [
      "compare",
      "covid.csv",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--baseline",
      "bm25",
      "--all-pairs",
    ],
    message: /choose one of --baseline and --all-pairs/,
  },
  {
    name: "compare with one system picked",
    files: { "covid.csv": COVID },
    args: ["compare", "covid.csv", "--system", "system=bm25", "--metric", "hit5"],
    message: /--system system=bm25: a comparison needs two systems or more/,
  },
  {
    name: "compare -o onto an input",
    files: { "covid.csv": COVID },
    args: ["compare", "covid.csv", "--system", "system", "--metric", "hit5", "-o", "covid.csv"],
    message: /-o covid\.csv: is the same file as the input covid\.csv/,
  },
  {
    name: "compare --json with --markdown",
    files: { "covid.csv": COVID },
    args: [
      "compare",
      "covid.csv",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--json",
      "--markdown",
    ],
    message: /choose one of --json and --markdown/,
  },
  // plan.
  {
    name: "plan --curve with invalid values",
    args: ["plan", "--sd", "0.2", "--half-width", "0.05", "--curve", "0,-3,abc"],
    message: /--curve 0: each K must be a whole number of documents ≥ 2/,
  },
  {
    name: "plan --curve past the population",
    args: [
      "plan",
      "--sd",
      "0.2",
      "--half-width",
      "0.05",
      "--population",
      "100",
      "--curve",
      "10,200",
    ],
    message: /--curve 200: more than the population's 100 documents/,
  },
  {
    name: "plan without a target",
    args: ["plan", "--sd", "0.2"],
    message: /give --half-width w \(or --difference d for a paired plan\)/,
  },
  {
    name: "plan with a file and --sd",
    files: { "covid.csv": COVID },
    args: ["plan", "covid.csv", ...BM25, "--sd", "0.2", "--half-width", "0.05"],
    message: /give either a file or --sd, not both/,
  },
  {
    name: "plan --census without a file",
    args: ["plan", "--census", "--half-width", "0.05", "--sd", "0.2"],
    message: /--census needs the census file/,
  },
  {
    name: "plan --half-width 0",
    args: ["plan", "--sd", "0.2", "--half-width", "0"],
    message: /--half-width 0: give a positive number/,
  },
  {
    name: "plan with a power below 0.5",
    args: ["plan", "--sd", "0.2", "--difference", "0.1", "--power", "0.3"],
    message: /^ragci: --power 0\.3: give a power between 0\.5 and 1, e\.g\. 0\.8 or 80%\n$/,
  },
  {
    name: "plan -o onto the pilot",
    files: { "covid.csv": COVID },
    args: ["plan", "covid.csv", ...BM25, "--half-width", "0.05", "-o", "covid.csv"],
    message: /-o covid\.csv: is the same file as the input covid\.csv/,
  },
  {
    name: "plan --json with --markdown",
    args: ["plan", "--sd", "0.2", "--half-width", "0.05", "--json", "--markdown"],
    message: /choose one of --json and --markdown/,
  },
  // strata.
  {
    name: "strata with too few documents to sample",
    files: { "covid.csv": COVID },
    args: ["strata", "covid.csv", ...BM25, "--documents", "2"],
    message: /^ragci: --documents 2: give a whole number ≥ 4 \(two strata of two\)\n$/,
  },
  {
    name: "strata on a census of one document (it asked for between 4 and 1)",
    files: { "one.csv": "doc,n,s\na,3,1\n" },
    args: ["strata", "one.csv", "--aggregated", "--documents", "4"],
    message:
      /^ragci: one\.csv: a census of 1 document cannot be split into two strata of two sampled documents each \(4 at least\); stratifying needs a larger census\n$/,
  },
  {
    name: "strata with an unknown allocation",
    files: { "covid.csv": COVID },
    args: ["strata", "covid.csv", ...BM25, "--documents", "20", "--allocation", "optimal"],
    message: /--allocation optimal: use equal, proportional or neyman/,
  },
  {
    name: "strata --write-sample onto the census",
    files: { "covid.csv": COVID },
    args: ["strata", "covid.csv", ...BM25, "--documents", "20", "--write-sample", "covid.csv"],
    message: /--write-sample covid\.csv: is the same file as the input covid\.csv/,
  },
  {
    name: "strata -o and --write-sample naming one file",
    files: { "covid.csv": COVID },
    args: [
      "strata",
      "covid.csv",
      ...BM25,
      "--documents",
      "20",
      "-o",
      "s.csv",
      "--write-sample",
      "s.csv",
    ],
    message: /--write-sample s\.csv: is also the file of -o s\.csv/,
  },
  {
    name: "strata on a file of two systems without --system",
    files: { "covid.csv": COVID },
    args: ["strata", "covid.csv", "--metric", "hit5", "--documents", "20"],
    message:
      /2 systems in column system \(bm25, tfidf\); strata uses one: pick it with --system system=bm25/,
  },
  {
    name: "strata with a cutoff that empties a stratum",
    files: { "covid.csv": COVID },
    args: ["strata", "covid.csv", ...BM25, "--documents", "20", "--cutoff", "1000"],
    message:
      /^ragci: --cutoff 1000: a stratum would hold no document \(sizes run from 1 to 113 results, and 1 document has the largest\); give a cutoff from the smallest size up to below the largest, or leave it out and one is proposed\n$/,
  },
  // Tools' outputs that are damaged or slightly off (hand-made imitations from real outputs).
  {
    name: "imitation: damaged Inspect log (log_formats.eval, bytes 700–759 inverted)",
    files: {
      "copy.eval": { copy: join(REAL_TOOLS, "inspect/log_formats.eval"), invert: [700, 760] },
    },
    args: ["analyze", "copy.eval", "--doc", "id", "--metric", "match"],
    message:
      /^ragci: copy\.eval: the \.eval log is damaged: member samples\/1_epoch_1\.json does not decompress \([^()\n]+\); re-run the eval \(or copy the log again, if it was damaged on the way\)\n$/,
  },
  {
    name: "imitation: TREC run, score abc on line 4 (run.txt edited)",
    files: {
      "run.txt": readFileSync(join(REAL_TOOLS, "trec_eval/run.txt"), "utf8").replace(
        /^((?:.*\n){3}\S+ Q0 \S+ 4) 2\.5 /,
        "$1 abc ",
      ),
      "qrels.txt": { copy: join(REAL_TOOLS, "trec_eval/qrels.txt") },
      "doc-map.csv": { copy: join(REAL_TOOLS, "trec_eval/doc-map.csv") },
    },
    args: ["analyze", "run.txt", "--qrels", "qrels.txt", "--doc-map", "doc-map.csv"],
    message:
      /^ragci: run\.txt line 4: score abc is not a number; the fifth field of a TREC run line is the score\n$/,
  },
  {
    name: "imitation: --format trec-run on a table, its first line named",
    files: {
      "t.txt": "doc hit\na 1\nb 0\n",
      "qrels.txt": { copy: join(REAL_TOOLS, "trec_eval/qrels.txt") },
      "doc-map.csv": { copy: join(REAL_TOOLS, "trec_eval/doc-map.csv") },
    },
    args: [
      "analyze",
      "t.txt",
      "--format",
      "trec-run",
      "--qrels",
      "qrels.txt",
      "--doc-map",
      "doc-map.csv",
    ],
    message:
      /^ragci: t\.txt line 1: a TREC run line has 6 fields \(query Q0 document rank score tag\), this one 2; check --format \(or leave it out to detect the tool\)\n$/,
  },
  {
    name: "imitation: promptfoo results.jsonl cut off in line 11",
    files: { "results.jsonl": PROMPTFOO_JSONL_CUT },
    args: ["analyze", "results.jsonl", "--doc", "metadata.doc", "--metric", "hit5"],
    message:
      /^ragci: results\.jsonl line 11: the last line is not complete JSON \(is the file cut off\?\); write the file again\n$/,
  },
  {
    name: "imitation: the cut results.jsonl with --format promptfoo",
    files: { "results.jsonl": PROMPTFOO_JSONL_CUT },
    args: ["analyze", "results.jsonl", "--format", "promptfoo", "--doc", "metadata.doc"],
    message:
      /^ragci: results\.jsonl line 11: the last line is not complete JSON \(is the file cut off\?\); write the file again\n$/,
  },
  {
    name: "--format promptfoo on a CSV (promptfoo's input table)",
    files: { "retrieval.csv": { copy: join(REAL_TOOLS, "promptfoo/retrieval.csv") } },
    args: ["analyze", "retrieval.csv", "--format", "promptfoo", "--doc", "metadata.doc"],
    message:
      /^ragci: retrieval\.csv: not JSON, and ragci reads promptfoo's JSON output \(-o results\.json or \.jsonl; its CSV export has no test index and no metadata column, so neither the pairing nor the document can be read from it\); write the results with -o results\.json, or check --format\n$/,
  },
  ...(
    [
      ["one line", JSON.stringify(RECORDS)],
      ["pretty-printed", JSON.stringify(RECORDS, null, 2)],
    ] as const
  ).map(([layout, text]) => ({
    name: `imitation: a JSON array of records, ${layout}`,
    files: { "records.json": text },
    args: ["analyze", "records.json", "--metric", "hit5"],
    message:
      /^ragci: records\.json: a JSON array, but ragci reads JSON Lines \(one object per line\); convert it, e\.g\. `jq -c '\.\[\]' records\.json > rows\.jsonl`, and give that\n$/,
  })),
  {
    name: "imitation: Inspect log with a NaN score (sample 2 unscored)",
    files: { "nan.json": INSPECT_NAN },
    args: ["analyze", "nan.json", "--doc", "id", "--metric", "match"],
    message:
      /^ragci: nan\.json: metric match has no number for 1 of 3 items \(first: query 2 of system popularity · openai\/gpt-4o-mini · 7KyCuAQSqp76qKQZEKmG6M\); every result needs a finite value, and Inspect writes NaN for a score its scorer did not give \(Score\.unscored\), which its metrics leave out: re-score those samples \(inspect score\) or analyse another metric\n$/,
  },
  // Simulate and plan options that were accepted and then ignored or misread.
  {
    name: "simulate --chunk-bootstrap with --replicates 0 (it was unavailable in every repetition)",
    files: { "k5.csv": K5 },
    args: [
      "simulate",
      "k5.csv",
      "--metric",
      "score",
      "--k",
      "2",
      "--replicates",
      "0",
      "--chunk-bootstrap",
    ],
    message:
      /^ragci: --chunk-bootstrap with --replicates 0: resampling is off, so it would be unavailable in every repetition; give --replicates B ≥ 1, or drop --chunk-bootstrap\n$/,
  },
  {
    name: "simulate --k '' (it fell back to the default 5,10,20)",
    files: { "k5.csv": K5 },
    args: ["simulate", "k5.csv", "--metric", "score", "--k", "", "--reps", "5"],
    message: /^ragci: --k "": no number; give whole numbers ≥ 2, comma-separated\n$/,
  },
  {
    name: "a faceted simulate (--judge) with --replicates (it has no bootstrap: ignored)",
    files: { "judges.csv": { copy: join(ROOT, "examples/covidqa-judges.csv") } },
    args: [
      "simulate",
      "judges.csv",
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--metric",
      "found",
    ].concat(["--system", "system=bm25", "--judge", "judge", "--k", "10", "--replicates", "99"]),
    message:
      /^ragci: --replicates is for a census study; with --trial, --judge or --variant simulate studies a faceted pilot without it\n$/,
  },
  {
    name: "imitation: simulate on a census whose every result is 0 (every interval covered)",
    files: { "zero.csv": "doc_id,n,s\na,3,0\nb,5,0\nc,2,0\nd,4,0\n" },
    args: ["simulate", "zero.csv", "--aggregated", "--k", "2", "--reps", "5"],
    message:
      /^ragci: zero\.csv: every document has the same rate \(0\), so every sample's estimate is the census value and no interval can miss: a coverage study cannot tell the intervals apart; use the default recommendation \(micro logit-cv3, macro logit\)\n$/,
  },
  {
    name: "imitation: analyze --census on a census whose every result is 0, as simulate refuses it",
    files: {
      "zero.csv": "doc_id,n,s\na,3,0\nb,5,0\nc,2,0\nd,4,0\n",
      "part.csv": "doc_id,n,s\na,3,0\nc,2,0\nd,4,0\n",
    },
    args: [
      "analyze",
      "part.csv",
      "--aggregated",
      "--census",
      "zero.csv",
      "--census-aggregated",
      "--replicates",
      "0",
    ],
    message:
      /^ragci: --census zero\.csv: every document has the same rate \(0\), so every sample's estimate is the census value and no interval can miss: a coverage study cannot tell the intervals apart; use the default recommendation \(micro logit-cv3, macro logit\)\n$/,
  },
  {
    name: "plan --difference 0 names the flag (it was core's 'difference 0 must be…')",
    args: ["plan", "--sd", "0.2", "--difference", "0"],
    message: /^ragci: --difference 0: give a non-zero number, e\.g\. 0\.03\n$/,
  },
  {
    name: "plan --sd with --metric and no file (--metric was ignored)",
    args: ["plan", "--sd", "0.2", "--half-width", "0.05", "--metric", "hit5"],
    message:
      /^ragci: --metric says how to read a pilot or census file, and none is given \(S comes from --sd\); give the file instead of --sd, or drop --metric\n$/,
  },
  {
    name: "plan FILE --census with another --population says what to do",
    files: { "covid.csv": COVID },
    args: ["plan", "covid.csv", ...BM25, "--census", "--population", "100", "--half-width", "0.05"],
    message:
      /^ragci: --census: the file has 98 documents but --population says 100: a census holds every document of the population; drop --population \(the census gives M\) or give the whole census\n$/,
  },
  {
    name: "plan --curve , (it printed an empty curve)",
    args: ["plan", "--sd", "0.2", "--half-width", "0.05", "--curve", ","],
    message:
      /^ragci: --curve ",": no number; give each K as a whole number of documents ≥ 2 \(e\.g\. --curve 10,20,50\)\n$/,
  },
];

/** Every file under `dir` (relative path → SHA-256), directories included as entries. */
function snapshot(dir: string, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      out.set(`${prefix}${name}/`, "dir");
      for (const [k, v] of snapshot(path, `${prefix}${name}/`)) out.set(k, v);
    } else out.set(`${prefix}${name}`, sha256File(path));
  }
  return out;
}

function setUp(index: number, files: Files): string {
  const dir = join(root, `case-${index}`);
  mkdirSync(dir, { recursive: true });
  for (const [name, contents] of Object.entries(files)) {
    const path = join(dir, name);
    mkdirSync(join(path, ".."), { recursive: true });
    if (typeof contents === "string") writeFileSync(path, contents);
    else if (contents.invert === undefined) copyFileSync(contents.copy, path);
    else {
      const bytes = readFileSync(contents.copy);
      const [from, to] = contents.invert;
      for (let i = from; i < to; i++) bytes[i] = (bytes[i] as number) ^ 0xff;
      writeFileSync(path, bytes);
    }
  }
  return dir;
}

describe("bad input: one line, exit 2, inputs untouched, nothing left behind", () => {
  it("has at least 60 cases, as many as the docs say", () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    for (const doc of ["docs/refusals.md", "docs/evidence.md"]) {
      const text = readFileSync(join(ROOT, doc), "utf8");
      const counted = /badInput\.test\.ts`?, (\d+) cases|(\d+) bad inputs/.exec(text);
      expect(Number(counted?.[1] ?? counted?.[2]), doc).toBe(CASES.length);
    }
  });

  it.each(CASES.map((c, i) => ({ ...c, index: i })))(
    "$name",
    ({ index, files, args, input, message }) => {
      const dir = setUp(index, files ?? {});
      const before = snapshot(dir);
      const result = ragci(args, { cwd: dir, ...(input === undefined ? {} : { input }) });
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(/^ragci: /);
      expect(result.stderr).not.toMatch(/\n\s+at |internal error/);
      expect(result.stdout).toBe("");
      expect(result.code).toBe(2);
      expect(snapshot(dir)).toEqual(before);
    },
  );

  it("ragci with no arguments prints the usage on stderr and exits 2", () => {
    const result = ragci([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^Usage: ragci \[options\] \[command\]/);
    for (const command of ["analyze", "compare", "plan", "strata"])
      expect(result.stderr).toContain(command);
  });
});
