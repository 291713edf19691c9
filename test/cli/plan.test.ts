import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStats, pilotStandardDeviations, requiredDocuments } from "../../src/core/index.js";
import { EXAMPLE, FIXTURES, ragci, scratchDir } from "./runCli.js";

function json(args: string[]): Record<string, any> {
  const result = ragci([...args, "--json"]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout);
}

describe("ragci plan", () => {
  it("--sd 0.224 --population 1300 --half-width 0.05 gives 76 documents, 80 without fpc (SPEC §7)", () => {
    const out = json(["plan", "--sd", "0.224", "--population", "1300", "--half-width", "0.05"]);
    expect(out.schema).toBe("ragci.plan/1");
    expect(out.macro.documents).toBe(76);
    expect(out.macro.documentsWithoutFpc).toBe(80);
    expect(out.micro.documents).toBe(76);
    expect(out.micro.curve.length).toBeGreaterThan(3);
  });

  it("--sd 0.412 gives 220 documents, 264 without fpc", () => {
    const out = json([
      "plan",
      "--sd-micro",
      "0.412",
      "--sd-macro",
      "0.224",
      "--population",
      "1300",
      "--half-width",
      "0.05",
    ]);
    expect([out.micro.documents, out.micro.documentsWithoutFpc]).toEqual([220, 264]);
    expect([out.macro.documents, out.macro.documentsWithoutFpc]).toEqual([76, 80]);
  });

  it("estimates S from a pilot file (one system) and warns that S is itself uncertain", () => {
    const out = json([
      "plan",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--half-width",
      "0.03",
      "--population",
      "1300",
    ]);
    expect(out.source).toMatchObject({ kind: "pilot", documents: 98 });
    expect(out.warnings[0]).toMatch(/S is estimated from a pilot of 98 documents/);
    expect(out.macro.documents).toBe(
      requiredDocuments({ sd: out.macro.sd, halfWidth: 0.03, population: 1300 }),
    );
  });

  it("takes M from a census file", () => {
    const file = join(FIXTURES, "rr10_scores.csv");
    const out = json(["plan", file, "--metric", "score", "--census", "--half-width", "0.1"]);
    expect(out.population).toBe(25);
    expect(out.source.kind).toBe("census");
    // rr10_scores reference: S_macro 0.21516984525720634 (numpy, ddof 1)
    expect(out.macro.sd).toBeCloseTo(0.21516984525720634, 14);
    expect(out.macro.documents).toBeLessThanOrEqual(25);
  });

  it("plans a paired comparison: documents to detect a difference with 80% power", () => {
    const out = json(["plan", "--sd", "0.18", "--difference", "0.03"]);
    expect(out.macro.detect.documents).toBeGreaterThan(282);
    expect(out.macro.detect.documents).toBeLessThan(290);
  });

  it.each([
    [["plan", "--half-width", "0.05"], /give S with --sd/],
    [["plan", "--sd", "0.2"], /give --half-width w/],
    [["plan", "--sd", "-1", "--half-width", "0.05"], /--sd -1: give a number ≥ 0/],
    [
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system", "--half-width", "0.05"],
      /--system system: give COLUMN=VALUE/,
    ],
  ])("%j is a user error with one line and exit code 2", (args, message) => {
    const result = ragci(args as string[]);
    expect(result.stderr).toMatch(message as RegExp);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.code).toBe(2);
  });

  it("agrees with pilotStandardDeviations on the same per-document table", () => {
    const dir = scratchDir();
    const file = join(dir, "pilot.csv");
    writeFileSync(file, "doc,n,s\na,4,1\nb,10,7\nc,3,3\nd,8,2\n");
    const out = json(["plan", file, "--aggregated", "--half-width", "0.2"]);
    const s = pilotStandardDeviations(
      documentStats({ ids: ["a", "b", "c", "d"], n: [4, 10, 3, 8], s: [1, 7, 3, 2] }),
    );
    expect(out.macro.sd).toBe(s.macro);
    expect(out.micro.sd).toBe(s.micro);
  });
});
