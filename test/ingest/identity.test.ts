import { describe, expect, it } from "vitest";
import {
  requireDistinctInputs,
  requireDistinctMetrics,
  requirePerQueryTable,
} from "../../src/ingest/identity.js";
import { resolveMetrics } from "../../src/ingest/resolveColumns.js";

const COLUMNS = ["doc_id", "query_id", "hit5", "rr"];

describe("identity: each metric, input and table shape counted once", () => {
  it.each([
    [["hit5", "hit5"], /column hit5 twice \("hit5" twice\)/],
    [["hit@5", "hit5"], /column hit5 twice \("hit@5" and "hit5"\)/],
    [["mrr", "rr"], /column rr twice \("mrr" and "rr"\)/],
  ])("metrics %j reach one column and are refused", (requested, message) => {
    expect(() => resolveMetrics(requested, COLUMNS, "r.csv")).toThrow(message);
    try {
      resolveMetrics(requested, COLUMNS, "r.csv");
    } catch (error) {
      expect((error as { context: object }).context).toMatchObject({ option: "metric" });
    }
  });

  it("distinct metrics resolve in the order asked", () => {
    expect(resolveMetrics(["mrr", "hit@5"], COLUMNS, "r.csv")).toEqual(["rr", "hit5"]);
    expect(() => requireDistinctMetrics(["a", "b"], ["a", "b"], "r.csv")).not.toThrow();
  });

  it("the same input twice, or two inputs with the same bytes, are refused", () => {
    expect(() =>
      requireDistinctInputs([
        { file: "a.csv", sha256: "ab".repeat(32) },
        { file: "a.csv", sha256: "ab".repeat(32) },
      ]),
    ).toThrow(/^a\.csv is given twice \(SHA-256 abababababab…\)/);
    expect(() =>
      requireDistinctInputs([
        { file: "a.csv", sha256: "ab".repeat(32) },
        { file: "b.csv", sha256: "cd".repeat(32) },
        { file: "copy.csv", sha256: "ab".repeat(32) },
      ]),
    ).toThrow(/^a\.csv and copy\.csv hold the same bytes/);
    expect(() =>
      requireDistinctInputs([
        { file: "a.csv", sha256: "ab".repeat(32) },
        { file: "b.csv", sha256: "cd".repeat(32) },
      ]),
    ).not.toThrow();
  });

  it("a per-document table (n and s) is refused by the per-query readers unless n or s is the metric", () => {
    const perDocument = ["system", "metric", "doc", "n", "s", "ss", "min", "max"];
    expect(() => requirePerQueryTable(perDocument, [], "agg.csv")).toThrow(
      /^agg\.csv: has columns n and s, a per-document table .* read it with `aggregated`/,
    );
    expect(() => requirePerQueryTable(["doc", "N", "S"], ["hit"], "agg.csv")).toThrow(/n and s/);
    expect(() => requirePerQueryTable(perDocument, ["s"], "agg.csv")).not.toThrow();
    expect(() => requirePerQueryTable(COLUMNS, [], "r.csv")).not.toThrow();
    expect(() => requirePerQueryTable(perDocument, [], "c.csv", "censusAggregated")).toThrow(
      /read it with `censusAggregated`/,
    );
    expect(() => requirePerQueryTable(perDocument, [], "c.csv", null)).toThrow(
      /^c\.csv: has columns n and s, a per-document table \(doc, n, s\[, ss\]\), where per-query results are needed/,
    );
  });
});
