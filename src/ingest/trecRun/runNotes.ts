import { optionRef } from "../../core/errors.js";
import { plural } from "../../core/plural.js";
import { byteOrder } from "./byteOrder.js";

/** What was scored of a TREC run, for its notes. */
export interface RunCounts {
  /** How the notes name the run (default "TREC run"). */
  readonly kind?: string;
  readonly name: string;
  readonly qrelsFile: string;
  readonly scored: number;
  /** Queries of the run the qrels do not judge. */
  readonly unjudged: readonly string[];
  /** Queries of the qrels the run does not retrieve. */
  readonly unretrieved: readonly string[];
  /** Scored queries without a grade ≥ 1. */
  readonly noRelevant: readonly string[];
  readonly complete: boolean;
}

/** The least id in strcmp's order: the same "first" whichever order a reader met them in. */
function first(ids: readonly string[]): string | undefined {
  return [...ids].sort(byteOrder)[0];
}

/** The notes that say which queries of a TREC run were scored, and how. */
export function runNotes(c: RunCounts): string[] {
  const { qrelsFile } = c;
  const name = `${c.kind ?? "TREC run"} ${c.name}`;
  const notes = [
    `${name}: ${plural(c.scored, "query", "queries")} scored against ${qrelsFile} by ragci with trec_eval 10.0's measures (ties in score broken by document id, descending); documents from ${optionRef("docMap")}`,
  ];
  if (c.unjudged.length > 0)
    notes.push(
      `${name}: ${plural(c.unjudged.length, "query", "queries")} of the run not in ${qrelsFile} left out, as trec_eval does (first: ${first(c.unjudged)})`,
    );
  if (c.unretrieved.length > 0)
    notes.push(
      c.complete
        ? `${name}: ${plural(c.unretrieved.length, "query", "queries")} of ${qrelsFile} not in the run scored as empty rankings (${optionRef("completeQueries")}, trec_eval -c; first: ${first(c.unretrieved)})`
        : `${name}: ${plural(c.unretrieved.length, "query", "queries")} of ${qrelsFile} not in the run left out, as trec_eval's help for -c says (trec_eval 10.0 itself stops on them; first: ${first(c.unretrieved)}); ${optionRef("completeQueries")} scores them as empty rankings, as trec_eval -c`,
    );
  if (c.noRelevant.length > 0)
    notes.push(
      `${name}: ${plural(c.noRelevant.length, "scored query has", "scored queries have")} no relevant document in ${qrelsFile} (first: ${first(c.noRelevant)}); they score 0 on every measure, as in trec_eval`,
    );
  return notes;
}
