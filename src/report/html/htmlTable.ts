import { escapeHtml } from "./escapeHtml.js";

export interface TableCell {
  readonly text: string;
  /** Right-aligned numbers; a data-field names what a test (or a reader's tool) can find. */
  readonly numeric?: boolean;
  readonly field?: string;
  /** Extra CSS class (e.g. "hash" for a digest that may wrap anywhere). */
  readonly className?: string;
  /** A link inside the page ("#analysis-2"), for an overview row to reach its section. */
  readonly href?: string;
}

export interface TableRow {
  readonly cells: readonly (TableCell | string)[];
  /** CSS class of the row: "recommended", "contrast". */
  readonly className?: string;
  /** data-* attributes of the row (e.g. { estimand: "micro" }). */
  readonly data?: Readonly<Record<string, string>>;
}

function cellOf(cell: TableCell | string): TableCell {
  return typeof cell === "string" ? { text: cell } : cell;
}

function classOf(c: TableCell): string {
  const names = [c.numeric ? "num" : "", c.className ?? ""].filter(Boolean);
  return names.length > 0 ? ` class="${names.join(" ")}"` : "";
}

function attributes(data: Readonly<Record<string, string>> = {}): string {
  return Object.entries(data)
    .map(([k, v]) => ` data-${k}="${escapeHtml(v)}"`)
    .join("");
}

/** A table inside a scrolling box, so a wide one scrolls on a phone instead of the page. */
export function htmlTable(options: {
  readonly caption?: string;
  readonly header: readonly (TableCell | string)[];
  readonly rows: readonly TableRow[];
  readonly data?: Readonly<Record<string, string>>;
}): string {
  const head = options.header
    .map(cellOf)
    .map((c) => `<th scope="col"${c.numeric ? ' class="num"' : ""}>${escapeHtml(c.text)}</th>`)
    .join("");
  const body = options.rows
    .map((row) => {
      const cells = row.cells
        .map(cellOf)
        .map(
          (c) =>
            `<td${classOf(c)}${c.field ? ` data-field="${escapeHtml(c.field)}"` : ""}>${c.href ? `<a href="${escapeHtml(c.href)}">${escapeHtml(c.text)}</a>` : escapeHtml(c.text)}</td>`,
        )
        .join("");
      const cls = row.className ? ` class="${row.className}"` : "";
      return `<tr${cls}${attributes(row.data)}>${cells}</tr>`;
    })
    .join("\n");
  const caption = options.caption ? `<caption>${escapeHtml(options.caption)}</caption>` : "";
  return `<div class="table-wrap"><table${attributes(options.data)}>${caption}<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody></table></div>`;
}
