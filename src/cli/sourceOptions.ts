import type { Readable } from "node:stream";
import { checkSource, parseSystemSelection, type Selection, type Source } from "../ingest/index.js";

/** --from URL with --table T or --sql SELECT: per-query rows that stay in the database. */
export interface DatabaseOptions {
  readonly from?: string;
  readonly table?: string;
  readonly sql?: string;
}

/** The flags as ingest's checkSource: files, or --from with --table or --sql. */
export function checkSources(
  files: readonly string[],
  options: DatabaseOptions & { readonly aggregated?: boolean; readonly format?: string },
  needed?: string | null,
): void {
  const { from: url, table, sql, aggregated, format } = options;
  checkSource(files, { url, table, sql, aggregated, format }, needed);
}

/** The flags that say where results come from and how to read them. */
export interface SourceFlags extends DatabaseOptions {
  readonly doc?: string;
  readonly docMap?: string;
  readonly qrels?: string;
  readonly completeQueries?: boolean;
  readonly errorsAsFailures?: boolean;
  readonly query?: string;
  readonly format?: string;
  readonly aggregated?: boolean;
  readonly threads?: number;
  readonly trial?: string;
  readonly judge?: string;
  readonly variant?: string;
}

/** The flags as ingest's Source: --from's database (credentials from `env`), or the files. */
export function sourceOf(
  files: readonly string[],
  flags: SourceFlags,
  process: { readonly stdin: Readable; readonly env: NodeJS.ProcessEnv },
): Source {
  const { doc, query } = flags;
  if (flags.from !== undefined) {
    const { from: url, table, sql, trial, judge, variant } = flags;
    return { url, table, sql, env: process.env, doc, query, trial, judge, variant };
  }
  const { format, docMap, qrels, completeQueries, errorsAsFailures, aggregated, threads } = flags;
  const stdin = process.stdin;
  return {
    files,
    stdin,
    doc,
    query,
    format,
    docMap,
    qrels,
    completeQueries,
    errorsAsFailures,
    aggregated,
    threads,
    trial: flags.trial,
    judge: flags.judge,
    variant: flags.variant,
  };
}

/** --system and --metric (and compare's --baseline, --all-pairs, --intersect) as a Selection. */
export function selectionOf(flags: {
  readonly system?: string;
  readonly metric?: readonly string[];
  readonly baseline?: string;
  readonly allPairs?: boolean;
  readonly intersect?: boolean;
}): Selection {
  const system = parseSystemSelection(flags.system);
  return {
    systemColumn: system?.systemColumn ?? null,
    systems: system?.systems ?? null,
    metrics: flags.metric ?? null,
    pairs: { baseline: flags.baseline ?? null, allPairs: flags.allPairs ?? false },
    // Only compare has --intersect: elsewhere null, and a missing query's refusal says so.
    intersect: flags.intersect ?? null,
  };
}
