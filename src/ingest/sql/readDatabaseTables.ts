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
  const read = await readDatabase({
    ...common,
    system: selection.systemColumn ?? null,
    systems: selection.systems ?? null,
  });
  return {
    table: { ...read.table, groups: pickSystems(read.table.groups, selection, read.name) },
    description: describedInput(read),
    shard: null,
    run: null,
  };
}
