import { RagciError } from "../core/errors.js";
import { readDatabasePairs } from "../ingest/sql/readDatabase.js";
import {
  aggregating,
  databaseReadOptions,
  describedInput,
  type FromOptions,
} from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import type { LoadedPairs } from "./loadPairedInput.js";
import { pairPolicy } from "./pairPolicy.js";
import type { SystemOption } from "./systemFilter.js";

/**
 * compare --from: the systems joined on the query and differenced inside the database (each
 * system's and each pair's per-document sums come back), the pairs chosen by core's policy
 * once the systems are known; the same shape as loadPairedInput's.
 *
 * @throws RagciError without --system (the column the systems are told apart by)
 */
export async function loadPairedFromDatabase(
  options: FromOptions & {
    readonly query?: string;
    readonly baseline?: string;
    readonly allPairs?: boolean;
    readonly intersect?: boolean;
  },
  metrics: readonly string[],
  systemOption: SystemOption | null,
  documentLabel: string | null,
  io: CommandIo,
): Promise<LoadedPairs> {
  const common = databaseReadOptions({ ...options, metric: metrics }, documentLabel);
  if (!systemOption)
    throw new RagciError(
      "invalid-option",
      "--from: name the system column with --system COL (or COL=A,B)",
    );
  const policy = pairPolicy(options);
  io.progress.update(aggregating(common.url));
  const read = await readDatabasePairs({
    ...common,
    system: systemOption.column,
    systems: systemOption.values,
    query: options.query ?? null,
    intersect: options.intersect ?? false,
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
