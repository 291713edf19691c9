import { describe, expect, it } from "vitest";
import { withFlags } from "../../src/cli/flagHints.js";
import { checkReplicates } from "../../src/core/bootstrap/replicateLimit.js";
import { comparisonPairs } from "../../src/core/comparisonPairs.js";
import { optionRef } from "../../src/core/errors.js";

describe("withFlags", () => {
  it("shows core's option references as the CLI's flags", () => {
    expect(withFlags(`pass ${optionRef("replicates")} B or ${optionRef("chunkBootstrap")}`)).toBe(
      "pass --replicates B or --chunk-bootstrap",
    );
    expect(withFlags(`${optionRef("lonelyPsu")}, ${optionRef("allPairs")}`)).toBe(
      "--lonely-psu, --all-pairs",
    );
  });

  it("leaves other backticked words alone", () => {
    expect(withFlags("see `ragci plan` and `level`")).toBe("see `ragci plan` and `level`");
  });

  it("is safe on rendered JSON", () => {
    const json = JSON.stringify({ reason: `lower ${optionRef("replicates")}` });
    expect(JSON.parse(withFlags(json))).toEqual({ reason: "lower --replicates" });
  });
});

describe("core messages name options, not flags", () => {
  it("the library's errors name the library's options", () => {
    expect(() => checkReplicates(-1)).toThrow(/^`replicates` -1: give a whole number/);
    expect(() => comparisonPairs(["a", "b", "c"], {})).toThrow(
      "3 systems (a, b, c): choose `baseline` SYSTEM or `allPairs`",
    );
  });
});
