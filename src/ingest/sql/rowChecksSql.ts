import type { RowField } from "../../core/aggregate/rowRules.js";
import type { Dialect } from "./dialects.js";
import { completeQuery, SPLIT_QUERY } from "./pairedQueries.js";
import { countWhere as countRows } from "./perDocumentSums.js";
import { brokenRowSql, ruleNeed } from "./rowConditions.js";
import type { SourceColumns } from "./sourceRowsSql.js";

/** One check: a count over the rows, and what its message says when the count is not 0. */
interface CountedCheck {
  readonly name: string;
  readonly count: string;
  /** The message after the count, e.g. "rows have no doc_id". */
  readonly problem: string;
  /** When the check fails, given its count column; `name > 0` unless said. */
  readonly fails?: string;
}

/**
 * The checks ragci's readers make (validateRows.ts, checkPairedRows.ts; the per-row ones are
 * core's rowRules.ts, rendered by rowConditions.ts), as SQL over
 * `ragci_rows` (and `ragci_pairs` for a paired table): empty ids, NULL, NaN or infinite
 * metrics, a query repeated for a system, an empty label or a document with two, and for pairs a query under two documents or
 * present for one system only (with `intersect`, such queries are left out instead, and only
 * having no query common to every system fails). They end in the CTE `ragci_guard`, one row whose
 * `ragci_failed` is NULL when every check passes and otherwise the CAST of the first failing
 * check's message ("ragci: 3 rows have …") to an integer — which fails the statement with the
 * message, in every dialect, so the printed SQL cannot return a table from bad rows. The
 * message depends on the data, so no planner folds it away.
 */
export function rowChecksSql(
  d: Dialect,
  c: SourceColumns,
  paired: readonly string[] | null,
  intersect = false,
): string {
  const countWhere = (condition: string) => countRows(d, condition);
  const broken = (field: RowField, index?: number) => countWhere(brokenRowSql(d, field, index));
  const rowChecks: CountedCheck[] = [
    {
      name: "no_doc",
      count: broken("document"),
      problem: `rows have no ${c.doc} (NULL or empty); ${ruleNeed("document")}`,
    },
    ...(c.system
      ? [
          {
            name: "no_system",
            count: broken("system"),
            problem: `rows have no ${c.system} (NULL or empty); ${ruleNeed("system")}`,
          },
        ]
      : []),
    ...(c.query
      ? [
          {
            name: "no_query",
            count: broken("query"),
            problem: `rows have no ${c.query} (NULL or empty); ${ruleNeed("query")}`,
          },
        ]
      : []),
    ...c.metrics.map((m, i) => ({
      name: `bad${i}`,
      count: broken("metric", i),
      problem: `rows have ${m} NULL, NaN or infinite; ${ruleNeed("metric")}`,
    })),
    ...(c.label
      ? [
          {
            name: "no_label",
            count: broken("label"),
            problem: `rows have no ${c.label} (NULL or empty); ${ruleNeed("label")}`,
          },
        ]
      : []),
  ];
  const ctes = [
    `ragci_checks AS (\n  SELECT ${rowChecks.map((k) => `${k.count} AS ${k.name}`).join(",\n    ")}\n  FROM ragci_rows\n)`,
  ];
  const later: CountedCheck[] = [];
  if (c.query) {
    ctes.push(
      `ragci_repeats AS (\n  SELECT count(*) AS repeated FROM (SELECT sys, q FROM ragci_rows GROUP BY sys, q HAVING count(*) > 1) AS ragci_r\n)`,
    );
    later.push({
      name: "repeated",
      count: "",
      problem: `queries appear more than once for a system in ${c.query}; each query needs one result per system`,
    });
  }
  if (c.label) {
    ctes.push(
      `ragci_labels AS (\n  SELECT count(*) AS split_label FROM (SELECT doc FROM ragci_rows GROUP BY doc HAVING count(DISTINCT lab) > 1) AS ragci_l\n)`,
    );
    later.push({
      name: "split_label",
      count: "",
      problem: `documents have more than one ${c.label}; a document belongs to one ${c.label}`,
    });
  }
  if (paired) {
    const third = intersect
      ? `${countWhere(completeQuery(paired.length))} AS common`
      : `${countWhere(paired.map((_, si) => `n${si} = 0`).join(" OR "))} AS unpaired`;
    ctes.push(
      `ragci_pair_checks AS (\n  SELECT ${countWhere(SPLIT_QUERY)} AS split, ${third}\n  FROM ragci_pairs\n)`,
    );
    later.push(
      {
        name: "split",
        count: "",
        problem: `queries are under two documents; a query belongs to one document`,
      },
      intersect
        ? {
            name: "common",
            count: "",
            fails: "common = 0",
            problem: `queries have a result for every system (${paired.join(", ")}); nothing to compare`,
          }
        : {
            name: "unpaired",
            count: "",
            problem: `queries have a result for some of the systems (${paired.join(", ")}) but not all; each query needs a result from every system`,
          },
    );
  }
  const message = (k: CountedCheck) =>
    `WHEN ${k.fails ?? `${k.name} > 0`} THEN ${d.string("ragci: ")} || CAST(${k.name} AS ${d.text}) || ${d.string(` ${k.problem}`)}`;
  const sources = [
    "ragci_checks",
    ...(c.query ? ["ragci_repeats"] : []),
    ...(c.label ? ["ragci_labels"] : []),
    ...(paired ? ["ragci_pair_checks"] : []),
  ];
  ctes.push(
    `ragci_guard AS (\n  SELECT ${d.failCast(`CASE\n    ${[...rowChecks, ...later].map(message).join("\n    ")}\n  END`)} AS ragci_failed\n  FROM ${sources.join(" CROSS JOIN ")}\n)`,
  );
  return ctes.join(",\n");
}

/** The message of a failed check in a database's error text (it quotes the value it could not cast). */
export function failedCheckMessage(error: string): string | null {
  const found = /ragci: (\d+ [^"'\n]*?)["'\n]|ragci: (\d+ .*)$/m.exec(error);
  const text = found?.[1] ?? found?.[2];
  return text === undefined ? null : text.replace(/[\\"'.\s]+$/, "");
}
