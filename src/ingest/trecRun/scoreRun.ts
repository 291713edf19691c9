import { optionRef, RagciError } from "../../core/errors.js";
import type { EvalReadOptions, EvalRow, EvalRows, RunIdentity } from "../evalFormats/evalRows.js";
import { askedCutoffs } from "./askedCutoffs.js";
import { gradeLevels } from "./gradeLevels.js";
import { type Retrieved, rankedGrades } from "./rankedGrades.js";
import type { Qrels } from "./readQrels.js";
import { runNotes } from "./runNotes.js";
import { trecMeasures } from "./trecMeasures.js";

/** A run as read from a file: its name, and each query's retrieved documents. */
export interface Run {
  /** The system's name: a TREC run's tag, a JSON run's file name. */
  readonly name: string;
  readonly byQuery: ReadonlyMap<string, readonly Retrieved[]>;
}

/** How the run is named in messages and notes: "TREC run", "JSON run". */
export type RunKind = "TREC run" | "JSON run";

/**
 * What scoring a run needs besides the run: --qrels and --doc-map.
 *
 * @throws RagciError naming the flag to give
 */
export function runInputs(
  options: EvalReadOptions,
  kind: RunKind = "TREC run",
): { qrels: Qrels; docMap: ReadonlyMap<string, string> } {
  const file = options.file;
  const qrels = options.qrels;
  if (!qrels)
    throw new RagciError(
      "invalid-option",
      `${file}: a ${kind} is scored against relevance judgements; give ${optionRef("qrels")} FILE (TREC qrels: query iteration document grade)`,
      { file },
    );
  const map = options.docMap;
  if (!map)
    throw new RagciError(
      "invalid-option",
      `${file}: a ${kind} has no source document; give ${optionRef("docMap")} FILE (a CSV of query id and document id)`,
      { file },
    );
  return { qrels, docMap: map };
}

/**
 * Scores a run read whole against --qrels with trec_eval 10.0's measures (trecMeasures.ts),
 * each query's documents in trec_eval's order (rankedGrades.ts), and says in notes which
 * queries were scored.
 *
 * @throws RagciError without --qrels or --doc-map, for a document retrieved twice for a judged
 *   query, or when no query of the run is judged
 */
export function scoreRun(
  run: Run,
  options: EvalReadOptions,
  identity: RunIdentity,
  kind: RunKind,
): EvalRows {
  const file = options.file;
  const { qrels, docMap } = runInputs(options, kind);
  const { byQuery, name } = run;
  const complete = options.completeQueries === true;
  const cutoffs = askedCutoffs(options.metrics);
  const rows: EvalRow[] = [];
  const unretrieved: string[] = [];
  /** Scored queries whose judgements have no grade ≥ 1. */
  const noRelevant: string[] = [];
  for (const [query, judgements] of qrels.queries) {
    const retrieved = byQuery.get(query);
    if (retrieved === undefined) {
      unretrieved.push(query);
      if (!complete) continue;
    }
    const ranked = rankedGrades(retrieved ?? [], judgements);
    if ("duplicate" in ranked)
      throw new RagciError(
        "invalid-value",
        `${file}: document ${ranked.duplicate} is retrieved twice for query ${query}; trec_eval refuses such a run (duplicate docs), keep one line per query and document`,
        { file },
      );
    const levels = gradeLevels(judgements);
    if (levels.length < 2) noRelevant.push(query);
    rows.push({
      query,
      doc: docMap.get(query) ?? null,
      system: name,
      metrics: trecMeasures(ranked.grades, levels, cutoffs),
    });
  }
  const notes = runNotes({
    kind,
    name,
    qrelsFile: qrels.file,
    scored: rows.length,
    unjudged: [...byQuery.keys()].filter((q) => !qrels.queries.has(q)),
    unretrieved,
    noRelevant,
    complete,
  });
  if (rows.length === 0)
    throw new RagciError(
      "empty-input",
      `${file}: no query of the run is in ${qrels.file}; check that the run and the qrels are of the same queries`,
      { file },
    );
  return { rows, notes, run: identity };
}
