import { optionRef, RagciError } from "../../core/errors.js";
import type { Dialect } from "./dialects.js";
import type { SourceColumns } from "./sourceColumns.js";

/** Names ragci's statements give their own columns after the label is carried to the output. */
const LATER_NAMES = /^(sys|q|query_doc|query_lab|v\d+|x\d+_\d+)$/;

/**
 * Refuses, where the dialect resolves a name to an alias of the same SELECT before a column of
 * the table (ClickHouse: `CAST("doc_id" AS …) AS doc, CAST("doc" AS …) AS sys` reads doc_id
 * twice), a column whose name is one ragci gives another column in the same SELECT: the
 * statement would read the wrong values, or report a check on them that is not true of the
 * table. `ragci_rows` names doc, sys, q, v0, v1, … and lab (and t, j, w with facets); the
 * output selects read them (and query_doc, query_lab, x0_0, …) beside the label's own name.
 * @throws RagciError naming the column and how to rename it
 */
export function refuseShadowedColumns(d: Dialect, c: SourceColumns): void {
  if (!d.aliasesHideColumns) return;
  type Role = [what: string, column: string | null | undefined, alias: string];
  const facets: Role[] = c.facets
    ? [
        ["trial", c.facets.trial, "t"],
        ["judge", c.facets.judge, "j"],
        ["variant", c.facets.variant, "w"],
      ]
    : [];
  const roles: Role[] = [
    ["document id", c.doc, "doc"],
    ["system", c.system, "sys"],
    ["query id", c.query, "q"],
    ...facets,
    ...c.metrics.map((m, i): Role => ["metric", m, `v${i}`]),
    ["label", c.label, "lab"],
  ];
  const named = new Set(["doc", "sys", "q", ...c.metrics.map((_, i) => `v${i}`)]);
  if (c.label) named.add("lab");
  if (c.facets) for (const alias of ["t", "j", "w"]) named.add(alias);
  for (const [what, column, alias] of roles) {
    if (!column) continue;
    const hidden =
      (column !== alias && named.has(column)) || (what === "label" && LATER_NAMES.test(column));
    if (hidden) {
      throw new RagciError(
        "invalid-option",
        `the ${what} column ${column}: ragci's ${d.name} statement names a column of its own ${column}, which ${d.name} would read in place of yours; rename yours with ${optionRef("sql")} "SELECT …, ${column} AS ${column}_in, …" and name ${column}_in`,
        { option: "sql" },
      );
    }
  }
}
