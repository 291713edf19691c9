// Pads the pipe tables of a generated Markdown file so that the raw text reads as a table too
// (the rendering is the same): each column as wide as its widest cell, left- or right-aligned as
// its separator says (`---:` right), the separator's dashes as wide as the column.

// A cell may hold an escaped pipe (\|, as in "mean \|coverage − 95\|"): only the others split.
const cellsOf = (line) =>
  line
    .trim()
    .replace(/^\||(?<!\\)\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** `text` with every block of consecutive `|` lines whose second line is a separator aligned. */
export function alignTables(text) {
  const lines = text.split("\n");
  const out = [];
  for (let i = 0; i < lines.length; ) {
    const separator = lines[i + 1];
    if (!lines[i]?.startsWith("|") || !separator || !/^\|[\s:|-]+\|$/.test(separator.trim())) {
      out.push(lines[i]);
      i++;
      continue;
    }
    let end = i;
    while (end < lines.length && lines[end]?.startsWith("|")) end++;
    const rows = lines.slice(i, end).map(cellsOf);
    const right = (rows[1] ?? []).map((c) => c.endsWith(":"));
    const widths = rows[0].map((_, j) =>
      Math.max(3, ...rows.filter((_, r) => r !== 1).map((row) => (row[j] ?? "").length)),
    );
    rows.forEach((row, r) => {
      const cells = widths.map((w, j) =>
        r === 1
          ? right[j]
            ? `${"-".repeat(w - 1)}:`
            : "-".repeat(w)
          : right[j]
            ? (row[j] ?? "").padStart(w)
            : (row[j] ?? "").padEnd(w),
      );
      out.push(`| ${cells.join(" | ")} |`);
    });
    i = end;
  }
  return out.join("\n");
}
