import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { isRagciError } from "../../../src/core/errors.js";
import { queryRows, withDuckDb } from "../../../src/ingest/duckdb.js";
import {
  readAggregates,
  readPairedAggregates,
  readPairedResults,
  readResults,
} from "../../../src/ingest/index.js";
import { sqlString } from "../../../src/ingest/inputFormat.js";
import { DIALECTS, dialect } from "../../../src/ingest/sql/dialects.js";
import { withPerDocumentFile } from "../../../src/ingest/sql/perDocumentRows.js";
import { type PerDocumentSqlSpec, perDocumentSql } from "../../../src/ingest/sql/perDocumentSql.js";
import { EXAMPLE, scratchDir } from "../../cli/runCli.js";
import { dialectOnDuckDb } from "../../support/dialectsOnDuckDb.js";

const dir = scratchDir();

/** The bundled example with each article's topic (its id mod 7), a design's first-stage unit. */
const [HEADER, ...ROWS] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
const TOPICS = join(dir, "topics.csv");
writeFileSync(
  TOPICS,
  `${HEADER},topic\n${ROWS.map((r) => `${r},u${Number(r.split(",")[0]) % 7}`).join("\n")}\n`,
);

async function topicsTable(connection: DuckDBConnection): Promise<void> {
  await connection.run(
    `CREATE TABLE results AS SELECT * FROM read_csv(${sqlString(TOPICS)}, types = {'doc_id': 'VARCHAR', 'query_id': 'VARCHAR'})`,
  );
}

const single: PerDocumentSqlSpec = {
  source: { table: "results" },
  doc: "doc_id",
  metrics: ["hit5"],
  system: "system",
  systems: null,
  query: null,
  label: "topic",
};
const paired: PerDocumentSqlSpec = {
  ...single,
  query: "query_id",
  systems: ["bm25", "tfidf"],
  pairs: [["bm25", "tfidf"]],
};

describe("perDocumentSql with a label column (a design's stratum or psu)", () => {
  // Every dialect but postgres, whose sums DuckDB's NUMERIC rounds (dialectsOnDuckDb.ts).
  for (const name of DIALECTS.filter((d) => d !== "postgres")) {
    it(`${name}: each document's label, as the file path reads it, one system at a time and paired`, async () => {
      const file = await readResults({
        file: TOPICS,
        metrics: ["hit5"],
        system: "system",
        documentLabel: "topic",
      });
      const pairedFile = await readPairedResults({
        inputs: [{ path: TOPICS, displayName: TOPICS }],
        doc: "doc_id",
        query: "query_id",
        system: "system",
        metrics: ["hit5"],
        documentLabel: "topic",
        pairs: () => [["bm25", "tfidf"]],
      });
      await withDuckDb(async (c) => {
        await topicsTable(c);
        const adapt = await dialectOnDuckDb(c, name);
        const rows = await queryRows(c, adapt(perDocumentSql(dialect(name), single)));
        expect(Object.keys(rows[0] ?? {})).toContain("topic");
        const table = await withPerDocumentFile(
          rows,
          (f) =>
            readAggregates({ file: f, format: "jsonl", system: "system", documentLabel: "topic" }),
          "topic",
        );
        const labelled = (t: typeof file) =>
          t.groups.map((g) => ({
            system: g.system,
            ids: [...g.stats.ids],
            s: [...g.stats.s],
            labels: g.labels,
          }));
        expect(labelled(table)).toEqual(labelled(file));
        expect(new Set(table.groups[0]?.labels)).toEqual(
          new Set(["u0", "u1", "u2", "u3", "u4", "u5", "u6"]),
        );
        const pairedRows = await queryRows(c, adapt(perDocumentSql(dialect(name), paired)));
        const pairs = await withPerDocumentFile(
          pairedRows,
          (f) =>
            readPairedAggregates({
              file: f,
              displayName: name,
              format: "jsonl",
              doc: null,
              system: null,
              onlySystems: null,
              metrics: ["hit5"],
              documentLabel: "topic",
              pairs: () => [["bm25", "tfidf"]],
            }),
          "topic",
        );
        expect([...(pairs.labelOf ?? [])].sort()).toEqual([...(pairedFile.labelOf ?? [])].sort());
        expect(pairs.labelOf?.size).toBe(98);
      });
    });
  }

  const fails: [string, string, PerDocumentSqlSpec, RegExp][] = [
    [
      "an empty label",
      "UPDATE results SET topic = ' ' WHERE doc_id = '630'",
      single,
      /ragci: \d+ rows have no topic \(NULL or empty\); the design needs it for every document/,
    ],
    [
      "a NULL label, paired",
      "UPDATE results SET topic = NULL WHERE doc_id = '630' AND system = 'tfidf'",
      paired,
      /ragci: \d+ rows have no topic \(NULL or empty\)/,
    ],
    [
      "a document under two labels",
      "UPDATE results SET topic = 'u9' WHERE query_id = '262' AND system = 'bm25'",
      single,
      /ragci: 1 documents have more than one topic; a document belongs to one topic/,
    ],
    [
      "a document under two labels, paired",
      "UPDATE results SET topic = 'u9' WHERE query_id = '262' AND system = 'tfidf'",
      paired,
      /ragci: 1 documents have more than one topic/,
    ],
  ];
  for (const [what, update, spec, message] of fails) {
    it(`${what} fails the statement with ragci's message`, async () => {
      await withDuckDb(async (c) => {
        await topicsTable(c);
        await c.run(update);
        await expect(queryRows(c, perDocumentSql(dialect("duckdb"), spec))).rejects.toThrow(
          message,
        );
      });
    });
  }

  it("refuses a label named as a column of the per-document table, naming documentLabel", () => {
    // `ragci sql --label n` builds this statement without reading: the refusal names --label.
    let error: unknown;
    try {
      perDocumentSql(dialect("duckdb"), { ...single, label: "n" });
    } catch (e) {
      error = e;
    }
    expect((error as Error).message).toBe(
      "`documentLabel` n: the per-document table already has a column n (system, metric, doc, n, s, ss, min, max); keep a column of another name",
    );
    expect(isRagciError(error) && error.context.option).toBe("documentLabel");
  });
});
