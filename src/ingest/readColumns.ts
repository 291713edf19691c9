import type { DuckDBConnection } from "@duckdb/node-api";
import { duckDbApi, duckDbBindings } from "./duckDbModules.js";

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
  // Each column gets the sink of its kind only.
  const numbers = kinds.map((kind) => (kind === "number" ? new NumberSink() : null));
  const strings = kinds.map((kind): StringColumn | null =>
    kind === "string"
      ? { sink: new ByteSink(), ends: new Int32Array(1 << 12), count: 0, nulls: [], ascii: true }
      : null,
  );
  // A materialized result's chunks are taken synchronously: fetchChunk is a round trip
  // through libuv's thread pool for each 2,048 rows.
  for (let index = 0; index < result.chunkCount; index++) {
    const chunk = result.getChunk(index);
    if (chunk.rowCount === 0) continue;
    const count = chunk.rowCount;
    kinds.forEach((kind, c) => {
      const vector = bindings.data_chunk_get_vector(chunk.chunk, c);
      const width = kind === "number" ? 8 : STRING_T_BYTES;
      const data = bindings.vector_get_data(vector, count * width);
      // Validity: one bit per row, least significant first; absent when every row is valid.
      const validity = bindings.vector_get_validity(vector, Math.ceil(count / 64) * 8);
      const allValid = !validity || validity.length === 0;
      const invalid = (j: number) => (((validity[j >> 3] as number) >> (j & 7)) & 1) === 0;
      if (kind === "number") {
        const out = numbers[c] as NumberSink;
        out.reserve(count);
        out.values.set(new Float64Array(data.buffer, data.byteOffset, count), out.length);
        if (!allValid)
          for (let j = 0; j < count; j++) if (invalid(j)) out.values[out.length + j] = Number.NaN;
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
        if (!allValid && invalid(j)) {
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
