/** How a report describes one input a reader read: where from, its digest, format and size. */
export interface InputDescription {
  /** The file as given ("stdin" for -), or a database's URL (password hidden) and table. */
  readonly file: string;
  /** SHA-256 of the file, or of the statement run in the database. */
  readonly sha256: string;
  /** csv, tsv, jsonl, parquet, a tool's name, or the warehouse. */
  readonly format: string;
  /** Rows read (per-query), or per-document rows (a per-document table, a database's K rows). */
  readonly rows: number;
  readonly kind: "per-query" | "per-document";
}
