import { ROW_RULES, type RowField } from "../../core/aggregate/rowRules.js";
import type { Dialect } from "./dialects.js";

/** The normalised column each id rule reads (normalizedRows.ts, sourceRowsSql.ts). */
const ID_COLUMN = { document: "doc", system: "sys", query: "q", label: "lab" } as const;

/**
 * The SQL condition a row breaking `field`'s rule (core's rowRules.ts) meets, in dialect `d`,
 * over the readers' normalised rows: doc, sys, q and lab as text, metric `index` as v`index`.
 * Files (validateRows.ts) and databases (rowChecksSql.ts) test rows with it.
 */
export function brokenRowSql(d: Dialect, field: RowField, index = 0): string {
  if (field === "metric") return `v${index} IS NULL OR NOT (${d.finite(`v${index}`)})`;
  const column = ID_COLUMN[field];
  return `${column} IS NULL OR ${d.blank(column)}`;
}

/** Why a row breaking `field`'s rule is refused ("every row needs a document id"). */
export function ruleNeed(field: RowField): string {
  return ROW_RULES[field].need;
}
