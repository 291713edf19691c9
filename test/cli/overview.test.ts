import { describe, expect, it } from "vitest";
import { degreesOfFreedom, fixed } from "../../src/report/format.js";
import { EXAMPLE, ragci } from "./runCli.js";

const base = ["analyze", EXAMPLE, "--doc", "doc_id", "--replicates", "0"];

describe("the terminal overview of a run with several systems or metrics", () => {
  it("starts with one line per system × metric: K, and each estimand's estimate, recommended interval, ν and method, as in the JSON", () => {
    const args = [...base, "--metric", "hit5,rr", "--system", "system"];
    const text = ragci(args);
    const json = JSON.parse(ragci([...args, "--json"]).stdout);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[0]).toContain("overview: 4 analyses, 95% intervals");
    expect(lines[2]?.split(/\s{2,}/)).toEqual([
      "system",
      "metric",
      "K",
      "micro",
      "interval",
      "ν",
      "method",
      "macro",
      "interval",
      "ν",
      "method",
    ]);
    const rows = lines.slice(3, 7).map((l) => l.trim().split(/\s{2,}/));
    const expected = ["bm25", "tfidf"].flatMap((system) =>
      ["hit5", "rr"].map((metric) => {
        const a = json.systems[system].metrics[metric];
        const cells = (e: "micro" | "macro") => {
          const i = a[e].intervals[a[e].recommended];
          const shown =
            rows.find((r) => r[0] === system && r[1] === metric)?.[e === "micro" ? 3 : 7] ?? "";
          const d = shown.split(".")[1]?.length ?? 0;
          return [
            fixed(a[e].estimate, d),
            `[${fixed(i.lower, d)}, ${fixed(i.upper, d)}]`,
            degreesOfFreedom(i.df),
            a[e].recommended,
          ];
        };
        return [system, metric, String(a.documents), ...cells("micro"), ...cells("macro")];
      }),
    );
    expect(rows).toEqual(expected);
    // The detailed blocks follow, unchanged.
    expect(lines[8]).toMatch(/^ragci analyze .* · system bm25 · metric hit5 \(0\/1\)/);
  });

  it("is not printed for one system and one metric (that screen stays as it was)", () => {
    const one = ragci([...base, "--metric", "hit5", "--system", "system=bm25"]);
    expect(one.stdout).not.toContain("overview");
    expect(one.stdout.split("\n")[0]).toMatch(/^ragci analyze .* · system bm25 · metric hit5/);
  });
});
