/**
 * The small-CSV reader (readSmallResults.ts) against DuckDB's reading of the same files: its
 * types against DuckDB's sniffer value by value, and its tables against readResultsWithDuckDb
 * on generated files — whenever it returns a table, DuckDB's path returns the same one.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { withDuckDb } from "../../src/ingest/duckdb.js";
import { sqlString } from "../../src/ingest/inputFormat.js";
import {
  type ReadResultsOptions,
  readResults,
  readResultsWithDuckDb,
} from "../../src/ingest/readResults.js";
import { readSmallResults } from "../../src/ingest/readSmallResults.js";
import { parseSmallCsv, SMALL_CSV_ROWS, sniffedType } from "../../src/ingest/smallCsv.js";
import { EXAMPLE, scratchDir } from "../cli/runCli.js";
import { type MetricKind, metricText } from "../support/metricText.js";

const dir = scratchDir();
let files = 0;
function write(text: string): string {
  const file = join(dir, `small${files++}.csv`);
  writeFileSync(file, text);
  return file;
}

/** Values DuckDB's sniffer reads as something other than text, and their neighbours. */
const TRICKY = [
  "0", "1", "-0", "-3", "10", "007", "00", "+1", "0.5", "-0.25", "10.", ".5", "1e5", "1e", "0x1F",
  "0b101", "0o7", "1_000", "true", "false", "TRUE", "T", "F", "t", "yes", "no", "on", "off", "y",
  "n", "nan", "NaN", "inf", "Infinity", "infinity", "epoch", "today", "now", "null", "NULL",
  "none", "allballs", "Jan-01-2020", "2020-01-01", "2020.01.01", "01-02-2020", "bm25", "tfidf",
  "doc_1", "d", "x", "e5", "E1", "q1", "a.b", "a-b", "_x", "-", "--", "1-2", "1.5.2",
  "999999999999999", "1234567890123456", "12345678901234567890", "0.12345678901234567", "0.0052356020942408376963350785",
]; // biome-ignore format: a table of values

const token = fc.oneof(
  fc.constantFrom(...TRICKY, ""),
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,6}$/),
  fc.integer({ min: -50, max: 5000 }).map(String),
);

/** DuckDB's sniffed type of each column of a two-column CSV (a word id, then the values). */
async function duckDbType(values: readonly string[]): Promise<string> {
  const file = write(`id,v\n${values.map((v, i) => `r${i},${v}`).join("\n")}\n`);
  return withDuckDb(async (c) => {
    const result = await c.run(
      `SELECT * FROM read_csv(${sqlString(file)}, header = true, quote = '"') LIMIT 0`,
    );
    return result.columnType(1).toString();
  });
}

describe("sniffedType", () => {
  it("gives DuckDB's sniffed type wherever it gives one (single values)", async () => {
    for (const value of TRICKY) {
      const type = sniffedType([value]);
      if (type !== null) expect([value, type]).toEqual([value, await duckDbType([value])]);
    }
    // Neither side may be vacuous: each type is reached, and the doubtful ones are left alone.
    expect(TRICKY.map((v) => sniffedType([v]))).toEqual(
      expect.arrayContaining(["VARCHAR", "BIGINT", "DOUBLE", null]),
    );
    for (const doubtful of ["007", "+1", "true", "epoch", "infinity", "nan", "1e5", "0x1F"])
      expect(sniffedType([doubtful])).toBeNull();
  });

  it("gives DuckDB's sniffed type wherever it gives one (columns)", async () => {
    let typed = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(token, { minLength: 1, maxLength: 6 }), async (values) => {
        const type = sniffedType(values);
        if (type === null) return;
        typed++;
        expect(type).toBe(await duckDbType(values));
      }),
      { numRuns: 150, seed: 20261207 },
    );
    expect(typed).toBeGreaterThan(50);
  });
});

