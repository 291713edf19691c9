import { RagciError } from "../core/errors.js";
import type { DocumentRows, MetricColumns, QueryContext } from "./documentRows.js";
import { documentStatsIn } from "./documentStatsIn.js";
import type { MetricAggregates } from "./resultsTable.js";
import { isBlankId, locateBadRow, rowChecks, splitLabelError } from "./validateRows.js";

/**
 * The row checks, from the per-document rows: the file is scanned again only to name the
 * first bad line.
 */
export async function checkDocumentRows(rows: DocumentRows, c: QueryContext): Promise<void> {
  if (rows.count === 0) {
    throw new RagciError("empty-input", `${c.file}: no rows; there is nothing to analyse`, {
      file: c.file,
    });
  }
  if (rows.doc.some(isBlankId))
    throw await locateBadRow(c.rowsAt, rowChecks.document(c.documentColumn));
  if (c.systemColumn && rows.sys.some(isBlankId))
    throw await locateBadRow(c.rowsAt, rowChecks.system(c.systemColumn));
  for (const [i, metric] of c.metrics.entries()) {
    const m = rows.metrics[i] as MetricColumns;
    for (let d = 0; d < rows.count; d++) {
      if (
        (m.present[d] as number) < (rows.n[d] as number) ||
        !Number.isFinite(m.min?.[d]) ||
        !Number.isFinite(m.max?.[d])
      )
        throw await locateBadRow(c.rowsAt, rowChecks.metric(metric, i));
    }
  }
  const label = rows.label;
  if (c.labelColumn && label) {
    if (label.first.some(isBlankId))
      throw await locateBadRow(c.rowsAt, rowChecks.label(c.labelColumn));
    const split = label.distinct.findIndex((k) => k > 1);
    if (split >= 0)
      throw splitLabelError(c.file, String(rows.doc[split]), c.labelColumn, [
        String(label.first[split]),
        String(label.last[split]),
      ]);
  }
}

/**
 * One group per system × metric, systems in the rows' order (sorted), metrics as asked; a
 * metric is 0/1 when every value of every document is a whole number within [0, 1].
 */
export function documentGroups(
  rows: DocumentRows,
  c: Pick<QueryContext, "file" | "metrics" | "labelColumn">,
): MetricAggregates[] {
  const groups: MetricAggregates[] = [];
  let start = 0;
  while (start < rows.count) {
    const system = rows.sys[start] ?? null;
    let end = start + 1;
    while (end < rows.count && (rows.sys[end] ?? null) === system) end++;
    const ids = rows.doc.slice(start, end) as string[];
    const n = rows.n.subarray(start, end);
    c.metrics.forEach((metric, i) => {
      const m = rows.metrics[i] as MetricColumns;
      const mins = m.min as Float64Array;
      const maxs = m.max as Float64Array;
      let binary = true;
      let min = Number.POSITIVE_INFINITY;
      let max = Number.NEGATIVE_INFINITY;
      for (let d = start; d < end; d++) {
        const lo = mins[d] as number;
        const hi = maxs[d] as number;
        binary &&= m.whole[d] === 1 && lo >= 0 && hi <= 1;
        min = Math.min(min, lo);
        max = Math.max(max, hi);
      }
      groups.push({
        system,
        metric,
        ranges: { min: mins.subarray(start, end), max: maxs.subarray(start, end) },
        ...(c.labelColumn && rows.label
          ? { labels: rows.label.first.slice(start, end).map(String) }
          : {}),
        stats: documentStatsIn(
          c.file,
          {
            ids,
            n,
            s: m.s.subarray(start, end),
            ss: m.ss.subarray(start, end),
            binary,
            min,
            max,
            idsDistinct: true,
          },
          { metric },
        ),
      });
    });
    start = end;
  }
  return groups;
}
