import type { ReportBlock } from "../reportBlocks.js";
import { escapeHtml } from "./escapeHtml.js";
import { htmlTable } from "./htmlTable.js";

/**
 * The plan, strata and simulation reports' blocks as HTML — the same rows the terminal and
 * Markdown print, so the page's tables cannot drift from them. The title block is left to the
 * page header. Each table row carries data-row (its first cell) for readers and tests.
 */
export function blocksToHtml(blocks: readonly ReportBlock[], key: string): string {
  return blocks
    .map((block, i) => {
      switch (block.kind) {
        case "title":
          return "";
        case "heading":
          return `<h3>${escapeHtml(block.text)}</h3>`;
        case "text":
          return `<p>${escapeHtml(block.text)}</p>`;
        case "bullets":
          return block.items.length === 0
            ? ""
            : `<ul>${block.items.map((item) => `<li>${escapeHtml(item)}</li>`).join("")}</ul>`;
        case "table": {
          const [header = [], ...rows] = block.rows;
          const numeric = (c: number) => block.align[c] === "r";
          return htmlTable({
            header: header.map((text, c) => ({ text, numeric: numeric(c) })),
            rows: rows.map((row) => ({
              data: { row: row[0] ?? "" },
              cells: row.map((text, c) => ({ text, numeric: numeric(c) })),
            })),
            data: { table: `${key}-${i}` },
          });
        }
      }
      return "";
    })
    .join("\n");
}
