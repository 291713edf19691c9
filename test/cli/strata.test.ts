import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ragci, scratchDir } from "./runCli.js";

const dir = scratchDir();
const census = join(dir, "census.csv");
const lines = ["doc,n,s"];
for (let d = 0; d < 200; d++) {
  const n = d < 20 ? 80 + d : 1 + (d % 15);
  lines.push(`d${String(d).padStart(3, "0")},${n},${Math.floor((n * ((d * 37) % 100)) / 100)}`);
}
writeFileSync(census, `${lines.join("\n")}\n`);

describe("ragci strata", () => {
  it("with --cutoff 76 counts the large documents and their share of results, and predicts se per allocation", () => {
    const r = ragci([
      "strata",
      census,
      "--aggregated",
      "--documents",
      "20",
      "--cutoff",
      "76",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.strata).toEqual([
      { name: "large", documents: 20 },
      { name: "small", documents: 180 },
    ]);
    expect(out.allocations.map((a: { rule: string }) => a.rule)).toEqual([
      "equal",
      "proportional",
      "neyman",
    ]);
    expect(out.allocations[0].sampled).toEqual({ large: 10, small: 10 });
    // proportional: 20·20/200 = 2 large, 18 small
    expect(out.allocations[1].sampled).toEqual({ large: 2, small: 18 });
    // Stratifying by size helps micro: Neyman beats SRS.
    expect(out.allocations[2].predicted.micro).toBeLessThan(out.srs.micro);
  });

  it("proposes a cutoff when none is given", () => {
    const out = JSON.parse(
      ragci(["strata", census, "--aggregated", "--documents", "20", "--json"]).stdout,
    );
    expect(out.cutoffProposed).toBe(true);
    expect(out.strata.every((h: { documents: number }) => h.documents >= 2)).toBe(true);
  });

  it("writes a seeded sample with the allocation's counts, the same for the same seed", () => {
    const a = join(dir, "a.csv");
    const b = join(dir, "b.csv");
    for (const target of [a, b]) {
      expect(
        ragci([
          "strata",
          census,
          "--aggregated",
          "--documents",
          "20",
          "--cutoff",
          "76",
          "--allocation",
          "equal",
          "--write-sample",
          target,
          "--seed",
          "3",
        ]).code,
      ).toBe(0);
    }
    const rows = readFileSync(a, "utf8").trim().split("\n").slice(1);
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => r.endsWith(",large"))).toHaveLength(10);
    expect(new Set(rows).size).toBe(20);
    expect(readFileSync(b, "utf8")).toBe(readFileSync(a, "utf8"));
  });

  it("rejects K outside [4, M] with one line and exit code 2", () => {
    const r = ragci(["strata", census, "--aggregated", "--documents", "500"]);
    expect(r.stderr).toMatch(/--documents 500: give between 4 and the census's 200 documents/);
    expect(r.code).toBe(2);
  });
});
