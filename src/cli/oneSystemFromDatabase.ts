import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { oneSystemGroup } from "../ingest/readOneSystem.js";
import { onlyDifference } from "../ingest/readPairedResults.js";
import { type DatabaseRead, readDatabase, readDatabasePairs } from "../ingest/sql/readDatabase.js";
import { aggregating, databaseReadOptions, type FromOptions } from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import { oneSystemOrPair } from "./oneSystemOrPair.js";

/** One system's per-document sums of one metric, or a pair's differences, from a database. */
export interface OneSystemRead {
  readonly stats: DocumentStats;
  readonly metric: string;
  /** The pair differenced (b − a per query, joined on the query inside the database). */
  readonly pair: { readonly a: string; readonly b: string } | null;
  /** The system named with --system COL=A; null for a pair or the source's only system. */
  readonly system: string | null;
  /** Systems in the source (2 for a pair). */
  readonly systemsFound: number;
  /** Each document's `documentLabel` value (a two-stage study's unit), aligned with stats.ids. */
  readonly labels: readonly string[] | null;
  readonly read: DatabaseRead<unknown>;
}

/**
 * plan, strata and simulate --from: --system COL=A (or the source's one system) read as its
 * per-document sums, or COL=A,B as the per-document sums of the per-query differences B − A,
 * with one metric — the database's K rows, checked as readOneSystem and readPairedResults check
 * a file's — and each document's `documentLabel` when asked for.
 *
 * @throws RagciError for more than one metric, a missing system, or several without --system
 */
export async function oneSystemFromDatabase(
  options: FromOptions & { readonly system?: string; readonly query?: string },
  command: string,
  io: CommandIo,
  documentLabel: string | null = null,
): Promise<OneSystemRead> {
  const common = databaseReadOptions(options, documentLabel);
  const system = oneSystemOrPair(options.system);
  const values = system?.values ?? null;
  if (common.metrics.length !== 1)
    throw new RagciError("invalid-option", `${command} uses one metric: name it with --metric`);
  io.progress.update(aggregating(common.url));
  if (system && values?.length === 2) {
    const [a, b] = values as [string, string];
    const read = await readDatabasePairs({
      ...common,
      system: system.column,
      systems: [a, b],
      query: options.query ?? null,
      pairs: () => [[a, b]],
    });
    const { stats, metric, labels } = onlyDifference(read.table);
    return { stats, metric, pair: { a, b }, system: null, systemsFound: 2, labels, read };
  }
  // Every system's K rows come back, so a misspelt system is named with those found.
  const read = await readDatabase({
    ...common,
    system: system?.column ?? null,
    systemIfPresent: system ? null : "system",
  });
  const filter = system ? { column: system.column, value: values?.[0] ?? "" } : null;
  const group = oneSystemGroup(read.table, filter, read.name, command);
  return {
    stats: group.stats,
    metric: group.metric,
    pair: null,
    system: values?.[0] ?? null,
    systemsFound: new Set(read.table.groups.map((g) => g.system)).size,
    labels: group.labels ?? null,
    read,
  };
}
