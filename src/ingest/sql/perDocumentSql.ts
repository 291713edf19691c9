import { compareCodePoints } from "../../core/aggregate/mergeDocumentStats.js";
import { RagciError } from "../../core/errors.js";
import { differenceName } from "../readPairedAggregates.js";
import type { Dialect } from "./dialects.js";
import { rowChecksSql } from "./rowChecksSql.js";
import { type SourceColumns, type SqlSource, sourceRowsSql } from "./sourceRowsSql.js";

export interface PerDocumentSqlSpec extends SourceColumns {
  readonly source: SqlSource;
  /**
   * Paired differences: the systems (two or more, in code-point order) are joined on the
   * query, and each pair (a, b) adds rows "b - a" of the per-query differences b − a.
   */
  readonly pairs?: readonly (readonly [string, string])[] | null;
}

/** The aggregates of one double expression `x` over `from`, grouped by `keys`. */
function aggregates(d: Dialect, x: string): string {
  return [
    "count(*) AS n",
    `${d.exactSum(x)} AS s`,
    `${d.exactSum(`${x} * ${x}`)} AS ss`,
    `min(${x}) AS ${d.alias("min")}`,
    `max(${x}) AS ${d.alias("max")}`,
  ].join(", ");
}

/**
 * One SELECT (a WITH statement) that turns per-query rows into ragci's per-document table —
 * `system, metric, doc, n, s, ss, min, max`, one row per system × metric × document, the
 * `--aggregated` input — after the checks of rowChecksSql.ts, which fail the statement with
 * their message. For a pair of systems it holds each system's rows on the paired queries and
 * the differences' rows under "b - a", as `compare --write-aggregates` writes them.
 */
export function perDocumentSql(d: Dialect, spec: PerDocumentSqlSpec): string {
  if (spec.metrics.length === 0)
    throw new RagciError("invalid-option", "name the metric column(s) with --metric");
  const pairs = spec.pairs ?? null;
  const systems = pairs ? [...new Set(pairs.flat())].sort(compareCodePoints) : null;
  if (pairs && (!spec.query || !spec.system)) {
    throw new RagciError(
      "invalid-option",
      "paired differences join the systems on the query: name the system column (--system COL=A,B) and the query id column (--query COL)",
    );
  }
  const columns: SourceColumns = { ...spec, systems: systems ?? spec.systems };
  const out = (name: string) => d.alias(name);
  const metric = (m: string) => `${d.string(m)} AS ${out("metric")}`;
  const ctes = [sourceRowsSql(d, spec.source, columns)];
  const selects: string[] = [];
  if (systems && pairs) {
    // One row per query: each system's count and value (max of one value) side by side.
    const wide = [
      "q",
      "min(doc) AS doc",
      "count(DISTINCT doc) AS docs",
      ...systems.map((s, si) => `sum(CASE WHEN sys = ${d.string(s)} THEN 1 ELSE 0 END) AS n${si}`),
      ...systems.flatMap((s, si) =>
        spec.metrics.map(
          (_, mi) => `max(CASE WHEN sys = ${d.string(s)} THEN v${mi} END) AS x${si}_${mi}`,
        ),
      ),
    ];
    ctes.push(
      `ragci_pairs AS (\n  SELECT ${wide.join(",\n    ")}\n  FROM ragci_rows GROUP BY q\n)`,
    );
    ctes.push(rowChecksSql(d, columns, systems));
    spec.metrics.forEach((m, mi) => {
      systems.forEach((s, si) => {
        selects.push(
          `SELECT ${d.string(s)} AS ${out("system")}, ${metric(m)}, doc AS ${out("doc")}, ${aggregates(d, `x${si}_${mi}`)}\n  FROM ragci_pairs GROUP BY doc`,
        );
      });
      for (const [a, b] of pairs) {
        const x = `(x${systems.indexOf(b)}_${mi} - x${systems.indexOf(a)}_${mi})`;
        selects.push(
          `SELECT ${d.string(differenceName(a, b))} AS ${out("system")}, ${metric(m)}, doc AS ${out("doc")}, ${aggregates(d, x)}\n  FROM ragci_pairs GROUP BY doc`,
        );
      }
    });
  } else {
    ctes.push(rowChecksSql(d, columns, null));
    spec.metrics.forEach((m, mi) => {
      selects.push(
        `SELECT sys AS ${out("system")}, ${metric(m)}, doc AS ${out("doc")}, ${aggregates(d, `v${mi}`)}\n  FROM ragci_rows GROUP BY sys, doc`,
      );
    });
  }
  const keys = ["system", "metric", "doc", "n", "s", "ss", "min", "max"].map(
    (k) => `ragci_t.${out(k)}`,
  );
  return `WITH ${ctes.join(",\n")}\nSELECT ${keys.join(", ")}\nFROM (\n  ${selects.join("\n  UNION ALL\n  ")}\n) AS ragci_t CROSS JOIN ragci_guard\nWHERE ragci_guard.ragci_failed IS NULL\nORDER BY ${keys.slice(0, 3).join(", ")}`;
}
