import type { TableRead } from "../readFileTables.js";
import { pickSystems, type Selection } from "../selection.js";
import type { DatabaseSource, ReadOptions } from "../source.js";
import { databaseFacetCellsIfAsked } from "./databaseFacetCellsIfAsked.js";
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
  const faceted = await databaseFacetCellsIfAsked(source, { ...common, system, systems });
  const read = await readDatabase({
    ...common,
    // The averaged rows are read through a SELECT of ragci's; the input is the source given.
    ...(faceted ? { source: faceted.averaged, name: faceted.name } : {}),
    system,
    systems,
  });
  return {
    table: {
      ...read.table,
      groups: pickSystems(read.table.groups, selection, read.name),
      notices: [...(faceted?.notices ?? []), ...read.table.notices],
    },
    description: describedInput(read),
    shard: null,
    run: null,
    ...(faceted ? { cells: pickSystems(faceted.cells, selection, read.name) } : {}),
  };
}
