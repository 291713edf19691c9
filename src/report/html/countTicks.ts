/**
 * Tick labels of an axis that counts (documents, results, K): whole numbers written in full.
 * Plot's default writes a log axis's ticks with SI prefixes ("500m" for a bin edge at half a
 * result, "1k") and a linear axis of a few documents in halves ("0.5"); neither is a count.
 */
export function countTick(value: number): string {
  return Number.isInteger(value) ? String(value) : "";
}

/**
 * The same on a log axis, which ticks every 1–9 × 10^k: beyond one decade only 1, 2, 3 and 5
 * × 10^k are written, so the labels of a wide axis do not run into each other.
 */
export function countLogTick(largest: number): (value: number) => string {
  return (value: number) => {
    if (!Number.isInteger(value) || value < 1) return "";
    if (largest <= 10) return String(value);
    const lead = value / 10 ** Math.floor(Math.log10(value) + 1e-9);
    return [1, 2, 3, 5].some((l) => Math.abs(lead - l) < 1e-9) ? String(value) : "";
  };
}
