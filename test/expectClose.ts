import { expect } from "vitest";

/**
 * Deep equality with numbers equal to `tolerance` relative (shard sums of non-binary metrics
 * add in another order); `aggregatesSha256` is skipped, as it digests those very sums.
 */
export function expectClose(
  actual: unknown,
  expected: unknown,
  tolerance: number,
  path = "",
): void {
  if (typeof expected === "number" && typeof actual === "number") {
    expect(Math.abs(actual - expected), path).toBeLessThanOrEqual(
      tolerance * Math.max(Math.abs(expected), 1e-300),
    );
  } else if (expected && typeof expected === "object") {
    expect(Object.keys(actual as object).sort(), path).toEqual(Object.keys(expected).sort());
    for (const [key, value] of Object.entries(expected)) {
      if (key === "aggregatesSha256") continue;
      expectClose((actual as Record<string, unknown>)[key], value, tolerance, `${path}.${key}`);
    }
  } else expect(actual, path).toEqual(expected);
}

/**
 * |actual − expected| ≤ max(rel·|expected|, abs), both numbers in the failure message; a null
 * actual fails. `abs` (0 unless given) is the tolerance where expected is 0 or tiny.
 */
export function expectRelativelyClose(
  actual: number | null,
  expected: number,
  options: { rel: number; abs?: number; label?: string },
): void {
  const label = options.label === undefined ? "" : `${options.label}: `;
  if (actual === null) throw new Error(`${label}null where ${expected} was expected`);
  expect(Math.abs(actual - expected), `${label}${actual} vs ${expected}`).toBeLessThanOrEqual(
    Math.max(options.rel * Math.abs(expected), options.abs ?? 0),
  );
}

/** |a − b| ≤ rel·max(|a|, |b|, floor): symmetric, for predicates (fast-check, summary tables). */
export function isRelativelyClose(a: number, b: number, rel: number, floor: number): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), floor);
}
