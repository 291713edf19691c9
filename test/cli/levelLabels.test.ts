import { describe, expect, it } from "vitest";
import { EXAMPLE, ragci } from "./runCli.js";

const ANALYZE = [
  "analyze",
  EXAMPLE,
  "--doc",
  "doc_id",
  "--metric",
  "hit5",
  "--system",
  "system=bm25",
];
const COMPARE = ["compare", EXAMPLE, "--doc", "doc_id", "--metric", "hit5", "--system", "system"];

function run(args: readonly string[]): string {
  const result = ragci(args);
  expect(result.code).toBe(0);
  return result.stdout;
}

describe("a level's label in the reports is the level given", () => {
  it("analyze --level 0.9999999999 heads its table 99.99999999%, not 100.0%", () => {
    const terminal = run([...ANALYZE, "--level", "0.9999999999"]);
    expect(terminal).toContain("99.99999999% interval");
    expect(terminal).not.toMatch(/100(\.0)?% interval/);
    const markdown = run([...ANALYZE, "--level", "0.9999999999", "--markdown"]);
    expect(markdown).toContain("; level 99.99999999%.");
  });

  it("compare --level 0.999 says 99.9% in its table and verdicts, where it said 100%", () => {
    const terminal = run([...COMPARE, "--level", "0.999"]);
    expect(terminal).toContain("99.9% interval");
    expect(terminal).toMatch(/: (not )?distinguishable at 99\.9%/);
    expect(terminal).not.toMatch(/100% interval|at 100%/);
  });

  it("keeps the usual labels: 95% in the table and verdicts, 95.0% in Markdown", () => {
    expect(run(ANALYZE)).toContain("95% interval");
    expect(run([...ANALYZE, "--markdown"])).toContain("; level 95.0%.");
    const json = JSON.parse(run([...COMPARE, "--json"]));
    const verdicts = JSON.stringify(json);
    expect(verdicts).toMatch(/distinguishable at 95%/);
  });

  it("at 90% analyze and compare say their quoted coverages are of 95% intervals", () => {
    const note =
      "The coverages quoted here are of 95% intervals, the level ragci's studies scored; these intervals are at 90%, whose coverage those studies did not measure (ragci simulate --level 0.9 on a census measures it).";
    for (const args of [ANALYZE, COMPARE]) {
      expect(run([...args, "--level", "0.9", "--replicates", "0"])).toContain(note);
      expect(run([...args, "--level", "0.9", "--replicates", "0", "--markdown"])).toContain(note);
      expect(run([...args, "--replicates", "0"])).not.toContain("The coverages quoted here");
    }
  });
});
