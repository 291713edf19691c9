import { optionRef, RagciError } from "../../core/errors.js";
import type { PairsRead } from "../readFilePairs.js";
import { pairChoice, type Selection } from "../selection.js";
import type { DatabaseSource, ReadOptions } from "../source.js";
import {
  aggregating,
  databaseReadOptions,
  describedInput,
  refuseDatabaseFacets,
} from "./databaseReadOptions.js";
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
  refuseDatabaseFacets(source, "compare");
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
  const read = await readDatabasePairs({
    ...common,
    system: column,
    systems: selection.systems ?? null,
    query: source.query ?? null,
    intersect: selection.intersect ?? false,
    pairs: policy.pairs,
  });
  return {
    table: read.table,
    inputs: [describedInput(read)],
    notices: [],
    mode: policy.mode,
    pairs: policy.pairs,
  };
}
