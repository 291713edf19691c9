import { optionRef, RagciError } from "../core/errors.js";

export type InputFormat = "csv" | "tsv" | "jsonl" | "parquet";

export const INPUT_FORMATS: readonly InputFormat[] = ["csv", "tsv", "jsonl", "parquet"];

const EXTENSIONS: ReadonlyArray<readonly [RegExp, InputFormat]> = [
  [/\.csv(\.gz|\.zst)?$/i, "csv"],
  [/\.(tsv|tab)(\.gz|\.zst)?$/i, "tsv"],
  [/\.(jsonl|ndjson|json)(\.gz|\.zst)?$/i, "jsonl"],
  [/\.(parquet|pq)$/i, "parquet"],
];

/** The format named by `--format`, else by the file's extension. */
export function inputFormat(file: string, declared?: string | null): InputFormat {
  if (declared) {
    const format = declared.toLowerCase() === "ndjson" ? "jsonl" : declared.toLowerCase();
    if ((INPUT_FORMATS as readonly string[]).includes(format)) return format as InputFormat;
    throw new RagciError(
      "invalid-option",
      `${optionRef("format")} ${declared} is not one of ${INPUT_FORMATS.join(", ")}`,
      { option: "format" },
    );
  }
  for (const [pattern, format] of EXTENSIONS) if (pattern.test(file)) return format;
  throw new RagciError(
    "unreadable-input",
    `${file}: cannot tell the format from the extension; name it with ${optionRef("format")} ${INPUT_FORMATS.join("|")}`,
    { file, option: "format" },
  );
}

/** DuckDB table function reading the file; `types` pins column types (CSV/TSV only). */
export function tableFunction(
  path: string,
  format: InputFormat,
  types: Readonly<Record<string, string>> = {},
): string {
  const file = sqlString(path);
  const typeList = Object.entries(types)
    .map(([column, type]) => `${sqlString(column)}: '${type}'`)
    .join(", ");
  const typed = typeList ? `, types = {${typeList}}` : "";
  switch (format) {
    // The quote is RFC 4180's, never sniffed: DuckDB's sniffer takes a file whose first rows
    // hold no quote, or a quote left open, as unquoted, and reads `"` into the values. TSV is
    // quoted the same way (pandas' to_csv(sep="\t") quotes a value holding a tab or a quote).
    case "csv":
      return `read_csv(${file}, header = true, quote = '"'${typed})`;
    case "tsv":
      return `read_csv(${file}, header = true, delim = '\t', quote = '"'${typed})`;
    case "jsonl":
      return `read_json(${file}, format = 'newline_delimited')`;
    case "parquet":
      return `read_parquet(${file})`;
  }
}

export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

export function sqlIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