describe("parseSmallCsv", () => {
  const ok = "doc_id,hit\nd1,1\nd2,0\n";
  it("parses a plain file, with or without its last newline", () => {
    const parsed = parseSmallCsv(Buffer.from(ok));
    expect(parsed).toEqual({
      names: ["doc_id", "hit"],
      columns: [
        ["d1", "d2"],
        ["1", "0"],
      ],
      types: ["VARCHAR", "BIGINT"],
    });
    expect(parseSmallCsv(Buffer.from(ok.trimEnd()))).toEqual(parsed);
    expect(parseSmallCsv(Buffer.from(ok.replaceAll("\n", "\r\n")))).toEqual(parsed);
  });

  it("keeps free text as written (spaces, punctuation, UTF-8), its type unknown", () => {
    const text = "doc_id,question,hit\n d1 ,what's 50% (of it)?,1\nd2,qué é isso,0\n";
    expect(parseSmallCsv(Buffer.from(text))).toEqual({
      names: ["doc_id", "question", "hit"],
      columns: [
        [" d1 ", "d2"],
        ["what's 50% (of it)?", "qué é isso"],
        ["1", "0"],
      ],
      types: ["VARCHAR", null, "BIGINT"],
    });
  });

  it("keeps an empty field as an empty string, which the types pass over", () => {
    expect(parseSmallCsv(Buffer.from("doc_id,rank,hit\nd1,,1\nd2,3,0\n"))).toEqual({
      names: ["doc_id", "rank", "hit"],
      columns: [
        ["d1", "d2"],
        ["", "3"],
        ["1", "0"],
      ],
      types: ["VARCHAR", "BIGINT", "BIGINT"],
    });
  });

  it.each([
    ["a quoted field", 'doc_id,hit\n"d1",1\n'],
    ["a tab", "doc_id\thit\nd1\t1\n"],
    ["a semicolon", "doc_id;hit\nd1;1\n"],
    ["a BOM", "\ufeffdoc_id,hit\nd1,1\n"],
    ["line ends of both kinds", "doc_id,hit\r\nd1,1\nd2,0\r\n"],
    ["a lone CR", "doc_id,hit\rd1,1\r"],
    ["a short row", "doc_id,hit,x\nd1,1\n"],
    ["an empty line", "doc_id,hit\nd1,1\n\nd2,0\n"],
    ["a header only", "doc_id,hit\n"],
    ["one column", "hit\n1\n"],
    ["a header that is not an identifier", "doc id,1hit\nd1,1\n"],
    ["a #", "doc_id,hit\n#d1,1\n"],
    ["a backslash", "doc_id,hit\nd\\1,1\n"],
    ["a |", "doc_id,hit\nd|1,1\n"],
  ])("leaves %s to DuckDB", (_, text) => {
    expect(parseSmallCsv(Buffer.from(text))).toBeNull();
  });

  it("leaves invalid UTF-8 to DuckDB", () => {
    const bytes = Buffer.concat([
      Buffer.from("doc_id,hit\nd"),
      Buffer.from([0xff]),
      Buffer.from(",1\n"),
    ]);
    expect(parseSmallCsv(bytes)).toBeNull();
  });

  it("gives no type to a column of NULLs or of a doubtful value", () => {
    expect(parseSmallCsv(Buffer.from("doc_id,hit\nd1,\n"))?.types).toEqual(["VARCHAR", null]);
    expect(parseSmallCsv(Buffer.from("doc_id,hit\nd1,1e5\n"))?.types).toEqual(["VARCHAR", null]);
  });

  it(`leaves more than ${SMALL_CSV_ROWS} rows to DuckDB`, () => {
    const rows = (k: number) =>
      `doc_id,hit\n${Array.from({ length: k }, (_, i) => `d${i},1`).join("\n")}\n`;
    expect(parseSmallCsv(Buffer.from(rows(SMALL_CSV_ROWS)))).not.toBeNull();
    expect(parseSmallCsv(Buffer.from(rows(SMALL_CSV_ROWS + 1)))).toBeNull();
  });
});

/** Free text, as a question column holds it: spaces, punctuation, UTF-8. */
const QUESTIONS = [
  "what is covid?",
  "qué é isso",
  "it's 50% (or more) & rising: why!",
  " leading and trailing ",
  "a/b [c] {d} <e> =f+ ~g^ `h` @i $j",
  "Jan 1 2020",
  "12:00 PM",
  "",
];

/** DuckDB's table for the file, or its refusal's message. */
async function duckDbRead(options: ReadResultsOptions) {
  return readResultsWithDuckDb(options, options.file, "csv").catch(
    (error: Error) => `refused: ${error.message}`,
  );
}

