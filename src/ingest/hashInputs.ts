import { createHash } from "node:crypto";
import { endianness } from "node:os";
import { AGGREGATE_COLUMNS } from "./aggregateColumns.js";
import { csvText } from "./csvText.js";
import { documentRanges } from "./documentRanges.js";
import type { MetricAggregates } from "./resultsTable.js";

/**
 * The per-document aggregates as CSV text, one row per system × metric × document. Numbers
 * use JavaScript's shortest round-trip form, so reading the file back gives the same doubles.
 * `min`/`max` are the range of the document's single results (documentRanges); where the
 * reader did not keep them (a score's census in plan, strata and simulate pages), the table's.
 * With `labelColumn`, each document's design label (stratum or psu) follows in that column, so
 * `--aggregated --design` re-runs from the file.
 */
export function aggregatesCsv(
  groups: readonly MetricAggregates[],
  labelColumn: string | null = null,
): string {
  function* rows() {
    for (const group of groups) {
      const { system, metric, stats, labels } = group;
      const ranges = documentRanges(group);
      // A document's range not known: the table's (null when that is not known either).
      const known = (value: number | undefined, table: number | null) =>
        value === undefined || Number.isNaN(value) ? table : value;
      for (let d = 0; d < stats.ids.length; d++) {
        yield [
          system ?? "",
          metric,
          stats.ids[d] as string,
          stats.n[d] as number,
          stats.s[d] as number,
          stats.ss[d] as number,
          known(ranges.min[d], stats.min),
          known(ranges.max[d], stats.max),
          ...(labelColumn ? [labels?.[d] ?? ""] : []),
        ];
      }
    }
  }
  return csvText([...AGGREGATE_COLUMNS, ...(labelColumn ? [labelColumn] : [])], rows());
}

/**
 * SHA-256 of the per-document aggregates in a canonical binary form, per system × metric:
 * the system and metric names and every document id, UTF-8 and NUL-terminated, then n, s and
 * ss as little-endian float64 arrays, then min and max. Doubles round-trip through the CSV and
 * Parquet files of --write-aggregates, so re-running from them reproduces this digest. With a
 * design, each document's stratum or psu label follows (after a 0x01 byte).
 */
export function sha256Aggregates(groups: readonly MetricAggregates[]): string {
  const hash = createHash("sha256");
  const littleEndian = endianness() === "LE";
  const bytes = (values: Float64Array) => {
    if (littleEndian) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
    const out = new DataView(new ArrayBuffer(values.byteLength));
    values.forEach((v, i) => {
      out.setFloat64(8 * i, v, true);
    });
    return new Uint8Array(out.buffer);
  };
  for (const { system, metric, stats, labels } of groups) {
    hash.update(`${system ?? ""}\0${metric}\0`);
    const batch = 65536;
    for (let i = 0; i < stats.ids.length; i += batch) {
      hash.update(`${stats.ids.slice(i, i + batch).join("\0")}\0`);
    }
    hash.update(bytes(stats.n));
    hash.update(bytes(stats.s));
    hash.update(bytes(stats.ss));
    hash.update(bytes(Float64Array.of(stats.min ?? Number.NaN, stats.max ?? Number.NaN)));
    // A design's labels change the result, so they are part of what is digested.
    if (labels) hash.update(`\u0001${labels.join("\0")}\0`);
  }
  return hash.digest("hex");
}
