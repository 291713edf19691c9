/** How the input's sums were added, as the ingest readers report it. */
export type SummationKind = "exact" | "double-single-thread" | "double-query-order";

/** The provenance line for a double fallback; null when the sums are exact. */
export function summationNote(summation: SummationKind): string | null {
  if (summation === "exact") return null;
  const order =
    summation === "double-query-order" ? "in query-id order" : "on one thread, in file order";
  return `sums added in double precision ${order} (values too large for exact decimal sums)`;
}
