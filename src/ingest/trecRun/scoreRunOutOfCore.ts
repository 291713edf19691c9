import { totalmem } from "node:os";
import { RagciError } from "../../core/errors.js";
import {
  duckDbMessage,
  type QueryProgress,
  queryRows,
  unreadable,
  withDuckDb,
  withQueryProgress,
} from "../duckdb.js";
import type { EvalRow, EvalRows } from "../evalFormats/evalRows.js";
import type { ReadingPass } from "../readResults.js";
import { sha256File } from "../sha256File.js";
import { askedCutoffs } from "./askedCutoffs.js";
import { gradeLevels } from "./gradeLevels.js";
import { IN_POOL_UNJUDGED, NOT_JUDGED } from "./rankedGrades.js";
import type { Qrels } from "./readQrels.js";
import { runNotes } from "./runNotes.js";
import { trecMeasures } from "./trecMeasures.js";

/** A run's passes, as a reader's progress names them. */
export type RunPass = Extract<ReadingPass, `${string} the run`>;

/** How far a pass over a run scored out of core is, 0–1. */
export type RunProgress = (pass: RunPass, fraction: number) => void;

export interface OutOfCoreRunOptions {
  /** Shown in messages. */
  readonly file: string;
  readonly qrels: Qrels;
  readonly docMap: ReadonlyMap<string, string>;
  readonly completeQueries: boolean;
  readonly metrics: readonly string[] | null;
  /** Told how far each pass is (0–1) while it runs; DuckDB tracks nothing without it. */
  readonly onProgress?: RunProgress;
  /** DuckDB's memory_limit while it scores the run (default RUN_MEMORY_LIMIT). */
  readonly memoryLimit?: string;
}

/**
 * DuckDB's memory budget for a run: a quarter of the machine's memory (withDuckDb's default is
 * half). Parsing and sorting a run spill to withDuckDb's private temporary directory past it;
 * at 10⁸ lines under the default half, DuckDB filled its whole budget (peak 13.7 GB on a 23 GiB
 * machine), so a smaller one leaves the rest to the system and to other work
 * (docs/performance.md has the measurements).
 */
export function runMemoryLimit(totalBytes: number = totalmem()): string {
  return `${Math.floor(totalBytes / 4 / 2 ** 20)}MiB`;
}

const sql = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The check queries over the run's table (short lines, scores, tags, duplicates). */
const CHECKS = 4;

/** strtod's decimal numbers, as trecRun.ts accepts them. */
const SCORE_PATTERN = "[+-]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][+-]?[0-9]+)?";

/**
 * Scores a TREC run too large to hold as text (trecRun.ts reads a run whole) out of core:
 * DuckDB parses the lines into a table (spilling to disk past its memory limit) and sorts each
 * query's documents in trec_eval's order (score descending, docno descending: DuckDB orders
 * VARCHAR by bytes, as strcmp), and the sorted rows are streamed through the same measures
 * one query at a time, so Node holds one query's grades, never the run. The same checks and
 * notes as trecRun.ts; rows come in query id order.
 *
 * @throws RagciError as trecRun.ts: a short line, a score that is not a number, two tags, a
 *   document retrieved twice for a judged query
 */
