import { optionRef, RagciError } from "../core/errors.js";
import type { EvalFormatName } from "./evalFormats/evalRows.js";

/** What reads results tables only: plan, strata, simulate, and merge (per-document tables). */
export type TablesOnlyCommand = "plan" | "strata" | "simulate" | "merge";

const COMMANDS: readonly string[] = ["plan", "strata", "simulate", "merge"];

/** Names of a pipe of this process that cannot be named again in a second command. */
const OWN_DESCRIPTOR = /^\/(dev|proc\/self)\/fd\/\d+$/;

/**
 * How the advice gives the same input to ragci aggregate: a file or a named pipe by its name,
 * standard input as "-", a pipe such as bash's <(…) (a /dev/fd path, gone once read) as "<(…)".
 */
function againAs(file: string): string {
  if (file === "-" || file === "stdin") return "-";
  return OWN_DESCRIPTOR.test(file) ? "<(…)" : file;
}

/**
 * The refusal of a tool's output by a reader of results tables only (its --format names a
 * table's): the input as the user gave it, the tool, and what to run instead — ragci aggregate
 * writes the per-document table that plan, strata and simulate read with --aggregated (merge:
 * the tables it adds); with facets, analyze and compare read the tool's output directly.
 * `command` null: a per-document table was asked for (--aggregated); another name: a library
 * caller's use (readOneOrPair's usedBy).
 */
export function toolOutputRefusal(
  file: string,
  tool: EvalFormatName,
  command: TablesOnlyCommand | string | null,
  facets = false,
): RagciError {
  const name = tool === "trec_eval" ? tool : tool.replaceAll("_", "-");
  // Flags by option name (optionRef), which the CLI writes as its flags.
  const aggregate = `ragci aggregate ${againAs(file)} ${optionRef("doc")} … ${optionRef("metric")} … -o perdoc.csv`;
  const formats = "(CSV, TSV, JSONL, Parquet)";
  const tables = `${command} reads results tables only ${formats}`;
  // A per-document table keeps no trial, judge or variant: a faceted pilot stays per query.
  const then =
    command === null
      ? `a per-document table ${formats} is read here: write one with \`${aggregate}\` and give that`
      : command === "merge"
        ? `merge adds per-document tables only: write one with \`${aggregate}\`, then merge the tables`
        : facets
          ? `${tables}, and with ${optionRef("trial")}, ${optionRef("judge")} or ${optionRef("variant")} one row per evaluation with the facet's column; ragci analyze and compare read the tool's output with its facets`
          : COMMANDS.includes(command)
            ? `${tables}: write its per-document table with \`${aggregate}\`, then run \`ragci ${command} perdoc.csv ${optionRef("aggregated")}\``
            : `${tables}: write its per-document table with \`${aggregate}\` and read that as aggregated`;
  return new RagciError(
    "invalid-value",
    `${file}: ${name}'s output; ${then} (if it is a results table in JSON lines, say so with ${optionRef("format")} jsonl)`,
    { file },
  );
}
