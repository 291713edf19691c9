import { alignColumns } from "./format.js";

/**
 * A report as a few kinds of block, so one description prints both as aligned terminal text
 * and as Markdown (the plan and strata reports are built this way).
 */
export type ReportBlock =
  | { readonly kind: "title"; readonly text: string }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "heading"; readonly text: string }
  | {
      readonly kind: "table";
      readonly rows: readonly (readonly string[])[];
      /** "l" or "r" per column; the first row is the header. */
      readonly align: readonly ("l" | "r")[];
    }
  | { readonly kind: "bullets"; readonly items: readonly string[] };

/** Terminal text: tables aligned and indented, bullets as "  · ". */
export function blocksToTerminal(blocks: readonly ReportBlock[]): string {
  const lines: string[] = [];
  let previous: ReportBlock["kind"] | null = null;
  for (const block of blocks) {
    // A heading's table or list, and a table's footnotes, follow it without a blank line.
    const attached =
      (previous === "heading" && (block.kind === "table" || block.kind === "bullets")) ||
      (previous === "table" && block.kind === "bullets");
    if (previous !== null && !attached) lines.push("");
    previous = block.kind;
    switch (block.kind) {
      case "title":
      case "text":
        lines.push(block.text);
        break;
      case "heading":
        lines.push(block.text);
        break;
      case "table":
        lines.push(
          ...alignColumns(
            block.rows.map((r) => [...r]),
            [...block.align],
            "   ",
          ).map((l) => `  ${l}`),
        );
        break;
      case "bullets":
        lines.push(...block.items.map((item) => `  · ${item}`));
        break;
    }
  }
  return `${lines.join("\n")}\n`;
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|");
}

/** Markdown: a level-2 title, level-3 headings, pipe tables, bullet lists. */
export function blocksToMarkdown(blocks: readonly ReportBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.kind) {
      case "title":
        parts.push(`## ${block.text}`);
        break;
      case "heading":
        parts.push(`### ${block.text}`);
        break;
      case "text":
        parts.push(block.text);
        break;
      case "table": {
        const [header = [], ...body] = block.rows;
        const rule = block.align.map((a) => (a === "r" ? "---:" : "---"));
        const row = (cells: readonly string[]) =>
          `| ${header.map((_, i) => cell(cells[i] ?? "")).join(" | ")} |`;
        parts.push(
          [
            row(header.map((h) => h || " ")),
            `| ${rule.slice(0, header.length).join(" | ")} |`,
            ...body.map(row),
          ].join("\n"),
        );
        break;
      }
      case "bullets":
        parts.push(block.items.map((item) => `- ${item}`).join("\n"));
        break;
    }
  }
  return `${parts.join("\n\n")}\n`;
}
