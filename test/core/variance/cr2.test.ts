import { describe, expect, it } from "vitest";
import { cr1, cr2, documentStats, RagciError } from "../../../src/core/index.js";

describe("cr2", () => {
  // k5_binary: exact rational value, confirmed by R clubSandwich 0.5.8 vcovCR(type = "CR2").
  const k5 = documentStats({
    ids: ["d01", "d02", "d03", "d04", "d05"],
    n: [3, 9, 14, 26, 58],
    s: [1, 5, 10, 11, 19],
  });

  it("cr2(k5) has se 0.08123521171181719 and ν 2.0873149114586846", () => {
    const { se, df } = cr2(k5);
    expect(se).toBeCloseTo(0.08123521171181719, 15);
    expect(df).toBeCloseTo(2.0873149114586846, 14);
  });

  it("cr2(stats).se is 0 when every document has the same rate", () => {
    const equal = documentStats({ ids: ["a", "b", "c"], n: [4, 8, 12], s: [1, 2, 3] });
    expect(cr2(equal).se).toBe(0);
    expect(cr1(equal).se).toBe(0);
  });

  it("cr2 stays finite and positive when one document holds almost every result", () => {
    const skewed = documentStats({ ids: ["big", "a", "b"], n: [1e9, 1, 1], s: [5e8, 1, 0] });
    const { se, df } = cr2(skewed);
    expect(Number.isFinite(se) && se > 0).toBe(true);
    expect(df).toBeGreaterThan(0);
    expect(df).toBeLessThan(1.01);
  });

  it("throws too-few-documents for one document", () => {
    const one = documentStats({ ids: ["a"], n: [4], s: [1] });
    expect(() => cr2(one)).toThrowError(
      expect.objectContaining({ code: "too-few-documents" }) as unknown as Error,
    );
    expect(() => cr2(one)).toThrow(RagciError);
  });
});
