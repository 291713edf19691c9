import { stat } from "node:fs/promises";
import { evalFormatOf, type TablesOnlyCommand, toolOutputRefusal } from "../ingest/index.js";

/**
 * plan, strata, simulate and merge read results tables only (their --format names a table's).
 * An evaluation tool's output given to them without --format would reach DuckDB as a table and
 * fail as malformed JSON; told by its content (ingest's evalFormatOf, as analyze tells it), it
 * is refused with what to run instead: ragci aggregate writes the per-document table they read
 * with --aggregated (merge: the tables it adds).
 *
 * @throws RagciError naming the file, the tool, and the commands to run
 */
export async function refuseToolOutputs(
  files: readonly string[],
  format: string | undefined,
  command: TablesOnlyCommand,
  facets = false,
): Promise<void> {
  if (format !== undefined) return;
  for (const file of files) {
    // Standard input and pipes can be read once: the readers refuse them after the copy
    // (ingest's spoolSource, then toolOutputRefusal) with the same advice.
    if (file === "-" || !(await stat(file).catch(() => null))?.isFile()) continue;
    const tool = await evalFormatOf(file, null);
    if (tool === null) continue;
    throw toolOutputRefusal(file, tool.name, command, facets);
  }
}
