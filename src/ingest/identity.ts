import { resolve } from "node:path";
import { optionRef, RagciError } from "../core/errors.js";

// Identity before arithmetic: a (system, document, query, trial) is counted once. These are the
// checks that refuse what would count a result twice or pool what should stay apart; every
// reader calls them where it learns the names involved.

/**
 * Each metric column asked for once: two names that reach one column (`hit5,hit5`,
 * `hit@5,hit5`, `mrr,rr`) would double every count of it, and with them ICC and DEFF.
 *
 * @throws RagciError "invalid-option" naming the column and the two names
 */
export function requireDistinctMetrics(
  requested: readonly string[],
  resolved: readonly string[],
  file: string,
): void {
  const twice = resolved.findIndex((m, i) => resolved.indexOf(m) !== i);
  if (twice < 0) return;
  const column = resolved[twice] as string;
  const first = requested[resolved.indexOf(column)] as string;
  const again = requested[twice] as string;
  const names = first === again ? `"${first}" twice` : `"${first}" and "${again}"`;
  throw new RagciError(
    "invalid-option",
    `${file}: the metrics name column ${column} twice (${names}); name each metric once`,
    { file, column, option: "metric" },
  );
}

/** An input as it was named and what it holds (its SHA-256). */
export interface InputIdentity {
  readonly file: string;
  readonly sha256: string;
}

/**
 * Each input once: the same file given twice (or two copies of it) would count every result
 * twice. Two files with the same bytes are the same results, whatever their names.
 *
 * @throws RagciError "invalid-option" naming the two inputs
 */
export function requireDistinctInputs(inputs: readonly InputIdentity[]): void {
  const seen = new Map<string, string>();
  for (const { file, sha256 } of inputs) {
    const before = seen.get(sha256);
    if (before !== undefined) {
      const what =
        before === file ? `${file} is given twice` : `${before} and ${file} hold the same bytes`;
      throw new RagciError(
        "invalid-option",
        `${what} (SHA-256 ${sha256.slice(0, 12)}…): its results would be read twice; give each input once`,
        { file },
      );
    }
    seen.set(sha256, file);
  }
}

/**
 * Each file once, by its path: a paired read takes one file per system, and a file given twice
 * would be compared with itself. Two files with the same bytes are two systems that agree
 * (a pull request that does not change retrieval), which a comparison must allow.
 *
 * @throws RagciError "invalid-option" naming the file given twice
 */
export function requireDistinctFiles(files: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const file of files) {
    const key = file === "-" ? "-" : resolve(file);
    const before = seen.get(key);
    if (before !== undefined)
      throw new RagciError(
        "invalid-option",
        `${file === "-" ? "standard input (-)" : file} is given twice${before === file ? "" : ` (as ${before} and ${file})`}: give each system's file once`,
        { file },
      );
    seen.set(key, file);
  }
}

/**
 * Each run once: two files of one evaluation run (an Inspect log written as .json and .eval,
 * an eval-set retry) hold the same results in other bytes; read as shards they would be added.
 * `run` is the tool's run identity (null: the tool records none).
 *
 * @throws RagciError "invalid-value" naming the two inputs
 */
export function requireDistinctRuns(
  inputs: readonly { readonly file: string; readonly run: string | null }[],
): void {
  const seen = new Map<string, string>();
  for (const { file, run } of inputs) {
    if (run === null) continue;
    const before = seen.get(run);
    if (before !== undefined)
      throw new RagciError(
        "invalid-value",
        `${file}: holds the same run as ${before} (${run}); its results would be read twice: give one of the two files`,
        { file },
      );
    seen.set(run, file);
  }
}

/**
 * The option that reads an input as per-document tables, named when a per-query read finds one
 * (columns n and s): `aggregated` (the default), `censusAggregated` for a census; null where only
 * per-query results will do (a pair's census, which pairs the systems on each query).
 */
export type AggregatedOption = "aggregated" | "censusAggregated" | null;

/** The columns that make a table one row per document (ragci's own and `aggregated` input). */
const PER_DOCUMENT_COLUMNS = ["n", "s"];

/**
 * A per-query reader given a per-document table (columns n and s, as `aggregated` input and
 * ragci's written aggregates have) would take each document's sums for one result each.
 * The refusal names `aggregatedOption`, or says that only per-query results will do.
 *
 * @throws RagciError "invalid-option" saying to read it as per-document, or that it cannot be
 */
export function requirePerQueryTable(
  columns: readonly string[],
  metrics: readonly string[],
  file: string,
  aggregatedOption: AggregatedOption = "aggregated",
): void {
  const lower = columns.map((c) => c.toLowerCase());
  if (!PER_DOCUMENT_COLUMNS.every((c) => lower.includes(c))) return;
  if (metrics.some((m) => PER_DOCUMENT_COLUMNS.includes(m.toLowerCase()))) return;
  const head = `${file}: has columns n and s, a per-document table (doc, n, s[, ss])`;
  throw new RagciError(
    "invalid-option",
    aggregatedOption === null
      ? `${head}, where per-query results are needed (one row per query, with its query id, to pair the systems on); give those, or rename n and s if they are per-query values`
      : `${head}; read it with ${optionRef(aggregatedOption)}, or rename n and s if they are per-query values`,
    { file, ...(aggregatedOption === null ? {} : { option: aggregatedOption }) },
  );
}
