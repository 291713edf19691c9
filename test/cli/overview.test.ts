import { describe, expect, it } from "vitest";
import { degreesOfFreedom, fixed } from "../../src/report/format.js";
import { analysisOf, comparisonOf, EXAMPLE, ragci } from "./runCli.js";

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
        const a = analysisOf(json, system, metric);
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

describe("the terminal overview of a comparison of several metrics", () => {
  it("starts with one line per metric × pair: K and each estimand's difference, interval and ν, as in the JSON", () => {
    const args = [
      "compare",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "hit5,rr",
      "--replicates",
      "0",
    ];
    const text = ragci(args);
    const json = JSON.parse(ragci([...args, "--json"]).stdout);
    expect(text.code).toBe(0);
    const lines = text.stdout.split("\n");
    expect(lines[2]).toContain("overview: 2 differences, 95% intervals");
    const rows = lines.slice(5, 7).map((l) => l.trim().split(/\s{2,}/));
    for (const [i, metric] of ["hit5", "rr"].entries()) {
      const c = comparisonOf(json, metric);
      const row = rows[i] ?? [];
      expect(row.slice(0, 3)).toEqual([metric, "tfidf − bm25", String(c.difference.documents)]);
      for (const [e, at] of [
        ["micro", 3],
        ["macro", 7],
      ] as const) {
        const t = c.tests[e];
        const d = row[at]?.split(".")[1]?.length ?? 0;
        expect(row.slice(at, at + 4)).toEqual([
          fixed(c.difference[e].estimate, d),
          `[${fixed(t.lower, d)}, ${fixed(t.upper, d)}]`,
          degreesOfFreedom(t.df),
          t.method,
        ]);
      }
    }
  });

  it("is not printed for one metric", () => {
    const one = ragci([
      "compare",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--replicates",
      "0",
    ]);
    expect(one.stdout).not.toContain("overview");
  });
});
