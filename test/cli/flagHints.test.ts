import { describe, expect, it } from "vitest";
import { withFlags } from "../../src/cli/flagHints.js";
import { checkReplicates } from "../../src/core/bootstrap/replicateLimit.js";
import { comparisonPairs } from "../../src/core/comparisonPairs.js";
import { isRagciError, optionRef } from "../../src/core/errors.js";
import { inputFormat, parseDatabaseUrl, parseSystemSelection } from "../../src/ingest/index.js";

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
    expect(withFlags("see `ragci plan` and `sigma`")).toBe("see `ragci plan` and `sigma`");
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

describe("ingest messages name options, not flags", () => {
  /** The error `run` throws: its message, and the option its context names. */
  const thrown = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      if (isRagciError(error)) return { message: error.message, option: error.context.option };
      throw error;
    }
    throw new Error("did not throw");
  };

  it("carry the option in their context, and the CLI shows its flag", () => {
    const cases = [
      [() => parseSystemSelection("=bm25"), "system", "--system =bm25: give COLUMN"],
      [() => inputFormat("results.xlsx"), "format", "name it with --format csv|tsv"],
      [() => inputFormat("r.csv", "xml"), "format", "--format xml is not one of"],
      [() => parseDatabaseUrl("mysql://h/db"), "url", "--from mysql:…: give a URL"],
    ] as const;
    for (const [run, option, shown] of cases) {
      const error = thrown(run);
      expect(error.option).toBe(option);
      expect(error.message).toContain(optionRef(option));
      expect(error.message).not.toMatch(/--[a-z]/);
      expect(withFlags(error.message)).toContain(shown);
    }
  });
});