/** A results file: a document column, maybe a system and a query id column, 0/1 metrics. */
const resultsFile = fc
  .record({
    docName: fc.constantFrom("doc_id", "doc", "document", "Doc_Id"),
    system: fc.option(fc.constantFrom(["bm25", "tfidf"], ["a", "B", "b1"], ["1", "2"]), {
      nil: null,
    }),
    query: fc.constantFrom("none", "unique", "repeats", "numbers"),
    metrics: fc.integer({ min: 1, max: 2 }),
    kind: fc.constantFrom<MetricKind>("binary", "binary", "integer", "decimal"),
    offBinary: fc.constantFrom("", "", "", "2", "0.5"),
    valuesUpTo: fc.constantFrom(0, 1000),
    extra: fc.constantFrom("", "rank", "rr", "note", "question"),
    crlf: fc.boolean(),
    blank: fc.constantFrom("none", "none", "extra", "doc", "query"),
    docs: fc.array(
      fc.oneof(
        fc.constantFrom("d1", "d2", "D1", "d10", "d_2", "x", "15", "007", "-0", "e5", "true"),
        fc.constantFrom(" d1", "d1 ", "d 1", "  ", "dé"),
        fc.stringMatching(/^[A-Za-z0-9_]{1,4}$/),
      ),
      { minLength: 1, maxLength: 6 },
    ),
    rows: fc.array(fc.tuple(fc.nat(), fc.nat(), fc.nat(), fc.boolean(), fc.boolean()), {
      minLength: 1,
      maxLength: 40,
    }),
    options: fc.record({
      nameMetric: fc.boolean(),
      nameSystem: fc.boolean(),
      nameQuery: fc.boolean(),
    }),
  })
  .map((f) => {
    const header: string[] = [f.docName];
    if (f.system) header.push("system");
    if (f.query !== "none") header.push("query_id");
    const metrics = Array.from({ length: f.metrics }, (_, i) => `hit${i + 1}`);
    header.push(...metrics);
    if (f.extra) header.push(f.extra);
    const lines = f.rows.map(([d, s, q, a, b], r) => {
      const row = [f.docs[d % f.docs.length] as string];
      if (f.system) row.push(f.system[s % f.system.length] as string);
      if (f.query === "unique") row.push(`q${r}`);
      if (f.query === "repeats") row.push(`q${q % 8}`);
      if (f.query === "numbers") row.push(String(r % 30));
      row.push(metricText(f.kind, q, a));
      if (f.metrics === 2) row.push(metricText(f.kind, q, b));
      if (f.extra === "rank") row.push(String(q % 100));
      if (f.extra === "rr") row.push(`0.${(q % 97) + 1}`);
      if (f.extra === "note") row.push(`n${q % 3}`);
      if (f.extra === "question") row.push(QUESTIONS[q % QUESTIONS.length] as string);
      return row;
    });
    if (f.offBinary && lines[0]) lines[0][header.indexOf("hit1")] = f.offBinary;
    // An empty field (NULL to DuckDB) in the last row's extra, document or query id column.
    const blankAt = header.indexOf(
      f.blank === "extra" ? f.extra : f.blank === "doc" ? f.docName : "query_id",
    );
    const last = lines[lines.length - 1];
    if (f.blank !== "none" && blankAt >= 0 && last) last[blankAt] = "";
    const end = f.crlf ? "\r\n" : "\n";
    const text = `${header.join(",")}${end}${lines.map((l) => l.join(",")).join(end)}${end}`;
    const options = {
      doc: f.docName,
      metrics: f.options.nameMetric || f.metrics === 2 || f.extra === "rank" ? metrics : null,
      system: f.options.nameSystem && f.system ? "system" : null,
      query: f.options.nameQuery && f.query !== "none" ? "query_id" : null,
      valuesUpTo: f.valuesUpTo,
    };
    return { text, options };
  });

