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
