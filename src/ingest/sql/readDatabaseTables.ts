import { hasFacets } from "../facetRequest.js";
import type { TableRead } from "../readFileTables.js";
import { pickSystems, type Selection } from "../selection.js";
import type { DatabaseSource, ReadOptions } from "../source.js";
import { aggregating, databaseReadOptions, describedInput } from "./databaseReadOptions.js";
import { readDatabase } from "./readDatabase.js";

/**
 * The per-document tables of a database source — the GROUP BY and the row checks run in the
 * database, only K rows per system × metric come back, and they are read as aggregated.
 */
export async function readDatabaseTables(
  source: DatabaseSource,
  selection: Selection,
  options: ReadOptions,
): Promise<TableRead> {
  const common = databaseReadOptions(source, selection, options.documentLabel ?? null);
  options.progress?.status(aggregating(common.url));
  const system = selection.systemColumn ?? null;
  const systems = selection.systems ?? null;
  // With facets: the cells from the database, and the per-document path on each query's mean.
  const faceted = hasFacets(source)
    ? await (await import("./readDatabaseFacetCells.js")).readDatabaseFacetCells({
        ...common,
        system,
        systems,
        query: source.query ?? null,
        trial: source.trial ?? null,
        judge: source.judge ?? null,
        variant: source.variant ?? null,
      })
    : null;
  const read = await readDatabase({
    ...common,
    ...(faceted ? { source: faceted.averaged } : {}),
    system,
    systems,
  });
  // The averaged rows are read through a SELECT of ragci's; the input is the source given.
  const named = faceted ? { ...read, name: faceted.name } : read;
  return {
    table: {
      ...read.table,
      groups: pickSystems(read.table.groups, selection, named.name),
      notices: [...(faceted?.notices ?? []), ...read.table.notices],
    },
    description: describedInput(named),
    shard: null,
    run: null,
    ...(faceted ? { cells: pickSystems(faceted.cells, selection, named.name) } : {}),
  };
}
