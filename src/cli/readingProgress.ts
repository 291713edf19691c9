import type { ReadingPass } from "../ingest/readResults.js";
import type { CommandIo } from "./io.js";

const WIDTH = 24;

/**
 * The reader's passes as a bar on the status line (a terminal's stderr only):
 * `reading results.parquet: aggregating [██████░░░░…] 42%`. Undefined when piped, so that
 * DuckDB does not track the query's progress for nobody (three more statements and a timer).
 */
export function readingProgress(
  io: CommandIo,
  displayName: string,
): ((pass: ReadingPass, fraction: number) => void) | undefined {
  if (!io.progress.enabled) return undefined;
  return (pass, fraction) => {
    const filled = Math.round(fraction * WIDTH);
    io.progress.update(
      `reading ${displayName}: ${pass} [${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}] ${Math.floor(fraction * 100)}%`,
    );
  };
}
