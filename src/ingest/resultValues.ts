import type { DuckDBConnection } from "@duckdb/node-api";
import { sqlIdentifier, sqlString } from "./inputFormat.js";
import { textOf } from "./normalizedRows.js";
import type { MetricAggregates } from "./resultsTable.js";

export interface ResultValuesSource {
  readonly connection: DuckDBConnection;
  /** The input file's table function. */
  readonly source: string;
  readonly documentColumn: string;
  readonly systemColumn: string | null;
  /** Only systems with at most this many results get their values. */
  readonly limit: number;
}

/**
 * Attaches the per-query values of each non-binary metric (for the chunk bootstrap):
 * documents in id order, values sorted inside each document, so the order does not depend on
 * the file's row order.
 */
export async function withResultValues(
  groups: readonly MetricAggregates[],
  c: ResultValuesSource,
): Promise<MetricAggregates[]> {
  const out: MetricAggregates[] = [];
  for (const group of groups) {
    const total = group.stats.n.reduce((a, b) => a + b, 0);
    if (group.stats.binary || total > c.limit) {
      out.push(group);
      continue;
    }
    const metric = sqlIdentifier(group.metric);
    const system =
      c.systemColumn === null
        ? ""
        : `WHERE ${textOf(c.systemColumn)} = ${sqlString(String(group.system))}`;
    const reader = await c.connection.runAndReadAll(
      `SELECT ${textOf(c.documentColumn)} AS doc, CAST(${metric} AS DOUBLE) AS v FROM ${c.source} ${system} ORDER BY doc, v`,
    );
    const [, values] = reader.getColumnsJS() as [string[], number[]];
    const offsets = new Uint32Array(group.stats.n.length + 1);
    for (let d = 0; d < group.stats.n.length; d++)
      offsets[d + 1] = (offsets[d] as number) + (group.stats.n[d] as number);
    out.push({ ...group, values: { offsets, values: Float64Array.from(values) } });
  }
  return out;
}
