import { readDatabase } from "../ingest/sql/readDatabase.js";
import {
  aggregating,
  databaseReadOptions,
  describedInput,
  type FromOptions,
} from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import type { LoadedInput } from "./loadInput.js";
import { parseSystemOption, pickSystems } from "./systemFilter.js";

/**
 * analyze --from: the per-document table of the source — the GROUP BY and the row checks run
 * in the database, only K rows per system × metric come back, and they are read as
 * --aggregated.
 */
export async function loadFromDatabase(
  options: FromOptions & { readonly system?: string },
  io: CommandIo,
  designColumn: string | null,
): Promise<LoadedInput> {
  const common = databaseReadOptions(options, designColumn);
  const system = parseSystemOption(options.system);
  io.progress.update(aggregating(common.url));
  const read = await readDatabase({
    ...common,
    system: system?.column ?? null,
    systems: system?.values ?? null,
  });
  return {
    table: { ...read.table, groups: pickSystems(read.table.groups, system, read.name) },
    description: describedInput(read),
    shard: null,
  };
}
