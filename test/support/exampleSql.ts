import type { PerDocumentSqlSpec } from "../../src/ingest/sql/perDocumentSql.js";

/** The bundled example as table `results`: each system's hit5 and rr per document. */
export const EXAMPLE_SPEC: PerDocumentSqlSpec = {
  source: { table: "results" },
  doc: "doc_id",
  metrics: ["hit5", "rr"],
  system: "system",
  systems: null,
  query: null,
};

/** The same, bm25 and tfidf paired on the query, with the differences tfidf − bm25. */
export const EXAMPLE_PAIRED_SPEC: PerDocumentSqlSpec = {
  ...EXAMPLE_SPEC,
  query: "query_id",
  systems: ["bm25", "tfidf"],
  pairs: [["bm25", "tfidf"]],
};

/** The example's rows but two queries of bm25 without tfidf and one of tfidf without bm25. */
export const GAPS_WHERE =
  "NOT (system = 'bm25' AND query_id IN ('262', '276')) AND NOT (system = 'tfidf' AND query_id = '300')";

/** Table `gaps` (the example WHERE GAPS_WHERE), paired on hit5: fails, or with intersect drops 1 and 2. */
export const GAPS_PAIRED_SPEC: PerDocumentSqlSpec = {
  ...EXAMPLE_PAIRED_SPEC,
  source: { table: "gaps" },
  metrics: ["hit5"],
};

/** A small table `t (doc, sys, q, hit)`, one system at a time: the row checks' test cases. */
export const T_SPEC: PerDocumentSqlSpec = {
  source: { table: "t" },
  doc: "doc",
  metrics: ["hit"],
  system: "sys",
  systems: null,
  query: null,
};
