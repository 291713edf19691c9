import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";
import { csvReadRefusal } from "./csvReadError.js";
import { duckDbApi } from "./duckDbModules.js";
import { errorLine } from "./errorLine.js";

/** DuckDB may use half the machine's memory before it spills to disk. */
const MEMORY_LIMIT = `${Math.floor((totalmem() * 0.5) / 2 ** 20)}MiB`;

/**
 * Runs `work` on a fresh in-memory DuckDB connection and always closes it. DuckDB's native
 * library (~70 MB) is loaded on first use, so `--help` and `--version` stay fast.
 *
 * Out of core: a GROUP BY larger than memory_limit (half the machine's memory, leaving the
 * rest to Node and the system; DuckDB's default is 80 %) spills to a private temporary
 * directory, removed afterwards — DuckDB's default for an in-memory database is `.tmp` in the
 * working directory.
 */
export async function withDuckDb<T>(
  work: (connection: DuckDBConnection) => Promise<T>,
  threads?: number,
): Promise<T> {
  const { DuckDBInstance } = duckDbApi();
  const spill = await mkdtemp(join(tmpdir(), "ragci-duckdb-"));
  try {
    const instance = await DuckDBInstance.create(":memory:", {
      ...(threads ? { threads: String(threads) } : {}),
      preserve_insertion_order: "true",
      memory_limit: MEMORY_LIMIT,
      temp_directory: spill,
    });
    const connection = await instance.connect();
    try {
      return await work(connection);
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    await rm(spill, { recursive: true, force: true });
  }
}

/**
 * Runs `work` with DuckDB's memory_limit lowered to `limit`, then back to withDuckDb's. For a GROUP BY
 * with about one group per row (the query-id check), a small budget makes DuckDB aggregate in
 * partitions and spill, measured twice as fast as one big table on 10⁸ keys (9 s against 22 s,
 * 0.7 GB against 5.7 GB) and a quarter faster on 10⁷. Should the budget be too small for the
 * rest of the query (an input's buffers), it runs again under the usual limit.
 */
export async function withMemoryLimit<T>(
  connection: DuckDBConnection,
  limit: string,
  work: () => Promise<T>,
): Promise<T> {
  const restore = `SET memory_limit = ${sqlLiteral(MEMORY_LIMIT)}`;
  await connection.run(`SET memory_limit = ${sqlLiteral(limit)}`);
  try {
    return await work();
  } catch (error) {
    if (!/Out of Memory/i.test(duckDbMessage(error))) throw error;
    await connection.run(restore);
    return await work();
  } finally {
    await connection.run(restore);
  }
}

const sqlLiteral = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** How far a query is, 0–1, reported about every 250 ms while it runs. */
export type QueryProgress = (fraction: number) => void;

/**
 * Runs `query` on `connection`, calling `onProgress` with DuckDB's own estimate of how far it
 * is (rows of the input processed), from its progress tracking, while it runs.
 */
export async function withQueryProgress<T>(
  connection: DuckDBConnection,
  onProgress: QueryProgress | undefined,
  query: () => Promise<T>,
): Promise<T> {
  if (!onProgress) return query();
  // Tracking on, DuckDB's own printing off (it would write to stdout).
  await connection.run("SET enable_progress_bar = true");
  await connection.run("SET enable_progress_bar_print = false");
  await connection.run("SET progress_bar_time = 0");
  const timer = setInterval(() => {
    const percentage = connection.progress.percentage;
    if (percentage >= 0) onProgress(Math.min(1, percentage / 100));
  }, 250);
  try {
    return await query();
  } finally {
    clearInterval(timer);
  }
}

/** Rows of a query as plain JS objects (numbers, strings, bigints as numbers). */
export async function queryRows(
  connection: DuckDBConnection,
  sql: string,
): Promise<Record<string, unknown>[]> {
  const reader = await connection.runAndReadAll(sql);
  return reader.getRowObjectsJS().map((row) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      out[key] = typeof value === "bigint" ? Number(value) : value;
    }
    return out;
  });
}

/** The first line of a DuckDB error, which names the problem without the SQL echo. */
export const duckDbMessage = errorLine;

/** A DuckDB failure to read a file, as one line naming the file. */
export function unreadable(file: string, error: unknown): RagciError {
  const known = csvReadRefusal(file, error);
  if (known) return known;
  const message = duckDbMessage(error)
    // Standard input and pipes are copied to a private temporary file (spoolSource.ts): name
    // the input as the user knows it.
    .replace(/"?[^"\s]*ragci-pipe-[^"\s/]*\/[^"\s]*"?/g, file)
    .replace(/^IO Error: /, "")
    .replace(/^Invalid Input Error: /, "");
  const hint = /sniffing/i.test(message)
    ? "; the CSV dialect could not be detected: check for mixed line endings or rows with a different number of fields"
    : "";
  return new RagciError("unreadable-input", `${file}: cannot read it (${message})${hint}`, {
    file,
  });
}
