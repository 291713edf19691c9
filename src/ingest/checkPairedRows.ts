import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";
import { queryRows } from "./duckdb.js";
import { sqlString } from "./inputFormat.js";
import { repeatedQuery, SPLIT_QUERY } from "./sql/pairedQueries.js";
import {
  type BadRowContext,
  locateBadRow,
  type RowCheck,
  splitLabelError,
} from "./validateRows.js";

/** One input as the row checks see it: its normalised rows in file order, and its checks. */
export interface InputRows extends BadRowContext {
  readonly checks: readonly RowCheck[];
}

/**
 * The row checks on every input, counted in one pass over the paired rows; a failing check is
 * located in its own file (line or row) only then.
 */
export async function checkRows(
  connection: DuckDBConnection,
  inputs: readonly InputRows[],
): Promise<void> {
  const total = await queryRows(connection, "SELECT count(*) AS k FROM src");
  if (Number(total[0]?.k ?? 0) === 0) {
    const file = inputs[0]?.file ?? "input";
    throw new RagciError("empty-input", `${file}: no rows; there is nothing to compare`, { file });
  }
  for (const [i, input] of inputs.entries()) {
    const counts = await queryRows(
      connection,
      `SELECT ${input.checks.map((c, j) => `count(*) FILTER (WHERE ${c.condition}) AS c${j}`).join(", ")} FROM src WHERE file = ${i}`,
    );
    const failing = input.checks.find((_, j) => Number(counts[0]?.[`c${j}`] ?? 0) > 0);
    if (failing) throw await locateBadRow(input, failing);
  }
}

/**
 * What pairing needs beyond single rows, read off the paired queries (`pairs`, the rows of
 * pairedQueries.ts over `src`, systems in `systems`' order): one result per query and system,
 * each query under one document, and (over the rows) each document under one design label.
 */
export async function checkPairing(
  connection: DuckDBConnection,
  file: string,
  inputs: readonly InputRows[],
  labelName: string | null,
  systems: readonly string[],
): Promise<void> {
  const queryName = inputs[0]?.checks[1]?.column ?? "query";
  const documentName = inputs[0]?.checks[0]?.column ?? "doc";
  // The first (system, query) repeated, in system then query order, and how many are.
  const repeated = systems.map(
    (_, si) => `SELECT ${si} AS si, q, n${si} AS c FROM pairs WHERE ${repeatedQuery(si)}`,
  );
  const duplicated = await queryRows(
    connection,
    `SELECT si, q, c, count(*) OVER () AS k FROM (${repeated.join(" UNION ALL ")}) ORDER BY si, q LIMIT 1`,
  );
  if (duplicated[0]) {
    const d = duplicated[0];
    const k = Number(d.k);
    throw new RagciError(
      "invalid-value",
      `${file}: query ${d.q} appears ${d.c} times for system ${systems[Number(d.si)]}${k > 1 ? ` (${k} duplicated queries in all)` : ""}; each query needs one result per system`,
      { file, column: queryName },
    );
  }
  const split = await queryRows(
    connection,
    `SELECT q, query_doc, count(*) OVER () AS k FROM pairs WHERE ${SPLIT_QUERY} ORDER BY q LIMIT 1`,
  );
  if (split[0]) {
    const s = split[0];
    const k = Number(s.k);
    const last = await queryRows(
      connection,
      `SELECT max(doc) AS d FROM src WHERE q = ${sqlString(String(s.q))}`,
    );
    throw new RagciError(
      "invalid-value",
      `${file}: query ${s.q} is under two documents (${s.query_doc} and ${last[0]?.d})${k > 1 ? `, as are ${k - 1} more queries` : ""}; a query belongs to one document`,
      { file, column: documentName },
    );
  }
  if (labelName === null) return;
  const labels = await queryRows(
    connection,
    "SELECT doc, min(lab) AS l1, max(lab) AS l2 FROM src GROUP BY doc HAVING count(DISTINCT lab) > 1 ORDER BY doc LIMIT 1",
  );
  if (labels[0])
    throw splitLabelError(file, String(labels[0].doc), labelName, [
      String(labels[0].l1),
      String(labels[0].l2),
    ]);
}
