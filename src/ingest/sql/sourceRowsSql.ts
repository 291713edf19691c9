import { optionRef, RagciError } from "../../core/errors.js";
import { refuseShadowedColumns } from "./aliasShadowing.js";
import { type Dialect, tableName } from "./dialects.js";
import type { SourceColumns, SqlSource } from "./sourceColumns.js";

export type { FacetColumnNames, SourceColumns, SqlSource } from "./sourceColumns.js";

/** A user's SELECT as a subquery: one statement, without its final semicolon. */
function subquery(sql: string): string {
  const body = sql.trim().replace(/;\s*$/, "");
  if (body === "" || body.includes(";")) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("sql")}: give one SELECT statement (the rows to aggregate), without a ; inside it`,
      { option: "sql" },
    );
  }
  return `(\n${body}\n) AS ragci_source`;
}

/** What FROM reads: the quoted table name, or the user's SELECT as a subquery. */
export function sourceFromSql(d: Dialect, source: SqlSource): string {
  return "table" in source ? tableName(d, source.table) : subquery(source.sql);
}

/** The statement whose result has the source's columns and no row (`from`: sourceFromSql). */
export function sourceColumnsSql(from: string): string {
  return `SELECT * FROM ${from} LIMIT 0`;
}

/**
 * The CTE `ragci_rows`: every per-query row in ragci's shape — doc, sys and q as text (NULL
 * where the source has none), each metric as a double v0, v1, …, and lab (the label column,
 * as text) when there is one — with the systems chosen.
 * The checks and the GROUP BYs are written against it, as the file readers' are against
 * normalizedRows.ts. A value that is not a number fails the CAST in the database.
 */
export function sourceRowsSql(d: Dialect, source: SqlSource, c: SourceColumns): string {
  return `ragci_rows AS (\n  ${sourceRowsSelect(d, source, c)}\n)`;
}

/**
 * The SELECT of sourceRowsSql's rows; with `facets`, also t, j and w (the trial, judge and
 * variant as text), and every absent id a NULL of the text type, since the facet cells group
 * by them (facetCellsSql.ts).
 * @throws RagciError for a column an alias of the same SELECT would hide (aliasShadowing.ts)
 */
export function sourceRowsSelect(d: Dialect, source: SqlSource, c: SourceColumns): string {
  refuseShadowedColumns(d, c);
  const text = (column: string) => `CAST(${d.identifier(column)} AS ${d.text})`;
  const none = c.facets ? `CAST(NULL AS ${d.text})` : "NULL";
  const textOrNull = (column: string | null) => (column ? text(column) : none);
  const from = sourceFromSql(d, source);
  const columns = [
    `${text(c.doc)} AS doc`,
    `${textOrNull(c.system)} AS sys`,
    `${textOrNull(c.query)} AS q`,
    ...(c.facets
      ? [
          `${textOrNull(c.facets.trial)} AS t`,
          `${textOrNull(c.facets.judge)} AS j`,
          `${textOrNull(c.facets.variant)} AS w`,
        ]
      : []),
    ...c.metrics.map((m, i) => `CAST(${d.identifier(m)} AS ${d.double}) AS v${i}`),
    ...(c.label ? [`${text(c.label)} AS lab`] : []),
  ];
  const only =
    c.system && c.systems
      ? `\n  WHERE ${text(c.system)} IN (${c.systems.map(d.string).join(", ")})`
      : "";
  return `SELECT ${columns.join(",\n    ")}\n  FROM ${from}${only}`;
}
