import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStatsFromRows } from "../../src/core/aggregate/documentStatsFromRows.js";
import { BLANK_CODE_POINTS, isMissingId } from "../../src/core/aggregate/rowRules.js";
import { queryRows, withDuckDb } from "../../src/ingest/duckdb.js";
import { readPairedResults, readResults } from "../../src/ingest/index.js";
import { DIALECTS, dialect } from "../../src/ingest/sql/dialects.js";
import { perDocumentSql } from "../../src/ingest/sql/perDocumentSql.js";
import { scratchDir } from "../cli/runCli.js";
import { dialectOnDuckDb } from "../support/dialectsOnDuckDb.js";

const dir = scratchDir();

/** Ids made only of blank characters (refused everywhere), and ids that are not blank. */
const BLANK = {
  tab: "\t",
  "two tabs and a space": "\t \t",
  spaces: "   ",
  "no-break space": "\u00a0",
  newline: "\n",
  "carriage return and newline": "\r\n",
  "ideographic space and byte order mark": "\u3000\ufeff",
  "line separator": "\u2028",
};
const NOT_BLANK = {
  "zero-width space (not white space in JavaScript)": "\u200b",
  "next line U+0085 (not white space in JavaScript)": "\u0085",
  "a letter after a tab": "\ta",
  "a letter before a newline": "a\n",
  "a newline between letters": " \nx",
};

/** JSON lines keep every character of an id as written (a CSV reader may trim or split). */
function jsonl(name: string, id: string): string {
  const rows = [
    { doc: "d1", query: "q1", system: "A", hit: 1 },
    { doc: "d1", query: "q1", system: "B", hit: 0 },
    { doc: id, query: "q2", system: "A", hit: 0 },
    { doc: id, query: "q2", system: "B", hit: 1 },
  ];
  const path = join(dir, `${name.replaceAll(/\W+/g, "-")}.jsonl`);
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return path;
}

/** How each path takes the id: "refused" (with its message) or "read". */
async function outcome(run: () => unknown): Promise<string> {
  try {
    await run();
    return "read";
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}

describe("a blank id is one rule: JavaScript's white space, in every path", () => {
  it("the blank characters are exactly those JavaScript's \\s matches (every UTF-16 unit)", () => {
    const spaces: number[] = [];
    for (let c = 0; c < 0x10000; c++) if (/\s/.test(String.fromCharCode(c))) spaces.push(c);
    expect([...BLANK_CODE_POINTS].sort((a, b) => a - b)).toEqual(spaces);
  });

  for (const [name, id] of [...Object.entries(BLANK), ...Object.entries(NOT_BLANK)]) {
    const blank = name in BLANK;
    it(`${JSON.stringify(id)} (${name}) is ${blank ? "refused" : "read"} by files, databases and in-memory rows alike`, async () => {
      expect(isMissingId(id)).toBe(blank);
      expect(id.trim() === "").toBe(blank);
      const file = jsonl(name, id);
      const inMemory = await outcome(() =>
        documentStatsFromRows(
          [
            { doc: "d1", hit: 1 },
            { doc: id, hit: 0 },
          ],
          { doc: "doc", metric: "hit" },
        ),
      );
      const oneSystem = await outcome(() =>
        readResults({ file, metrics: ["hit"], system: "system", query: "query" }),
      );
      const paired = await outcome(() =>
        readPairedResults({
          inputs: [{ path: file, displayName: "t.jsonl" }],
          system: "system",
          query: "query",
          metrics: ["hit"],
          pairs: () => [["A", "B"]],
        }),
      );
      // The database statement in each dialect, run on DuckDB over the same rows.
      const databases: Record<string, string> = {};
      for (const name of DIALECTS) {
        databases[name] = await withDuckDb(async (c) => {
          await c.run(
            `CREATE TABLE t AS SELECT * FROM read_json('${file}', columns = {doc: 'VARCHAR', query: 'VARCHAR', system: 'VARCHAR', hit: 'DOUBLE'})`,
          );
          const adapt = await dialectOnDuckDb(c, name);
          const spec = {
            source: { table: "t" },
            doc: "doc",
            metrics: ["hit"],
            system: "system",
            systems: ["A", "B"],
            query: "query",
          };
          const d = dialect(name);
          return outcome(async () => {
            await queryRows(c, adapt(perDocumentSql(d, spec)));
            await queryRows(c, adapt(perDocumentSql(d, { ...spec, pairs: [["A", "B"]] })));
          });
        });
      }
      if (blank) {
        expect(inMemory).toBe("refused: row 1: field doc is empty; every row needs a document id");
        // Both file readers name the first row (line 3) and count the other.
        for (const read of [oneSystem, paired])
          expect(read).toMatch(
            /\.jsonl line 3: column doc is empty; every row needs a document id \(and 1 more row\)$/,
          );
        for (const name of DIALECTS)
          expect([name, databases[name]]).toEqual([
            name,
            expect.stringMatching(
              /ragci: 2 rows have no doc \(NULL or empty\); every row needs a document id/,
            ),
          ]);
      } else {
        expect([inMemory, oneSystem, paired]).toEqual(["read", "read", "read"]);
        for (const name of DIALECTS) expect([name, databases[name]]).toEqual([name, "read"]);
      }
    });
  }
});
