import type { DuckDBConnection } from "@duckdb/node-api";
import { documentStats } from "../core/aggregate/documentStats.js";
import type { ResultValues } from "../core/bootstrap/chunkBootstrap.js";
import { optionRef, RagciError } from "../core/errors.js";
import { plural } from "../core/plural.js";
import type { DocumentStats } from "../core/types.js";
import { queryRows } from "./duckdb.js";
import type { PairDifference, PairedTable } from "./pairedTable.js";
import type { DocumentRanges } from "./resultsTable.js";
import { dialect } from "./sql/dialects.js";
import {
  completeQuery,
  pairedDifference,
  pairedSumsSql,
  pairedValue,
  unpairedQuery,
} from "./sql/pairedQueries.js";
import type { SumMode } from "./summation.js";

const DUCKDB = dialect("duckdb");

/**
 * The queries every system has, of the paired queries `pairs` (pairedQueries.ts; systems in
 * `systems`' order); without `intersect` a query missing from a system is an error, which
 * names --intersect only where the reading command has it (`intersect` null: it has not).
 * Returns how many queries each system lost, how many are kept, and the condition the kept
 * ones meet.
 */
export async function keepCommonQueries(
  connection: DuckDBConnection,
  systems: readonly string[],
  intersect: boolean | null,
  file: string,
): Promise<{
  readonly dropped: Record<string, number>;
  readonly queries: number;
  readonly kept: string;
}> {
  const count = systems.length;
  const kept = completeQuery(count);
  const counts = await queryRows(
    connection,
    `SELECT ${systems
      .map(
        (_, si) =>
          `count(*) FILTER (WHERE ${unpairedQuery(si, count)}) AS k${si}, min(q) FILTER (WHERE ${unpairedQuery(si, count)}) AS q${si}`,
      )
      .join(", ")}, count(*) FILTER (WHERE ${kept}) AS common FROM pairs`,
  );
  const row = counts[0] ?? {};
  const missing = systems
    .map((sys, si) => ({ sys, k: Number(row[`k${si}`] ?? 0), q: row[`q${si}`] }))
    .filter((m) => m.k > 0);
  const dropped: Record<string, number> = Object.fromEntries(systems.map((s) => [s, 0]));
  for (const m of missing) dropped[m.sys] = m.k;
  if (missing.length > 0 && !intersect) {
    const first = missing[0] as (typeof missing)[number];
    const others = systems.filter((s) => !missing.some((m) => m.sys === s));
    throw new RagciError(
      "invalid-value",
      `${file}: query ${first.q} has a result for ${first.sys} but not for ${others.join(", ") || "every other system"}; ${missing.map((m) => `${m.sys} has ${plural(m.k, "query", "queries")}`).join(", ")} missing from another system. ${intersect === null ? `A pair needs both systems' result for every query here: remove the unpaired queries from the file (ragci compare ${optionRef("intersect")} keeps the common ones)` : `Use ${optionRef("intersect")} to keep the common queries`}`,
      { file, ...(intersect === null ? {} : { option: "intersect" as const }) },
    );
  }
  const queries = Number(row.common ?? 0);
  if (queries === 0) {
    throw new RagciError(
      "invalid-value",
      `${file}: no query has a result for every system (${systems.join(", ")}); nothing to compare`,
      { file },
    );
  }
  return { dropped, queries, kept };
}

export interface PairedSumsSpec {
  readonly systems: readonly string[];
  readonly metrics: readonly string[];
  readonly pairs: readonly (readonly [string, string])[];
  readonly mode: SumMode;
  /** The condition of the paired queries kept (keepCommonQueries). */
  readonly kept: string;
  /** Also return the per-query differences (for the chunk bootstrap). */
  readonly withValues: boolean;
}

/**
 * Each system's per-document sums and each pair's sums of differences b − a, over the kept
 * paired queries of `pairs` (pairedQueries.ts), as a database sums them (perDocumentSql.ts).
 */
export async function pairedSums(
  connection: DuckDBConnection,
  spec: PairedSumsSpec,
): Promise<Pick<PairedTable, "perSystem" | "differences">> {
  const perSystem: PairedTable["perSystem"][number][] = [];
  for (const [si, system] of spec.systems.entries()) {
    for (const [mi, metric] of spec.metrics.entries()) {
      const { stats, ranges } = await documentSums(connection, pairedValue(si, mi), spec);
      perSystem.push({ system, metric, stats, ranges });
    }
  }
  const differences: PairDifference[] = [];
  for (const [a, b] of spec.pairs) {
    for (const [mi, metric] of spec.metrics.entries()) {
      const x = pairedDifference(spec.systems, [a, b], mi);
      const { stats, ranges } = await documentSums(connection, x, spec);
      const differing = await queryRows(
        connection,
        `SELECT count(*) FILTER (WHERE ${x} <> 0) AS k FROM pairs WHERE ${spec.kept}`,
      );
      const values = spec.withValues
        ? await differenceValues(connection, x, spec.kept, stats)
        : undefined;
      differences.push({
        a,
        b,
        metric,
        stats,
        ranges,
        queriesDiffering: Number(differing[0]?.k ?? 0),
        ...(values ? { values } : {}),
      });
    }
  }
  return { perSystem, differences };
}

/**
 * Per-document n, Σx, Σx², range and 0/1-ness of `x` over the kept queries (query order for
 * doubles), and each document's range.
 */
async function documentSums(
  connection: DuckDBConnection,
  x: string,
  spec: Pick<PairedSumsSpec, "mode" | "kept">,
): Promise<{ readonly stats: DocumentStats; readonly ranges: DocumentRanges }> {
  const sql = pairedSumsSql(DUCKDB, {
    from: "pairs",
    where: spec.kept,
    count: "n",
    metric: {
      x,
      mode: spec.mode,
      order: "q",
      columns: [
        ["s", "s"],
        ["ss", "ss"],
        ["min", "lo"],
        ["max", "hi"],
        ["binary", "bin"],
      ],
    },
    ordered: true,
  });
  const rows = await queryRows(connection, sql);
  const ranges = {
    min: Float64Array.from(rows, (r) => r.lo as number),
    max: Float64Array.from(rows, (r) => r.hi as number),
  };
  const stats = documentStats({
    ids: rows.map((r) => String(r.doc)),
    n: rows.map((r) => r.n as number),
    s: rows.map((r) => r.s as number),
    ss: rows.map((r) => r.ss as number),
    binary: rows.every((r) => Number(r.bin) === 1),
    min: rows.reduce((m, r) => Math.min(m, r.lo as number), Number.POSITIVE_INFINITY),
    max: rows.reduce((m, r) => Math.max(m, r.hi as number), Number.NEGATIVE_INFINITY),
    idsDistinct: true,
  });
  return { stats, ranges };
}

async function differenceValues(
  connection: DuckDBConnection,
  x: string,
  kept: string,
  stats: DocumentStats,
): Promise<ResultValues> {
  const rows = await queryRows(
    connection,
    `SELECT ${x} AS v FROM pairs WHERE ${kept} ORDER BY query_doc, v`,
  );
  const offsets = new Uint32Array(stats.n.length + 1);
  for (let d = 0; d < stats.n.length; d++)
    offsets[d + 1] = (offsets[d] as number) + (stats.n[d] as number);
  return { offsets, values: Float64Array.from(rows, (r) => r.v as number) };
}
