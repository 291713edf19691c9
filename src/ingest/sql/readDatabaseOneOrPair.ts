import { optionRef, RagciError } from "../../core/errors.js";
import type { OneOrPairOptions, OneOrPairRead } from "../oneOrPair.js";
import { oneSystemGroup } from "../readOneSystem.js";
import { onlyDifference } from "../readPairedResults.js";
import type { Selection } from "../selection.js";
import type { DatabaseSource } from "../source.js";
import { databaseFacetCellsIfAsked } from "./databaseFacetCellsIfAsked.js";
import { aggregating, databaseReadOptions } from "./databaseReadOptions.js";
import { type DatabaseRead, readDatabase, readDatabasePairs } from "./readDatabase.js";

/**
 * readOneOrPair of a database: the system (or the source's one system) read as its
 * per-document sums, or the pair as the per-document sums of the per-query differences b − a
 * joined on the query inside the database — its K rows, checked as a file's are — with each
 * document's `documentLabel` when asked for.
 *
 * @throws RagciError for other than one metric, a missing system, or several without one named
 */
export async function readDatabaseOneOrPair(
  source: DatabaseSource,
  selection: Selection,
  pair: { readonly a: string; readonly b: string } | null,
  options: OneOrPairOptions,
): Promise<OneOrPairRead> {
  const common = databaseReadOptions(source, selection, options.documentLabel ?? null);
  if (common.metrics.length !== 1)
    throw new RagciError(
      "invalid-option",
      `${options.usedBy} uses one metric: name it with ${optionRef("metric")}`,
      { option: "metric" },
    );
  options.progress?.status(aggregating(common.url));
  const described = (read: DatabaseRead<unknown>) => ({
    file: read.name,
    sha256: read.sqlSha256,
    format: read.warehouse,
    kind: "per-document" as const,
  });
  const column = selection.systemColumn ?? null;
  const systems = pair ? [pair.a, pair.b] : (selection.systems ?? null);
  // With facets: the cells from the database, and the per-document sums (or the pair's) of
  // each query's mean, averaged in the database, as a file's plan reads its averaged table.
  const faceted = await databaseFacetCellsIfAsked(source, {
    ...common,
    system: column,
    systems,
    systemIfPresent: column ? null : "system",
  });
  const averaged = faceted ? { source: faceted.averaged, name: faceted.name } : {};
  const cells = faceted
    ? {
        cells: faceted.cells.filter(
          (c) => !systems || (c.system !== null && systems.includes(c.system)),
        ),
      }
    : {};
  if (pair) {
    const { a, b } = pair;
    const read = await readDatabasePairs({
      ...common,
      ...averaged,
      system: column as string,
      systems: [a, b],
      query: faceted?.query ?? source.query ?? null,
      pairs: () => [[a, b]],
    });
    const { stats, metric, labels } = onlyDifference(read.table);
    return {
      stats,
      metric,
      pair,
      system: null,
      systemsFound: 2,
      labels,
      ...cells,
      description: described(read),
    };
  }
  // Every system's K rows come back, so a misspelt system is named with those found.
  const read = await readDatabase({
    ...common,
    ...averaged,
    system: faceted ? faceted.system : column,
    systemIfPresent: column ? null : "system",
  });
  const group = oneSystemGroup(read.table, selection, read.name, options.usedBy);
  return {
    stats: group.stats,
    metric: group.metric,
    pair: null,
    system: selection.systems?.[0] ?? null,
    systemsFound: new Set(read.table.groups.map((g) => g.system)).size,
    labels: group.labels ?? null,
    ...cells,
    description: described(read),
  };
}
