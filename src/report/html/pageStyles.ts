/**
 * The page's only style sheet. Colours are chosen for contrast on white (text ≥ 4.5:1, the
 * greyed contrasts #595959 ≈ 7:1). Numbers never break inside themselves: a table or figure
 * wider than a phone scrolls sideways inside its own box at a legible size (the page itself
 * never does), and only file paths and digests, which have no spaces, may break anywhere. In
 * print a figure stays on one page and a long table breaks between rows, repeating its header.
 */
export const PAGE_CSS = `
:root { color-scheme: light; --ink: #1a1a1a; --muted: #595959; --rule: #c8c8c8; --accent: #1f4e79; --warn: #8a4b00; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 60rem; padding: 1rem 1.25rem 3rem; color: var(--ink); background: #fff;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
h1 { font-size: 1.45rem; margin: 0.5rem 0 0.25rem; line-height: 1.25; }
h2 { font-size: 1.2rem; margin: 2rem 0 0.5rem; padding-top: 0.5rem; border-top: 2px solid var(--accent); }
h3 { font-size: 1.02rem; margin: 1.4rem 0 0.35rem; }
h4 { font-size: 0.95rem; margin: 0.6rem 0 0.2rem; }
p, li { max-width: 48rem; }
/* File paths and digests have no spaces: let them break rather than widen a phone's page.
   Table cells only break a word that cannot fit (break-word keeps the cell's minimum width at
   its longest word, so "0.0267" or "micro" is never split into a column of characters). */
h1, h2, h3, h4, p, li, figcaption, dd, .path { overflow-wrap: anywhere; }
td { overflow-wrap: break-word; }
td.num, td[data-field="interval"] { white-space: nowrap; }
.lede { color: var(--muted); margin-top: 0; }
code, .mono { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
.hash { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.8rem; word-break: break-all; }
.table-wrap { overflow-x: auto; margin: 0.5rem 0 1rem; }
table { border-collapse: collapse; font-size: 0.9rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; font-weight: 600; padding: 0.25rem 0; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid var(--rule); text-align: left; vertical-align: top; }
th { border-bottom: 2px solid var(--ink); font-weight: 600; }
td.num, th.num { text-align: right; }
tr.contrast td { color: var(--muted); }
tr.recommended td { font-weight: 600; }
figure { margin: 1rem 0 1.5rem; break-inside: avoid; page-break-inside: avoid; }
figure svg { max-width: 100%; height: auto; display: block; }
.plot-scroll { overflow-x: auto; }
figcaption { font-size: 0.88rem; color: var(--ink); margin-top: 0.3rem; max-width: 48rem; }
figcaption .alt { display: block; color: var(--muted); }
.advice li.warning::marker { content: "! "; color: var(--warn); font-weight: 700; }
.warning-text { color: var(--warn); }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.15rem 1rem; margin: 0.5rem 0; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
.download { display: inline-block; padding: 0.3rem 0.7rem; border: 1px solid var(--accent); border-radius: 4px; color: var(--accent); text-decoration: none; font-weight: 600; }
footer { margin-top: 2.5rem; color: var(--muted); font-size: 0.85rem; }
@media (max-width: 40rem) {
  body { padding: 0.75rem; font-size: 14px; }
  th, td { padding: 0.2rem 0.4rem; }
  /* A figure drawn 760 units wide keeps at least 600 px (its 12 px labels stay ≥ 9.5 px) and
     scrolls sideways inside its box; the caption and text alternative below wrap as text. */
  figure svg { min-width: 600px; max-width: none; width: 600px; }
  dl.facts { grid-template-columns: 1fr; }
  dl.facts dd { margin-bottom: 0.4rem; }
}
@page { size: A4; margin: 14mm 12mm; }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  h2 { break-before: auto; break-after: avoid; }
  h3, h4 { break-after: avoid; }
  .table-wrap, .plot-scroll { overflow: visible; }
  table { font-size: 8.5pt; }
  th, td { padding: 0.15rem 0.35rem; }
  /* No scrolling box on paper: a name without spaces (a commit hash as a system) breaks
     rather than widen the table past the page; numbers and intervals still never break. */
  th, td { overflow-wrap: anywhere; }
  table { break-inside: auto; }
  tr, caption { break-inside: avoid; }
  thead { display: table-header-group; }
  figure svg { min-width: 0; width: auto; max-width: 100%; }
  a.download { border: none; padding: 0; }
  a.download::after { content: " (embedded in the HTML file)"; font-weight: 400; color: var(--muted); }
}
`;
