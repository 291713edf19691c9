import { optionRef, RagciError } from "../../core/errors.js";
import type { PairsRead } from "../readFilePairs.js";
import { pairChoice, type Selection } from "../selection.js";
import type { DatabaseSource, ReadOptions } from "../source.js";
import { databaseFacetCellsIfAsked } from "./databaseFacetCellsIfAsked.js";
import { aggregating, databaseReadOptions, describedInput } from "./databaseReadOptions.js";
import { readDatabasePairs } from "./readDatabase.js";

/**
 * The systems of a database source joined on the query and differenced inside the database
 * (each system's and each pair's per-document sums come back), the pairs chosen by core's
 * policy once the systems are known; the same shape as a paired read of files.
 *
 * @throws RagciError without a system column (the column the systems are told apart by)
 */
export async function readDatabasePairedTables(
  source: DatabaseSource,
  selection: Selection,
  options: ReadOptions,
): Promise<PairsRead> {
  const common = databaseReadOptions(source, selection, options.documentLabel ?? null);
  const column = selection.systemColumn;
  if (!column)
    throw new RagciError(
      "invalid-option",
      `${optionRef("url")}: name the system column with ${optionRef("system")} COL (or COL=A,B)`,
      { option: "system" },
    );
  const policy = pairChoice(selection);
  options.progress?.status(aggregating(common.url));
  const systems = selection.systems ?? null;
  // With facets: the cells from the database, and the pairing on each query's mean (the rows
  // averaged per query in the database), as a file's compare pairs its averaged table.
  const faceted = await databaseFacetCellsIfAsked(source, { ...common, system: column, systems });
  const read = await readDatabasePairs({
    ...common,
    ...(faceted ? { source: faceted.averaged, name: faceted.name } : {}),
    system: column,
    systems,
    query: faceted?.query ?? source.query ?? null,
    intersect: selection.intersect ?? false,
    pairs: policy.pairs,
  });
  const { table } = read;
  return {
    table,
    inputs: [describedInput(read)],
    notices: faceted?.notices ?? [],
    mode: policy.mode,
    pairs: policy.pairs,
    ...(faceted
      ? {
          cells: faceted.cells.filter((c) => c.system !== null && table.systems.includes(c.system)),
        }
      : {}),
  };
}
