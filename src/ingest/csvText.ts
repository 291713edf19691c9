/**
 * The one CSV writer of ragci (RFC 4180): a field is quoted when it holds a comma, a quote,
 * a line break or surrounding spaces, and quotes inside it are doubled. Every CSV file ragci
 * writes goes through here, so ids with commas, quotes, newlines or any Unicode read back as
 * they were.
 */
export function csvField(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\n\r]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Header and rows as CSV text, one record per line, ending in a newline. */
export function csvText(
  header: readonly string[],
  rows: Iterable<readonly (string | number | null)[]>,
): string {
  const lines = [header.map(csvField).join(",")];
  for (const row of rows) lines.push(row.map(csvField).join(","));
  return `${lines.join("\n")}\n`;
}
