import { RagciError } from "../core/errors.js";
import { refuseAggregateNamedLabel } from "./aggregateColumns.js";
import { requireDistinctFiles, requireDistinctInputs, requireDistinctRuns } from "./identity.js";
import { type PairsRead, readFilePairs } from "./readFilePairs.js";
import { readFileTable, type TableRead } from "./readFileTables.js";
import { type OneOrPairOptions, type OneOrPairRead, readOneOrPair } from "./readOneOrPair.js";
import type { Selection } from "./selection.js";
import { requireDisjointShards } from "./shardOverlap.js";
import { isDatabaseSource, type ReadOptions, type Source } from "./source.js";

/** What a read returns: per-document tables, a pairing, or one system (or pair) of one metric. */
export type ReadShape = "tables" | "pairs" | "one";

/**
 * Every source becomes per-document tables through here — files (tables, tools' outputs,
 * stdin) or a database — shaped as asked:
 *
 * - `tables`: each input's per-document tables of the selected systems × metrics, in order
 *   (a database first), with each input's description (file, SHA-256, format, rows, kind);
 *   shards of one system × metric are merged by the caller (mergeShards).
 * - `pairs`: the systems paired on the query (one file with a system column, one file per
 *   system, or a database), each system's and each chosen pair's per-document sums.
 * - `one`: one system's per-document sums of one metric, or two systems' paired differences
 *   (a census for a study, a pilot for a plan, strata's census).
 *
 * A database's client and SQL load only when a database source is read, e.g. `readSource({ url:
 * "postgresql://me@db/eval", table: "results", env: {} }, { systemColumn: "system", systems:
 * ["bm25", "tfidf"], metrics: ["hit5"] }, { read: "one", usedBy: "study" })`.
 *
 * @example // the repository's example file: bm25's results cover 98 documents (awk agrees)
 *   await readSource({ files: ["examples/covidqa-retrieval.csv"], doc: "doc_id" }, { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] }, { read: "tables" })
 *     .then((read) => read[0].table.groups.map((g) => [g.system, g.metric, g.stats.ids.length]))
 *   // => [["bm25", "hit5", 98]]
 */
export async function readSource(
  source: Source,
  selection: Selection,
  options: ReadOptions & { readonly read: "tables" },
): Promise<TableRead[]>;
export async function readSource(
  source: Source,
  selection: Selection,
  options: ReadOptions & { readonly read: "pairs" },
): Promise<PairsRead>;
export async function readSource(
  source: Source,
  selection: Selection,
  options: OneOrPairOptions & { readonly read: "one" },
): Promise<OneOrPairRead>;
export async function readSource(
  source: Source,
  selection: Selection,
  options:
    | (ReadOptions & { readonly read: "tables" | "pairs" })
    | (OneOrPairOptions & { readonly read: "one" }),
): Promise<TableRead[] | PairsRead | OneOrPairRead> {
  refuseAggregateNamedLabel(options.documentLabel);
  if (options.read === "one") return readOneOrPair(source, selection, options);
  if (!isDatabaseSource(source) && source.files.length === 0)
    throw new RagciError("invalid-option", "no input: give the results files, or a database");
  if (options.read === "pairs") {
    if (isDatabaseSource(source)) {
      const { readDatabasePairedTables } = await import("./sql/readDatabasePairedTables.js");
      return readDatabasePairedTables(source, selection, options);
    }
    requireDistinctFiles(source.files);
    return readFilePairs(source, selection, options);
  }
  if (isDatabaseSource(source)) {
    const { readDatabaseTables } = await import("./sql/readDatabaseTables.js");
    return [await readDatabaseTables(source, selection, options)];
  }
  const reads: TableRead[] = [];
  for (const file of source.files)
    reads.push(await readFileTable(file, source, selection, options));
  // Each input once, and no query in two shards: nothing is counted twice.
  requireDistinctInputs(reads.map((r) => r.description));
  requireOneSystemLayout(reads);
  requireDistinctRuns(reads.map((r) => ({ file: r.description.file, run: r.run })));
  const shards = reads.flatMap((r) => (r.shard ? [r.shard] : []));
  const notices = await requireDisjointShards(shards, source.threads);
  const last = reads[reads.length - 1];
  if (notices.length > 0 && last)
    reads[reads.length - 1] = {
      ...last,
      table: { ...last.table, notices: [...last.table.notices, ...notices] },
    };
  return reads;
}

/**
 * Shards with a system column and shards without one: the latter's rows would be an unnamed
 * system of their own, and a document split across both kinds counted in each. Refused.
 */
function requireOneSystemLayout(reads: readonly TableRead[]): void {
  const named = reads.find((r) => r.table.systemColumn !== null);
  const bare = reads.find((r) => r.table.systemColumn === null);
  if (!named || !bare) return;
  throw new RagciError(
    "invalid-value",
    `${bare.description.file}: has no system column, while ${named.description.file} has one (${named.table.systemColumn}); the shards of one evaluation need the same columns: add the column, or analyse the files apart`,
    { file: bare.description.file },
  );
}
