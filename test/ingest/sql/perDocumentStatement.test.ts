import { describe, expect, it } from "vitest";
import { optionRef } from "../../../src/core/errors.js";
import { dialect, perDocumentSql, perDocumentStatement } from "../../../src/ingest/index.js";

const base = { dialect: "duckdb", table: "results", doc: "doc_id", metric: ["hit5"] };

describe("perDocumentStatement", () => {
  it("is perDocumentSql of the options, the pair in code-point order", () => {
    const options = { ...base, system: "system=tfidf,bm25", query: "qid", pair: true };
    expect(perDocumentStatement(options)).toBe(
      perDocumentSql(dialect("duckdb"), {
        source: { table: "results" },
        doc: "doc_id",
        metrics: ["hit5"],
        system: "system",
        systems: ["tfidf", "bm25"],
        query: "qid",
        pairs: [["bm25", "tfidf"]],
        intersect: false,
        label: null,
      }),
    );
    const { table: _, ...rows } = base;
    expect(perDocumentStatement({ ...rows, sql: "SELECT 1" })).toContain("SELECT 1");
  });

  it("refuses incomplete options, naming them by their library names", () => {
    expect(() => perDocumentStatement({ ...base, sql: "SELECT 1" })).toThrow(
      `give the rows with ${optionRef("table")} NAME or ${optionRef("sql")}`,
    );
    expect(() => perDocumentStatement({ ...base, metric: [] })).toThrow(
      `name the metric column(s) with ${optionRef("metric")}`,
    );
    expect(() => perDocumentStatement({ ...base, intersect: true })).toThrow(
      `${optionRef("intersect")} goes with ${optionRef("pair")}`,
    );
    expect(() => perDocumentStatement({ ...base, system: "s=a,b", pair: true })).toThrow(
      `${optionRef("pair")} needs two systems and the query they are joined on`,
    );
  });
});
