/** How the small-CSV readers' differential tests write a metric: its kind and a row's draws. */
export type MetricKind = "binary" | "integer" | "decimal";

/** Fractions whose DECIMAL(38, 18) sums and casts test the readers' sums. */
const FRACTIONS = ["0.1", "0.25", "0.3333333333333333", "1.0", "0.7", "12.5", "0.0"];

/** A value's text: 0/1 from `bit`, or a whole number or a fraction picked by `i` and `bit`. */
export function metricText(kind: MetricKind, i: number, bit: boolean): string {
  if (kind === "binary") return bit ? "1" : "0";
  if (kind === "integer") return String((i % 7) - (bit ? 2 : 0));
  return FRACTIONS[(i + (bit ? 3 : 0)) % FRACTIONS.length] as string;
}
