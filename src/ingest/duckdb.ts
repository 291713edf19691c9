import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";

/**
 * Runs `work` on a fresh in-memory DuckDB connection and always closes it. DuckDB's native
 * library (~70 MB) is loaded on first use, so `--help` and `--version` stay fast.
 */
export async function withDuckDb<T>(
  work: (connection: DuckDBConnection) => Promise<T>,
  threads?: number,
): Promise<T> {
  const { DuckDBInstance } = await import("@duckdb/node-api");
  const instance = await DuckDBInstance.create(":memory:", {
    ...(threads ? { threads: String(threads) } : {}),
    preserve_insertion_order: "true",
  });
  const connection = await instance.connect();
  try {
    return await work(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
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
export function duckDbMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n").find((line) => line.trim() !== "") ?? text).trim();
}

/** A DuckDB failure to read a file, as one line naming the file. */
export function unreadable(file: string, error: unknown): RagciError {
  const message = duckDbMessage(error)
    .replace(/^IO Error: /, "")
    .replace(/^Invalid Input Error: /, "");
  const hint = /sniffing/i.test(message)
    ? "; the CSV dialect could not be detected: check for mixed line endings or rows with a different number of fields"
    : "";
  return new RagciError("unreadable-input", `${file}: cannot read it (${message})${hint}`, {
    file,
  });
}

export type ColumnKind = "string" | "number";
export type ColumnData = (string | null)[] | Float64Array;

/**
 * Runs a query and reads its columns chunk by chunk: numbers straight into Float64Arrays
 * (NULL as NaN), strings into arrays. Much lighter than row objects for millions of rows.
 */
export async function readColumns(
  connection: DuckDBConnection,
  sql: string,
  kinds: readonly ColumnKind[],
): Promise<ColumnData[]> {
  const result = await connection.run(sql);
  const strings: (string | null)[][] = kinds.map(() => []);
  const numbers: number[][] = kinds.map(() => []);
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const count = chunk.rowCount;
    kinds.forEach((kind, c) => {
      const vector = chunk.getColumnVector(c);
      if (kind === "string") {
        const out = strings[c] as (string | null)[];
        for (let j = 0; j < count; j++) out.push(vector.getItem(j) as string | null);
      } else {
        const out = numbers[c] as number[];
        for (let j = 0; j < count; j++) {
          const v = vector.getItem(j);
          out.push(v === null ? Number.NaN : Number(v));
        }
      }
    });
  }
  return kinds.map((kind, c) =>
    kind === "string"
      ? (strings[c] as (string | null)[])
      : Float64Array.from(numbers[c] as number[]),
  );
}