export async function scoreRunOutOfCore(
  path: string,
  options: OutOfCoreRunOptions,
): Promise<EvalRows> {
  const { file, qrels } = options;
  const onProgress = options.onProgress;
  /** A pass's progress callback, or undefined (DuckDB then tracks none) when nobody listens. */
  const tell = (pass: RunPass, part = 0, parts = 1): QueryProgress | undefined =>
    onProgress ? (f) => onProgress(pass, (part + f) / parts) : undefined;
  return withDuckDb(async (connection) => {
    /** The checks: four queries over the run's table, each a quarter of the "checking" bar. */
    let check = 0;
    const checkRows = (text: string) =>
      withQueryProgress(connection, tell("checking the run", check++, CHECKS), () =>
        queryRows(connection, text),
      );
    try {
      await connection.run(`SET memory_limit = ${sql(options.memoryLimit ?? runMemoryLimit())}`);
    } catch (error) {
      throw new RagciError(
        "invalid-option",
        `${file}: DuckDB's memory limit ${options.memoryLimit} is not a size (${duckDbMessage(error)}); give a size such as 4GiB`,
        { file },
      );
    }
    try {
      // One column per line (the unit separator never occurs in a run), split on whitespace.
      await withQueryProgress(connection, tell("parsing the run"), () =>
        connection.run(
          `CREATE TEMP TABLE run AS SELECT f[1] AS q, f[3] AS d, f[5] AS s, f[6] AS t, len(f) AS n FROM (SELECT string_split_regex(trim(line), '\\s+') AS f FROM read_csv(${sql(path)}, columns = {'line': 'VARCHAR'}, delim = '\\x1f', quote = '', escape = '', header = false, auto_detect = false) WHERE trim(line) <> '' AND NOT starts_with(trim(line), '#'))`,
        ),
      );
    } catch (error) {
      throw unreadable(file, error);
    }
    const short = await checkRows("SELECT n, q FROM run WHERE n < 6 LIMIT 1");
    if (short[0])
      throw new RagciError(
        "invalid-value",
        `${file}: a TREC run line has 6 fields (query Q0 document rank score tag), one of query ${short[0].q} has ${short[0].n}; give the run unchanged`,
        { file },
      );
    const badScore = await checkRows(
      `SELECT s, q FROM run WHERE NOT regexp_full_match(s, ${sql(SCORE_PATTERN)}) LIMIT 1`,
    );
    if (badScore[0])
      throw new RagciError(
        "invalid-value",
        `${file}: score ${badScore[0].s} (query ${badScore[0].q}) is not a number; the fifth field of a TREC run line is the score`,
        { file },
      );
    const tags = await checkRows("SELECT DISTINCT t FROM run LIMIT 2");
    if (tags.length === 0)
      throw new RagciError("empty-input", `${file}: no line of a TREC run; check the file`, {
        file,
      });
    if (tags.length > 1)
      throw new RagciError(
        "invalid-value",
        `${file}: run tags ${tags[0]?.t} and ${tags[1]?.t} in one file; give one run per file (split it by its sixth field)`,
        { file },
      );
    const name = String(tags[0]?.t);
    const twice = await checkRows(
      "SELECT q, d FROM run GROUP BY q, d HAVING count(*) > 1 ORDER BY q, d",
    );
    const duplicate = twice.find((r) => qrels.queries.has(String(r.q)));
    if (duplicate)
      throw new RagciError(
        "invalid-value",
        `${file}: document ${duplicate.d} is retrieved twice for query ${duplicate.q}; trec_eval refuses such a run (duplicate docs), keep one line per query and document`,
        { file },
      );
    const cutoffs = askedCutoffs(options.metrics);
    const rows: EvalRow[] = [];
    const noRelevant: string[] = [];
    const unjudged: string[] = [];
    const retrievedQueries = new Set<string>();
    const score = (query: string, grades: readonly number[]) => {
      const judgements = qrels.queries.get(query) as ReadonlyMap<string, number>;
      const levels = gradeLevels(judgements);
      if (levels.length < 2) noRelevant.push(query);
      rows.push({
        query,
        doc: options.docMap.get(query) ?? null,
        system: name,
        metrics: trecMeasures(grades, levels, cutoffs),
      });
    };
    let current: string | null = null;
    let judgements: ReadonlyMap<string, number> | undefined;
    let grades: number[] = [];
    const [size] = await queryRows(connection, "SELECT count(*) AS n FROM run");
    const total = Number(size?.n ?? 0);
    // DuckDB sorts before the first rows come (the progress settings are made before the query:
    // a statement run on the connection while the result streams would end it); then the rows
    // are scored as they stream.
    const { result, head } = await withQueryProgress(
      connection,
      tell("sorting the run"),
      async () => {
        const stream = await connection.stream(
          "SELECT q, d FROM run ORDER BY q, CAST(s AS DOUBLE) DESC, d DESC",
        );
        return { result: stream, head: await stream.fetchChunk() };
      },
    );
    let streamed = 0;
    for (let chunk = head; chunk && chunk.rowCount > 0; chunk = await result.fetchChunk()) {
      streamed += chunk.rowCount;
      if (onProgress && total > 0) onProgress("scoring the run", streamed / total);
      const [queries, docnos] = chunk.getColumns() as [string[], string[]];
      for (let i = 0; i < chunk.rowCount; i++) {
        const query = queries[i] as string;
        if (query !== current) {
          if (current !== null && judgements) score(current, grades);
          current = query;
          retrievedQueries.add(query);
          judgements = qrels.queries.get(query);
          if (!judgements) unjudged.push(query);
          grades = [];
        }
        if (!judgements) continue;
        const grade = judgements.get(docnos[i] as string);
        grades.push(grade === undefined ? NOT_JUDGED : grade < 0 ? IN_POOL_UNJUDGED : grade);
      }
    }
    if (current !== null && judgements) score(current, grades);
    const unretrieved = [...qrels.queries.keys()].filter((q) => !retrievedQueries.has(q));
    if (options.completeQueries) for (const q of unretrieved) score(q, []);
    if (rows.length === 0)
      throw new RagciError(
        "empty-input",
        `${file}: no query of the run is in ${qrels.file}; check that the run and the qrels are of the same queries`,
        { file },
      );
    const notes = runNotes({
      name,
      qrelsFile: qrels.file,
      scored: rows.length,
      unjudged,
      unretrieved,
      noRelevant,
      complete: options.completeQueries,
    });
    notes.push(
      `TREC run ${name}: read out of core (DuckDB sorts each query's documents; the run is too large to read whole)`,
    );
    // The whole file's hash, as trecRun.ts hashes its text: one run given twice is refused,
    // two runs with one tag stay two systems (distinctRuns.ts).
    const key = await sha256File(path, file);
    return { rows, notes, run: { key, label: file.replace(/^.*[\\/]/, "") } };
  });
}