describe("readSmallResults", () => {
  it("returns DuckDB's table whenever it returns one (generated files)", async () => {
    let small = 0;
    await fc.assert(
      fc.asyncProperty(resultsFile, async ({ text, options }) => {
        const file = write(text);
        const read = await readSmallResults({ file, ...options }, file);
        if (read === null) return;
        small++;
        expect(read).toEqual(await duckDbRead({ file, ...options }));
      }),
      { numRuns: 200, seed: 7 },
    );
    expect(small).toBeGreaterThan(40);
  });

  it("reads whole numbers whose squares stay below 2^53 as DuckDB adds them", async () => {
    // 94,906,265² = 2⁵³ − 118,490,767: with 3² and 1000² the squares stay below 2⁵³
    const file = write("doc_id,x\nd1,94906265\nd2,-3\nd2,1000\n");
    const options = { file, doc: "doc_id", metrics: ["x"], valuesUpTo: 100 };
    const read = await readSmallResults(options, file);
    expect(read).not.toBeNull();
    expect(read).toEqual(await duckDbRead(options));
  });

  it("reads fractions of up to 30 decimals to DuckDB's doubles and sums", async () => {
    const fraction = fc
      .tuple(fc.boolean(), fc.integer({ min: 0, max: 999_999 }), fc.stringMatching(/^[0-9]{1,30}$/))
      .map(([negative, whole, digits]) => `${negative ? "-" : ""}${whole}.${digits}`)
      .filter((v) => !/^-0\.0+$/.test(v));
    let small = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fraction, { minLength: 1, maxLength: 30 }), async (values) => {
        const file = write(`doc_id,x\n${values.map((v, i) => `d${i % 4},${v}`).join("\n")}\n`);
        const options = { file, doc: "doc_id", metrics: ["x"], valuesUpTo: 100 };
        const read = await readSmallResults(options, file);
        if (read === null) return;
        small++;
        expect(read).toEqual(await duckDbRead(options));
      }),
      { numRuns: 50, seed: 30 },
    );
    expect(small).toBeGreaterThan(45);
  });

  it("reads the start-up benchmark's twenty documents and the bundled example", async () => {
    const example = readFileSync("examples/covidqa-retrieval.csv", "utf8").trim().split("\n");
    const bm25 = [example[0], ...example.slice(1).filter((l) => l.split(",")[2] === "bm25")];
    const docs = [...new Set(bm25.slice(1).map((l) => (l as string).split(",")[0]))].sort();
    const twenty = new Set(docs.slice(0, 20));
    const firstTwenty = [bm25[0], ...bm25.slice(1).filter((l) => twenty.has(l?.split(",")[0]))];
    const files = [...[firstTwenty, bm25].map((l) => write(`${l.join("\n")}\n`)), EXAMPLE];
    for (const file of files) {
      const options = { file, doc: "doc_id", metrics: ["hit5", "rr"], valuesUpTo: 10_000 };
      const read = await readSmallResults(options, file);
      expect(read).not.toBeNull();
      expect(read).toEqual(await duckDbRead(options));
      expect(await readResults(options)).toEqual(read);
    }
  });

  it.each([
    ["a metric 0/1 but for one row in 200", `doc_id,hit\n${"d1,1\n".repeat(199)}d2,2\n`, {}],
    ["whole numbers whose squares reach 2^53", "doc_id,x\nd1,94906266\nd2,1\n", {}],
    ["a value of -0", "doc_id,hit\nd1,-0\nd1,1\n", {}],
    ["a repeated query id", "doc_id,query_id,hit\nd1,q1,1\nd2,q1,0\n", {}],
    ["query ids that are fractions", "doc_id,query_id,hit\nd1,1.5,1\nd2,1.50,0\n", {}],
    ["a design label", "doc_id,stratum,hit\nd1,s1,1\nd2,s2,0\n", { documentLabel: "stratum" }],
    ["a metric that is also the id", "doc_id,hit\nd1,1\n", { metrics: ["doc_id"] }],
    ["names alike but for case", "doc_id,hit,HIT\nd1,1,0\n", { metrics: ["hit"] }],
    ["no metric column", "doc_id,note\nd1,ab\n", {}],
  ])("leaves %s to DuckDB, whose reading says the same as before", async (_, text, extra) => {
    const file = write(text);
    const options = { file, doc: "doc_id", ...extra };
    expect(await readSmallResults(options, file)).toBeNull();
    const viaEntry = await readResults(options).catch((e: Error) => `refused: ${e.message}`);
    expect(viaEntry).toEqual(await duckDbRead(options));
  });
});
