import { allOrNoneBound } from "../core/simulation/allOrNoneBound.js";

/** Number formatting shared by the terminal and Markdown reports. */

/** Decimals that show `scale` with about three significant digits (at least 3). */
export function decimalsFor(scale: number): number {
  const magnitude = Math.abs(scale);
  if (!(magnitude > 0) || !Number.isFinite(magnitude)) return 3;
  return Math.min(8, Math.max(3, 2 - Math.floor(Math.log10(magnitude))));
}

export function fixed(value: number, decimals: number): string {
  const text = value.toFixed(decimals);
  return text === `-${(0).toFixed(decimals)}` ? (0).toFixed(decimals) : text;
}

/** Three significant digits, for standard errors and ratios. */
export function significant(value: number, digits = 3): string {
  if (value === 0) return "0";
  if (!Number.isFinite(value)) return String(value);
  const magnitude = Math.floor(Math.log10(Math.abs(value)));
  return value.toFixed(Math.max(0, digits - 1 - magnitude));
}

/**
 * An interval's ν as shown beside it: "" for a resampling interval (its bounds are replicate
 * quantiles, no quantile of a reference distribution), "z" for a normal one, else ν.
 */
export function intervalDf(interval: {
  readonly q: number | null;
  readonly df: number | null;
}): string {
  return interval.q === null ? "" : degreesOfFreedom(interval.df);
}

/** Degrees of freedom: whole numbers as such, others with two decimals. */
export function degreesOfFreedom(df: number | null): string {
  if (df === null) return "z";
  return Number.isInteger(df) ? String(df) : df.toFixed(2);
}

/**
 * A p-value as read: two significant digits down to 0.001, then scientific notation
 * ("5.5e-7"), and "< 1e-15" below what double-precision tail areas resolve.
 */
export function pValue(p: number): string {
  if (p < 1e-15) return "< 1e-15";
  if (p < 0.001) return p.toExponential(1).replace("e-", "e-");
  return significant(p, 2);
}

export function signed(value: number, decimals: number): string {
  const text = fixed(value, decimals);
  return value > 0 && !/^0\.?0*$/.test(text) ? `+${text}` : text;
}

export function percent(value: number, decimals = 0): string {
  return `${(100 * value).toFixed(decimals)}%`;
}

// Levels are labelled by core's rule, so that core's messages and the reports agree.
export { levelPercent } from "../core/intervals/levelPercent.js";

/** Compact count: 1380, 12.3k, 10.0M. */
export function count(value: number): string {
  if (value < 10_000) return String(Math.round(value * 100) / 100);
  if (value < 1_000_000) return `${(value / 1000).toFixed(1)}k`;
  return `${(value / 1_000_000).toFixed(1)}M`;
}

/** Pads cells so every column lines up; `align` per column ("l" or "r"). */
export function alignColumns(
  rows: readonly (readonly string[])[],
  align: readonly ("l" | "r")[],
  gap = "  ",
): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, [...cell].length);
    });
  }
  return rows.map((row) =>
    row
      .map((cell, i) => {
        const pad = " ".repeat((widths[i] ?? 0) - [...cell].length);
        return align[i] === "r" ? pad + cell : cell + pad;
      })
      .join(gap)
      .trimEnd(),
  );
}

/** ANSI emphasis, or plain text when colour is off (not a TTY, NO_COLOR). */
export function ansiStyle(on: boolean) {
  const wrap = (open: string, close: string) => (s: string) =>
    on ? `\u001b[${open}m${s}\u001b[${close}m` : s;
  return { bold: wrap("1", "22"), dim: wrap("2", "22"), yellow: wrap("33", "39") };
}

/**
 * A study's coverage with its Monte Carlo error: "87.2% ± 0.5" (se in points), or, where every
 * repetition covered (or none did) and the se is 0, the exact one-sided bound: "100.0% (≥ 98.5)".
 */
export function coverageWithError(coverage: number, mcse: number, reps: number): string {
  const bound = allOrNoneBound(coverage, reps);
  return bound === null
    ? `${percent(coverage, 1)} ± ${fixed(100 * mcse, 1)}`
    : `${percent(coverage, 1)} (${bound.side} ${fixed(100 * bound.bound, 1)})`;
}
