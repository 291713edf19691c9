import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { RagciError } from "../core/errors.js";

const require = createRequire(import.meta.url);

/**
 * DuckDB's client (CommonJS), loaded on first use. Through `require` rather than `import()`:
 * an ESM import of a CommonJS package makes Node parse every re-exported file for its export
 * names, about 70 ms for @duckdb/node-api's 60 modules.
 */
function duckDbApi(): typeof import("@duckdb/node-api") {
  return require("@duckdb/node-api");
}

function duckDbBindings(): typeof import("@duckdb/node-bindings") {
  return require("@duckdb/node-bindings");
}

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
export function duckDbMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n").find((line) => line.trim() !== "") ?? text).trim();
}

/** A DuckDB failure to read a file, as one line naming the file. */
export function unreadable(file: string, error: unknown): RagciError {
  const message = duckDbMessage(error)
    // Standard input is spooled to a private temporary file: name it as the user knows it.
    .replace(/"?[^"\s]*ragci-stdin-[^"\s/]*\/stdin\.[a-z]+"?/g, "stdin")
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

/** DuckDB's string_t: 4-byte length, then 12 inline bytes or a 4-byte prefix and a pointer. */
const STRING_T_BYTES = 16;
const STRING_T_INLINE = 12;

/** Growable byte buffer for the UTF-8 of a string column. */
class ByteSink {
  bytes = new Uint8Array(1 << 16);
  length = 0;
  reserve(extra: number): void {
    if (this.length + extra <= this.bytes.length) return;
    let size = this.bytes.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(this.bytes.subarray(0, this.length));
    this.bytes = grown;
  }
}

/** Growable Float64Array. */
class NumberSink {
  values = new Float64Array(1 << 16);
  length = 0;
  reserve(extra: number): void {
    if (this.length + extra <= this.values.length) return;
    let size = this.values.length * 2;
    while (size < this.length + extra) size *= 2;
    const grown = new Float64Array(size);
    grown.set(this.values.subarray(0, this.length));
    this.values = grown;
  }
}

/** Strings of a column, kept as UTF-8 bytes plus end offsets until the column is complete. */
interface StringColumn {
  readonly sink: ByteSink;
  ends: Int32Array;
  count: number;
  nulls: number[];
  ascii: boolean;
}

/**
 * Runs a query and reads its columns chunk by chunk: numbers (DOUBLE) straight into
 * Float64Arrays (NULL as NaN), strings (VARCHAR) into arrays; other column types are refused. It reads the vectors through
 * DuckDB's C API (@duckdb/node-bindings) rather than value by value: a million document ids
 * cost one UTF-8 decode instead of a million, which is most of the time of a large
 * `--aggregated` run.
 */
export async function readColumns(
  connection: DuckDBConnection,
  sql: string,
  kinds: readonly ColumnKind[],
): Promise<ColumnData[]> {
  const bindings = duckDbBindings();
  const { DuckDBTypeId } = duckDbApi();
  const result = await connection.run(sql);
  kinds.forEach((kind, c) => {
    const expected = kind === "number" ? DuckDBTypeId.DOUBLE : DuckDBTypeId.VARCHAR;
    if (result.columnTypeId(c) !== expected) {
      throw new Error(
        `readColumns: column ${c} (${result.columnName(c)}) is ${result.columnType(c)}; cast it to ${kind === "number" ? "DOUBLE" : "VARCHAR"}`,
      );
    }
  });
  const numbers = kinds.map(() => new NumberSink());
  const strings: StringColumn[] = kinds.map(() => ({
    sink: new ByteSink(),
    ends: new Int32Array(1 << 12),
    count: 0,
    nulls: [],
    ascii: true,
  }));
  for (;;) {
    const chunk = await result.fetchChunk();
    if (!chunk || chunk.rowCount === 0) break;
    const count = chunk.rowCount;
    kinds.forEach((kind, c) => {
      const vector = bindings.data_chunk_get_vector(chunk.chunk, c);
      const width = kind === "number" ? 8 : STRING_T_BYTES;
      const data = bindings.vector_get_data(vector, count * width);
      // Validity: one bit per row, least significant first; absent when every row is valid.
      const validity = bindings.vector_get_validity(vector, Math.ceil(count / 64) * 8);
      const allValid = !validity || validity.length === 0;
      const valid = (j: number) =>
        allValid || (((validity[j >> 3] as number) >> (j & 7)) & 1) === 1;
      if (kind === "number") {
        const out = numbers[c] as NumberSink;
        out.reserve(count);
        out.values.set(new Float64Array(data.buffer, data.byteOffset, count), out.length);
        for (let j = 0; j < count; j++) if (!valid(j)) out.values[out.length + j] = Number.NaN;
        out.length += count;
        return;
      }
      const column = strings[c] as StringColumn;
      if (column.count + count > column.ends.length) {
        const grown = new Int32Array(Math.max(column.ends.length * 2, column.count + count));
        grown.set(column.ends.subarray(0, column.count));
        column.ends = grown;
      }
      const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
      const sink = column.sink;
      const ends = column.ends;
      let ascii = 0;
      for (let j = 0; j < count; j++) {
        if (!valid(j)) {
          column.nulls.push(column.count);
          ends[column.count++] = sink.length;
          continue;
        }
        const offset = j * STRING_T_BYTES;
        const length = view.getUint32(offset, true);
        sink.reserve(length);
        const target = sink.bytes;
        let at = sink.length;
        if (length <= STRING_T_INLINE) {
          for (let b = offset + 4; b < offset + 4 + length; b++) {
            const byte = bytes[b] as number;
            ascii |= byte;
            target[at++] = byte;
          }
        } else {
          const text = bindings.get_data_from_pointer(
            data.buffer as ArrayBuffer,
            data.byteOffset + offset + 8,
            length,
          );
          for (let b = 0; b < length; b++) ascii |= text[b] as number;
          target.set(text, at);
          at += length;
        }
        sink.length = at;
        ends[column.count++] = at;
      }
      if (ascii >= 0x80) column.ascii = false;
    });
  }
  return kinds.map((kind, c) => {
    if (kind === "number") {
      const sink = numbers[c] as NumberSink;
      return sink.values.slice(0, sink.length);
    }
    return decodeStrings(strings[c] as StringColumn);
  });
}

/**
 * One decode for the whole column; an all-ASCII column is then cut by byte offsets (which are
 * then also UTF-16 offsets), any other column is decoded string by string.
 */
function decodeStrings(column: StringColumn): (string | null)[] {
  const { sink, ends, count } = column;
  const out = new Array<string | null>(count);
  const decoder = new TextDecoder();
  const whole = column.ascii ? decoder.decode(sink.bytes.subarray(0, sink.length)) : "";
  let start = 0;
  for (let i = 0; i < count; i++) {
    const end = ends[i] as number;
    out[i] = column.ascii
      ? whole.slice(start, end)
      : decoder.decode(sink.bytes.subarray(start, end));
    start = end;
  }
  for (const i of column.nulls) out[i] = null;
  return out;
}
