import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../src/ingest/index.js";
import { QUERY_CHECK_ROW_LIMIT } from "../../src/ingest/queryIdCheck.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();

/** Five rows `doc,query_id,hit`; q1 appears twice. */
const path = join(dir, "five.csv");
writeFileSync(path, "doc,query_id,hit\na,q1,1\na,q1,0\nb,q2,1\nb,q3,0\nc,q4,1\n");

const repeated = `${path}: query id q1 appears 2 times in column query_id; each query is counted as many times as it appears — remove duplicated rows if that is not intended`;
const notChecked = (limit: string) =>
  `${path}: query ids (column query_id) were not checked for repeats: 5 rows, more than the ${limit} checked by default; pass \`query\` query_id to check them`;

describe("the repeated-query check's row limit", () => {
  it("is 2,000,000 rows unless told otherwise, so a small file is checked", async () => {
    expect(QUERY_CHECK_ROW_LIMIT).toBe(2_000_000);
    const read = await readResults({ file: path, metrics: ["hit"] });
    expect(read.notices).toEqual([repeated]);
  });

  it("checks a found query column up to the limit, the limit included", async () => {
    const read = await readResults({ file: path, metrics: ["hit"], queryCheckRowLimit: 5 });
    expect(read.notices).toEqual([repeated]);
  });

  it("above the limit says the ids were not checked, and nothing about repeats", async () => {
    const read = await readResults({ file: path, metrics: ["hit"], queryCheckRowLimit: 4 });
    expect(read.notices).toEqual([notChecked("4")]);
    const large = await readResults({ file: path, metrics: ["hit"], queryCheckRowLimit: 1000 });
    expect(large.notices).toEqual([repeated]);
  });

  it("formats the counts with thousands separators", async () => {
    const big = join(dir, "big.csv");
    const rows = Array.from({ length: 1200 }, (_, i) => `d${i % 7},q${i},1`);
    writeFileSync(big, `doc,query_id,hit\n${rows.join("\n")}\n`);
    const read = await readResults({ file: big, metrics: ["hit"], queryCheckRowLimit: 1000 });
    expect(read.notices).toEqual([
      `${big}: query ids (column query_id) were not checked for repeats: 1,200 rows, more than the 1,000 checked by default; pass \`query\` query_id to check them`,
    ]);
  });

  it("a named query column is checked whatever the number of rows", async () => {
    const read = await readResults({
      file: path,
      metrics: ["hit"],
      query: "query_id",
      queryCheckRowLimit: 1,
    });
    expect(read.notices).toEqual([repeated]);
    const once = join(dir, "once.csv");
    writeFileSync(once, "doc,qid,hit\na,q1,1\nb,q2,1\nc,q3,0\n");
    const clean = await readResults({
      file: once,
      metrics: ["hit"],
      query: "qid",
      queryCheckRowLimit: 1,
    });
    expect(clean.notices).toEqual([]);
  });

  it("a column that is not a usual query name is checked only when named", async () => {
    const other = join(dir, "other.csv");
    writeFileSync(other, "doc,question,hit\na,x,1\na,x,0\nb,y,1\n");
    expect((await readResults({ file: other, metrics: ["hit"] })).notices).toEqual([]);
    const named = await readResults({ file: other, metrics: ["hit"], query: "question" });
    expect(named.notices).toEqual([
      `${other}: query id x appears 2 times in column question; each query is counted as many times as it appears — remove duplicated rows if that is not intended`,
    ]);
  });

  it("empty query ids that repeat are called empty, not 'null'", async () => {
    const empty = join(dir, "empty-ids.csv");
    writeFileSync(empty, "doc,query_id,hit\na,,1\na,,0\nb,q1,1\n");
    const read = await readResults({ file: empty, metrics: ["hit"], query: "query_id" });
    expect(read.notices).toEqual([
      `${empty}: an empty query id appears 2 times in column query_id; each query is counted as many times as it appears — remove duplicated rows if that is not intended`,
    ]);
  });

  it("no query column: nothing to check and nothing said, whatever the size", async () => {
    const bare = join(dir, "bare.csv");
    writeFileSync(bare, "doc,hit\na,1\na,1\nb,0\n");
    const read = await readResults({ file: bare, metrics: ["hit"], queryCheckRowLimit: 1 });
    expect(read.notices).toEqual([]);
  });

  it("a named query column must exist and not be the document, system or a metric", async () => {
    await expect(readResults({ file: path, metrics: ["hit"], query: "qq" })).rejects.toThrow(
      `${path}: no query column "qq"; the columns are doc, query_id, hit`,
    );
    await expect(readResults({ file: path, metrics: ["hit"], query: "doc" })).rejects.toThrow(
      `${path}: column doc cannot be both the query id and a document, system or metric`,
    );
  });
});
