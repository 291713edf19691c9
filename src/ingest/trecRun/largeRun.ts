import { stat } from "node:fs/promises";
import type { EvalFormat, EvalReadOptions, EvalRows } from "../evalFormats/evalRows.js";
import { sniffEvalFormat } from "../evalFormats/readEvalContent.js";
import { runInputs } from "./scoreRun.js";
import { type RunProgress, scoreRunOutOfCore } from "./scoreRunOutOfCore.js";

/**
 * From this size a TREC run is scored out of core rather than read whole: a JavaScript string
 * holds at most 2²⁹ − 24 characters (about 512 MiB of ASCII), and the in-memory reader needs
 * several times the file in memory (10⁷ lines, 363 MB: 2.8 GB).
 */
export const LARGE_RUN_BYTES = 256 * 2 ** 20;

/** Whether the file is a TREC run (named, or detected from its first 64 KiB) of `limit` bytes or more. */
export async function isLargeRun(
  path: string,
  declared: EvalFormat | null,
  limit: number = LARGE_RUN_BYTES,
): Promise<boolean> {
  const { size } = await stat(path);
  if (size < limit) return false;
  const format = declared ?? (await sniffEvalFormat(path));
  return format?.name === "trec_run";
}

/** A large run scored out of core, with the reader's options. */
export async function readLargeRun(
  path: string,
  options: EvalReadOptions,
  onProgress?: RunProgress,
): Promise<EvalRows> {
  const { qrels, docMap } = runInputs(options);
  return scoreRunOutOfCore(path, {
    file: options.file,
    qrels,
    docMap,
    completeQueries: options.completeQueries === true,
    metrics: options.metrics ?? null,
    ...(onProgress ? { onProgress } : {}),
  });
}
