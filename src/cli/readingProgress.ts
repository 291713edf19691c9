import type { ReadProgress } from "../ingest/index.js";
import type { CommandIo } from "./io.js";

const WIDTH = 24;

/**
 * A read's progress on the status line: what is read, and DuckDB's passes as a bar (a
 * terminal's stderr only): `reading results.parquet: aggregating [██████░░░░…] 42%`. No bar
 * when piped, so that DuckDB does not track the query's progress for nobody (three more
 * statements and a timer).
 */
export function readingProgress(io: CommandIo): ReadProgress {
  const status = (message: string) => io.progress.update(message);
  if (!io.progress.enabled) return { status };
  return {
    status,
    scan: (file, pass, fraction) => {
      const filled = Math.round(fraction * WIDTH);
      io.progress.update(
        `reading ${file}: ${pass} [${"█".repeat(filled)}${"░".repeat(WIDTH - filled)}] ${Math.floor(fraction * 100)}%`,
      );
    },
  };
}
