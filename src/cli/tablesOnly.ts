import { stat } from "node:fs/promises";
import { RagciError } from "../core/errors.js";
import { evalFormatOf } from "../ingest/index.js";

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
  command: "plan" | "strata" | "simulate" | "merge",
  facets = false,
): Promise<void> {
  if (format !== undefined) return;
  for (const file of files) {
    // Standard input and pipes are spooled first (ingest's spoolSource), which tells a tool's
    // output from their content: reading them here would consume what the reader needs.
    if (file === "-" || !(await stat(file).catch(() => null))?.isFile()) continue;
    const tool = await evalFormatOf(file, null);
    if (tool === null) continue;
    const name = tool.name === "trec_eval" ? tool.name : tool.name.replaceAll("_", "-");
    const aggregate = `ragci aggregate ${file} --doc … --metric … -o perdoc.csv`;
    const tables = `${command} reads results tables only (CSV, TSV, JSONL, Parquet)`;
    // A per-document table keeps no trial, judge or variant: a faceted pilot stays per query.
    const then =
      command === "merge"
        ? `merge adds per-document tables only: write one with \`${aggregate}\`, then merge the tables`
        : facets
          ? `${tables}, and with --trial, --judge or --variant one row per evaluation with the facet's column; ragci analyze and compare read the tool's output with its facets`
          : `${tables}: write its per-document table with \`${aggregate}\`, then run \`ragci ${command} perdoc.csv --aggregated\``;
    throw new RagciError(
      "invalid-value",
      `${file}: ${name}'s output; ${then} (if it is a results table in JSON lines, say so with --format jsonl)`,
      { file },
    );
  }
}
