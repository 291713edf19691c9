import { stat } from "node:fs/promises";
import { evalFormatOf, type TablesOnlyCommand, toolOutputRefusal } from "../ingest/index.js";

/**
 * merge adds per-document tables only. A tool's output given to it without --format would reach
 * DuckDB as a table and fail as malformed JSON; told by its content (ingest's evalFormatOf), it
 * is refused with what to run instead (ragci aggregate, then merge the tables). plan, strata and
 * simulate get the same refusal from their reader (ingest's readOneOrPair, refuseToolOutput),
 * which knows their name; merge's reader does not, so merge words it here.
 *
 * @throws RagciError naming the file, the tool and the commands to run
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
