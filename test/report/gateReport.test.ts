import { describe, expect, it } from "vitest";
import { escapeCommandData, escapeCommandProperty } from "../../src/report/gateReport.js";

describe("GitHub workflow command escaping (as @actions/core's command.ts)", () => {
  it("a message encodes %, CR and LF, % first so the codes are not encoded again", () => {
    expect(escapeCommandData("95% of\r\nqueries %0A")).toBe("95%25 of%0D%0Aqueries %250A");
  });

  it("a property also encodes : and , (they delimit the properties)", () => {
    expect(escapeCommandProperty("ragci gate: hit@5, rr\n100%")).toBe(
      "ragci gate%3A hit@5%2C rr%0A100%25",
    );
  });
});
