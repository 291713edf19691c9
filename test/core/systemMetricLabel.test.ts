import { describe, expect, it } from "vitest";
import { RagciError } from "../../src/core/errors.js";
import { namingSystemMetric, systemMetricLabel } from "../../src/core/systemMetricLabel.js";

const fail = () => {
  throw new RagciError("too-few-documents", "2 documents: give at least 3", { file: "r.csv" });
};

describe("systemMetricLabel and namingSystemMetric", () => {
  it("labels an analysis system/metric, or metric alone", () => {
    expect(systemMetricLabel({ system: "bm25", metric: "hit5" })).toBe("bm25/hit5");
    expect(systemMetricLabel({ system: null, metric: "hit5" })).toBe("hit5");
  });

  it("names the system and metric in an error when there are several analyses", () => {
    expect(() => namingSystemMetric({ system: "bm25", metric: "hit5" }, 1, fail)).toThrow(
      "system bm25, metric hit5: 2 documents: give at least 3",
    );
    expect(() => namingSystemMetric({ system: null, metric: "rr" }, 2, fail)).toThrow(
      /^metric rr: 2 documents/,
    );
    expect(() => namingSystemMetric({ system: null, metric: "rr" }, 1, fail)).toThrow(
      /^2 documents: give at least 3$/,
    );
    expect(namingSystemMetric({ system: null, metric: "rr" }, 1, () => 7)).toBe(7);
  });
});
