import { compareCodePoints } from "../../core/aggregate/mergeDocumentStats.js";
import { optionRef, RagciError } from "../../core/errors.js";
import { AGGREGATE_COLUMNS, refuseAggregateNamedLabel } from "../aggregateColumns.js";
import { differenceName } from "../readPairedAggregates.js";
import type { Dialect } from "./dialects.js";
import {
  completeQuery,
  pairedDifference,
  pairedQueriesSql,
  pairedSumsSql,
  pairedValue,
  unpairedQuery,
} from "./pairedQueries.js";
import { countWhere, groupedSumsSql, type MetricSums } from "./perDocumentSums.js";
import { rowChecksSql } from "./rowChecksSql.js";
import { type SourceColumns, type SqlSource, sourceRowsSql } from "./sourceRowsSql.js";

export interface PerDocumentSqlSpec extends SourceColumns {
  readonly source: SqlSource;
  /**
   * Paired differences: the systems (two or more, in code-point order) are joined on the
   * query, and each pair (a, b) adds rows "b - a" of the per-query differences b − a.
   */
  readonly pairs?: readonly (readonly [string, string])[] | null;
  /**
   * Pairs only: keep the queries every system has (the file path's --intersect) instead of
   * failing on the others; dropped counts what was left out.
   */
  readonly intersect?: boolean;
}

/** What each database sums of a metric: the per-document table's columns (exact sums). */
const TABLE_SUMS = (x: string): MetricSums => ({
  x,
  mode: "decimal",
  columns: [
    ["s", "s"],
    ["ss", "ss"],
    ["min", "min"],
    ["max", "max"],
  ],
});

/** Systems of the pairs, in code-point order (the order of ragci_pairs' n0, n1, …). */
export function pairedSystems(pairs: readonly (readonly [string, string])[]): string[] {
  return [...new Set(pairs.flat())].sort(compareCodePoints);
}

/** The CTE ragci_pairs: the systems' rows matched on the query (pairedQueries.ts). */
function pairsCte(d: Dialect, systems: readonly string[], metrics: number, label: boolean): string {
  const pairs = pairedQueriesSql(d, { from: "ragci_rows", systems, metrics, label });
  return `ragci_pairs AS (\n  ${pairs}\n)`;
}

/**
 * For a paired `intersect` read: per system (in code-point order, columns dropped0, dropped1,
 * …), the queries left out because another system has no result for them — run after the
 * per-document statement has passed its checks.
 */
export function droppedQueriesSql(d: Dialect, spec: PerDocumentSqlSpec): string {
  const pairs = spec.pairs ?? [];
  if (pairs.length === 0 || !spec.query || !spec.system)
    throw new RagciError("invalid-option", "dropped queries are counted for paired systems only");
  const systems = pairedSystems(pairs);
  const counts = systems.map(
    (_, si) => `${countWhere(d, unpairedQuery(si, systems.length))} AS dropped${si}`,
  );
  return `WITH ${sourceRowsSql(d, spec.source, { ...spec, systems })},\n${pairsCte(d, systems, spec.metrics.length, false)}\nSELECT ${counts.join(", ")}\nFROM ragci_pairs`;
}

/**
 * One SELECT (a WITH statement) that turns per-query rows into ragci's per-document table —
 * `system, metric, doc, n, s, ss, min, max` (and the label column, under its own name, when
 * there is one), one row per system × metric × document, the `--aggregated` input — after
 * the checks of rowChecksSql.ts, which fail the statement with
 * their message. For a pair of systems it holds each system's rows on the paired queries and
 * the differences' rows under "b - a", as `compare --write-aggregates` writes them.
 */
export function perDocumentSql(d: Dialect, spec: PerDocumentSqlSpec): string {
  if (spec.metrics.length === 0)
    throw new RagciError(
      "invalid-option",
      `name the metric column(s) with ${optionRef("metric")}`,
      { option: "metric" },
    );
  // The label is the caller's documentLabel (the label option, or a design's column, which is
  // refused before).
  refuseAggregateNamedLabel(spec.label);
  const pairs = spec.pairs ?? null;
  const systems = pairs ? pairedSystems(pairs) : null;
  if (pairs && (!spec.query || !spec.system)) {
    throw new RagciError(
      "invalid-option",
      `paired differences join the systems on the query: name the system column (${optionRef("system")} COL=A,B) and the query id column (${optionRef("query")} COL)`,
      { option: "system" },
    );
  }
  const columns: SourceColumns = { ...spec, systems: systems ?? spec.systems };
  const out = (name: string) => d.alias(name);
  const metric = (m: string) => `${d.string(m)} AS ${out("metric")}`;
  const label = (column: string) => (spec.label ? [`min(${column}) AS ${out(spec.label)}`] : []);
  const ctes = [sourceRowsSql(d, spec.source, columns)];
  const selects: string[] = [];
  if (systems && pairs) {
    ctes.push(pairsCte(d, systems, spec.metrics.length, Boolean(spec.label)));
    ctes.push(rowChecksSql(d, columns, systems, spec.intersect ?? false));
    const where = spec.intersect ? completeQuery(systems.length) : undefined;
    const perQuery = (system: string, m: string, x: string) =>
      pairedSumsSql(d, {
        from: "ragci_pairs",
        leading: [`${d.string(system)} AS ${out("system")}`, metric(m)],
        count: "n",
        metric: TABLE_SUMS(x),
        trailing: label("query_lab"),
        ...(where ? { where } : {}),
        ordered: false,
      });
    spec.metrics.forEach((m, mi) => {
      systems.forEach((s, si) => {
        selects.push(perQuery(s, m, pairedValue(si, mi)));
      });
      for (const pair of pairs)
        selects.push(perQuery(differenceName(...pair), m, pairedDifference(systems, pair, mi)));
    });
  } else {
    ctes.push(rowChecksSql(d, columns, null));
    spec.metrics.forEach((m, mi) => {
      selects.push(
        groupedSumsSql(d, {
          from: "ragci_rows",
          keys: [
            ["sys", "system"],
            ["doc", "doc"],
          ],
          leading: [metric(m)],
          count: "n",
          metrics: [TABLE_SUMS(`v${mi}`)],
          trailing: label("lab"),
          ordered: false,
        }),
      );
    });
  }
  const keys = [...AGGREGATE_COLUMNS, ...(spec.label ? [spec.label] : [])].map(
    (k) => `ragci_t.${out(k)}`,
  );
  return `WITH ${ctes.join(",\n")}\nSELECT ${keys.join(", ")}\nFROM (\n  ${selects.join("\n  UNION ALL\n  ")}\n) AS ragci_t CROSS JOIN ragci_guard\nWHERE ragci_guard.ragci_failed IS NULL\nORDER BY ${keys.slice(0, 3).join(", ")}`;
}
