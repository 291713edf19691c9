import type { DuckDBConnection } from "@duckdb/node-api";
import { documentStats } from "../core/aggregate/documentStats.js";
import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import { optionRef, RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { queryRows } from "./duckdb.js";
import type { PairDifference, PairedTable } from "./readPairedResults.js";
import { dialect } from "./sql/dialects.js";
import { groupedSumsSql } from "./sql/perDocumentSums.js";
import type { SumMode } from "./summation.js";

const DUCKDB = dialect("duckdb");

/** "1 system", "3 systems"; `many` for irregular plurals ("queries"). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}

/**
 * Keeps (as table `common`) the queries every system has; without `intersect` a query
 * missing from a system is an error. Returns how many queries each system lost.
 */
export async function keepCommonQueries(
  connection: DuckDBConnection,
  systems: readonly string[],
  intersect: boolean,
  file: string,
): Promise<Record<string, number>> {
  const count = systems.length;
  await connection.run(
    `CREATE TEMP TABLE shared AS SELECT q FROM src GROUP BY q HAVING count(*) = ${count}`,
  );
  const missing = await queryRows(
    connection,
    "SELECT sys, count(*) AS k, min(q) AS q FROM src WHERE q NOT IN (SELECT q FROM shared) GROUP BY sys ORDER BY sys",
  );
  const dropped: Record<string, number> = Object.fromEntries(systems.map((s) => [s, 0]));
  for (const row of missing) dropped[String(row.sys)] = Number(row.k);
  const total = missing.reduce((t, r) => t + Number(r.k), 0);
  if (total > 0 && !intersect) {
    const first = missing[0] as Record<string, unknown>;
    const others = systems.filter((s) => !missing.some((r) => r.sys === s));
    throw new RagciError(
      "invalid-value",
      `${file}: query ${first.q} has a result for ${first.sys} but not for ${others.join(", ") || "every other system"}; ${missing.map((r) => `${r.sys} has ${plural(Number(r.k), "query", "queries")}`).join(", ")} missing from another system. Use ${optionRef("intersect")} to keep the common queries`,
      { file, option: "intersect" },
    );
  }
  await connection.run(
    "CREATE TEMP TABLE common AS SELECT * FROM src WHERE q IN (SELECT q FROM shared)",
  );
  const left = await queryRows(connection, "SELECT count(*) AS k FROM shared");
  if (Number(left[0]?.k ?? 0) === 0) {
    throw new RagciError(
      "invalid-value",
      `${file}: no query has a result for every system (${systems.join(", ")}); nothing to compare`,
      { file },
    );
  }
  return dropped;
}

export interface PairedSumsSpec {
  readonly systems: readonly string[];
  readonly metrics: readonly string[];
  readonly pairs: readonly (readonly [string, string])[];
  readonly mode: SumMode;
  /** Also return the per-query differences (for the chunk bootstrap). */
  readonly withValues: boolean;
}

/** Each system's per-document sums and each pair's sums of differences b − a, from `wide`. */
export async function pairedSums(
  connection: DuckDBConnection,
  spec: PairedSumsSpec,
): Promise<Pick<PairedTable, "perSystem" | "differences">> {
  const perSystem: PairedTable["perSystem"][number][] = [];
  for (const [si, system] of spec.systems.entries()) {
    for (const [mi, metric] of spec.metrics.entries()) {
      const stats = await documentSums(connection, `s${si}_${mi}`, spec.mode);
      perSystem.push({ system, metric, stats });
    }
  }
  const differences: PairDifference[] = [];
  for (const [a, b] of spec.pairs) {
    const ai = spec.systems.indexOf(a);
    const bi = spec.systems.indexOf(b);
    for (const [mi, metric] of spec.metrics.entries()) {
      const x = `(s${bi}_${mi} - s${ai}_${mi})`;
      const stats = await documentSums(connection, x, spec.mode);
      const differing = await queryRows(
        connection,
        `SELECT count(*) FILTER (WHERE ${x} <> 0) AS k FROM wide`,
      );
      const values = spec.withValues ? await differenceValues(connection, x, stats) : undefined;
      differences.push({
        a,
        b,
        metric,
        stats,
        queriesDiffering: Number(differing[0]?.k ?? 0),
        ...(values ? { values } : {}),
      });
    }
  }
  return { perSystem, differences };
}

/** Per-document n, Σx, Σx², range and 0/1-ness of `x` over `wide` (query order for doubles). */
async function documentSums(
  connection: DuckDBConnection,
  x: string,
  mode: SumMode,
): Promise<DocumentStats> {
  const sql = groupedSumsSql(DUCKDB, {
    from: "wide",
    keys: [["doc", "doc"]],
    count: "n",
    metrics: [
      {
        x,
        mode,
        order: "q",
        columns: [
          ["s", "s"],
          ["ss", "ss"],
          ["min", "lo"],
          ["max", "hi"],
          ["binary", "bin"],
        ],
      },
    ],
    ordered: true,
  });
  const rows = await queryRows(connection, sql);
  return documentStats({
    ids: rows.map((r) => String(r.doc)),
    n: rows.map((r) => r.n as number),
    s: rows.map((r) => r.s as number),
    ss: rows.map((r) => r.ss as number),
    binary: rows.every((r) => Number(r.bin) === 1),
    min: rows.reduce((m, r) => Math.min(m, r.lo as number), Number.POSITIVE_INFINITY),
    max: rows.reduce((m, r) => Math.max(m, r.hi as number), Number.NEGATIVE_INFINITY),
    idsDistinct: true,
  });
}

async function differenceValues(
  connection: DuckDBConnection,
  x: string,
  stats: DocumentStats,
): Promise<ResultValues> {
  const rows = await queryRows(connection, `SELECT ${x} AS v FROM wide ORDER BY doc, v`);
  const offsets = new Uint32Array(stats.n.length + 1);
  for (let d = 0; d < stats.n.length; d++)
    offsets[d + 1] = (offsets[d] as number) + (stats.n[d] as number);
  return { offsets, values: Float64Array.from(rows, (r) => r.v as number) };
}
