import { RagciError } from "../core/errors.js";
import type { Shard } from "./mergeShards.js";

/**
 * Refuses shards that hold the same system × metric as different kinds of metric: 0/1 in
 * one shard and a score (some value other than 0 and 1) in another. Their sums would add, but
 * the merged table would claim one kind for numbers of two meanings (a hit column in one
 * shard, an MRR column under the same name in another).
 */
export function checkShardKinds(shards: readonly Shard[]): void {
  const seen = new Map<string, { file: string; binary: boolean }>();
  for (const { file, groups } of shards) {
    for (const { system, metric, stats } of groups) {
      const key = JSON.stringify([system, metric]);
      const before = seen.get(key);
      if (before === undefined) {
        seen.set(key, { file, binary: stats.binary });
        continue;
      }
      if (before.binary === stats.binary) continue;
      const [binaryFile, scoreFile] = before.binary ? [before.file, file] : [file, before.file];
      const what = system === null ? `metric ${metric}` : `metric ${metric} of system ${system}`;
      throw new RagciError(
        "invalid-value",
        `${what} is 0/1 in ${binaryFile} but a score in ${scoreFile}; shards must hold the same metric: check that the column means the same in both, or rename one`,
        { file: scoreFile, column: metric },
      );
    }
  }
}
