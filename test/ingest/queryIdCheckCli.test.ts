import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { withDuckDb } from "../../src/ingest/duckdb.js";
import { sqlString } from "../../src/ingest/inputFormat.js";
import { QUERY_CHECK_ROW_LIMIT } from "../../src/ingest/queryIdCheck.js";
import { ragci, ragciOk, scratchDir } from "../cli/runCli.js";

const dir = scratchDir();
const csv = join(dir, "over.csv");
const rows = QUERY_CHECK_ROW_LIMIT + 1;

describe("analyze over the query-check row limit", () => {
  beforeAll(async () => {
    // One row over the limit; q0 appears twice (rows 0 and 2,000,000).
    await withDuckDb((c) =>
      c.run(
        `COPY (SELECT 'd' || (x % 5000) AS doc_id, 'q' || (x % ${QUERY_CHECK_ROW_LIMIT}) AS query_id, x % 2 AS hit FROM range(${rows}) t(x)) TO ${sqlString(csv)}`,
      ),
    );
  }, 60_000);

  const args = ["analyze", csv, "--doc", "doc_id", "--metric", "hit", "--replicates", "0"];
  const skipped = `${csv}: query ids (column query_id) were not checked for repeats: 2,000,001 rows, more than the 2,000,000 checked by default; pass --query query_id to check them`;

  it("says in every report that the ids were not checked (JSON, HTML, Markdown, terminal)", () => {
    const html = join(dir, "over.html");
    const result = ragci([...args, "--json", "--html", html]);
    expect(result.stderr).toBe("");
    const json = JSON.parse(result.stdout);
    expect(json.analyses[0].results).toBe(rows);
    expect(json.notes).toEqual([skipped]);
    expect(readFileSync(html, "utf8")).toContain(`<li class="warning">${skipped}</li>`);
    expect(ragciOk([...args, "--markdown"])).toContain(`- **Warning:** ${skipped}\n`);
    expect(ragciOk(args)).toContain(skipped);
  }, 60_000);

  it("checks them when --query names the column, and finds the repeat", () => {
    const result = ragci([...args, "--query", "query_id", "--json"]);
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout).notes).toEqual([
      `${csv}: query id q0 appears 2 times in column query_id; each query is counted as many times as it appears — remove duplicated rows if that is not intended`,
    ]);
  }, 60_000);

  it("refuses a --query column the file does not have", () => {
    const result = ragci([...args, "--query", "qid", "--json"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `ragci: ${csv}: no query column "qid"; the columns are doc_id, query_id, hit\n`,
    );
  }, 60_000);
});
