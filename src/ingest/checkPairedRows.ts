import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";
import { queryRows } from "./duckdb.js";
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
 * What pairing needs beyond single rows: one result per query and system, each query under one
 * document, and each document under one design label.
 */
export async function checkPairing(
  connection: DuckDBConnection,
  file: string,
  inputs: readonly InputRows[],
  labelName: string | null,
): Promise<void> {
  const queryName = inputs[0]?.checks[1]?.column ?? "query";
  const documentName = inputs[0]?.checks[0]?.column ?? "doc";
  const duplicated = await queryRows(
    connection,
    "SELECT sys, q, c, (SELECT count(*) FROM (SELECT 1 FROM src GROUP BY sys, q HAVING count(*) > 1)) AS k FROM (SELECT sys, q, count(*) AS c FROM src GROUP BY sys, q HAVING count(*) > 1) ORDER BY sys, q LIMIT 1",
  );
  if (duplicated[0]) {
    const d = duplicated[0];
    const k = Number(d.k);
    throw new RagciError(
      "invalid-value",
      `${file}: query ${d.q} appears ${d.c} times for system ${d.sys}${k > 1 ? ` (${k} duplicated queries in all)` : ""}; each query needs one result per system`,
      { file, column: queryName },
    );
  }
  const split = await queryRows(
    connection,
    "SELECT q, min(doc) AS d1, max(doc) AS d2, (SELECT count(*) FROM (SELECT 1 FROM src GROUP BY q HAVING count(DISTINCT doc) > 1)) AS k FROM src GROUP BY q HAVING count(DISTINCT doc) > 1 ORDER BY q LIMIT 1",
  );
  if (split[0]) {
    const s = split[0];
    const k = Number(s.k);
    throw new RagciError(
      "invalid-value",
      `${file}: query ${s.q} is under two documents (${s.d1} and ${s.d2})${k > 1 ? `, as are ${k - 1} more queries` : ""}; a query belongs to one document`,
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
