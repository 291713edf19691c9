/**
 * simulateSource's refusals that come before any reading: a two-stage study's unit column may
 * not be one of the per-document table's names, and the refusal names `psu` (its own option),
 * not `documentLabel`, although the column is read as the documents' label.
 */
import { describe, expect, it } from "vitest";
import { isRagciError } from "../../src/core/errors.js";
import { simulateSource } from "../../src/index.js";

describe("simulateSource: refusals before reading", () => {
  it("a two-stage unit column named like a per-document column is refused as `psu`", async () => {
    const studying = simulateSource(
      { files: ["no-such-census.csv"], doc: "doc_id" },
      { metrics: ["hit5"] },
      {
        sampling: "two-stage",
        psu: "s",
        units: [4],
        perUnit: 3,
        reps: [10],
        replicates: 0,
        seed: 1,
        level: 0.95,
      },
      { version: "test", threads: 1 },
    );
    const error = await studying.catch((e: unknown) => e);
    expect(isRagciError(error) && error.context.option).toBe("psu");
    expect((error as Error).message).toBe(
      "`psu` s: the per-document table already has a column s (system, metric, doc, n, s, ss, min, max); keep a column of another name",
    );
  });
});
