import type { Analysis, EstimandAnalysis } from "../../core/analyze.js";
import { fixed, intervalDf, levelPercent, percent, significant } from "../format.js";
import { htmlTable, type TableRow } from "./htmlTable.js";
import type { MethodRow } from "./methodRows.js";

/** "95%", or "90.5%" for a level that is not a whole percentage (levelPercent). */
export function levelText(level: number): string {
  return levelPercent(level);
}

/**
 * The headline table: per estimand the estimate, the recommended interval, se, ν, method and
 * the question the estimand answers. Cells carry data-field names (estimate, lower, upper, se,
 * df, method) so the browser tests read the same cells a reader does.
 */
export function estimateTable(
  a: Analysis,
  decimals: number,
  key: Readonly<Record<string, string>>,
): string {
  const estimands = [a.micro, a.macro].filter((e): e is EstimandAnalysis => e !== null);
  const rows: TableRow[] = estimands.map((e) => {
    const i = e.intervals[e.recommended];
    const available = i?.available === true;
    return {
      className: "recommended",
      data: { ...key, estimand: e.estimand },
      cells: [
        e.estimand,
        { text: fixed(e.estimate, decimals), numeric: true, field: "estimate" },
        {
          text: available ? fixed(i.lower, decimals) : "unavailable",
          numeric: true,
          field: "lower",
        },
        { text: available ? fixed(i.upper, decimals) : "", numeric: true, field: "upper" },
        { text: available && i.se !== null ? significant(i.se) : "", numeric: true, field: "se" },
        { text: available ? intervalDf(i) : "", numeric: true, field: "df" },
        { text: e.recommended, field: "method" },
        available ? e.question : `${e.question}; ${i?.available === false ? i.reason : ""}`,
      ],
    };
  });
  return htmlTable({
    header: [
      "",
      { text: "estimate", numeric: true },
      { text: `${levelText(a.level)} lower`, numeric: true },
      { text: "upper", numeric: true },
      { text: "se", numeric: true },
      { text: "ν", numeric: true },
      "method",
      "the question it answers",
    ],
    rows,
    data: { ...key, table: "estimates" },
  });
}

function note(row: MethodRow, coverage: string | null): string {
  const i = row.interval;
  if (!i.available) return i.reason;
  const r = i.resampling;
  const resampled = r
    ? `B = ${r.replicates}, seed ${r.seed}${r.degenerate > 0 ? `, ${percent(r.degenerate, 1)} degenerate` : ""}`
    : "";
  const role = {
    recommended: "recommended",
    withheld: `not recommended: ${row.withheld ?? ""}`,
    contrast: "contrast: not to use",
    also: "",
  }[row.role];
  return [role, coverage, resampled].filter(Boolean).join("; ");
}

/** Every interval in the figure's order, with the reason where one is unavailable. */
export function methodTable(
  rows: readonly MethodRow[],
  decimals: number,
  key: Readonly<Record<string, string>>,
  coverage: (estimand: string, method: string) => string | null = () => null,
): string {
  return htmlTable({
    header: ["estimand", "method", "interval", { text: "se", numeric: true }, "ν", "note"],
    rows: rows.map((row) => ({
      className:
        row.role === "contrast" ? "contrast" : row.role === "recommended" ? "recommended" : "",
      data: { ...key, estimand: row.estimand, method: row.method },
      cells: row.interval.available
        ? [
            row.estimand,
            row.method,
            {
              text: `[${fixed(row.interval.lower, decimals)}, ${fixed(row.interval.upper, decimals)}]`,
              field: "interval",
            },
            { text: row.interval.se === null ? "" : significant(row.interval.se), numeric: true },
            intervalDf(row.interval),
            note(row, coverage(row.estimand, row.method)),
          ]
        : [
            row.estimand,
            row.method,
            { text: "unavailable", field: "interval" },
            "",
            "",
            note(row, null),
          ],
    })),
    data: { ...key, table: "methods" },
  });
}
