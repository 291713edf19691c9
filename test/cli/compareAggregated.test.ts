/**
 * compare --write-aggregates / --aggregated: the per-document table of each system and each
 * pair's differences re-runs the comparison to the same numbers (CSV and Parquet, with a
 * design too); per-system sums alone are refused with the reason.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { comparisonOf, EXAMPLE, FIXTURES, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();

/** The comparison without what per-document input cannot give (the chunk bootstrap). */
function numbers(out: Record<string, any>): string {
  const strip = (c: Record<string, any>) => {
    for (const e of ["micro", "macro"])
      for (const part of [c.difference, c.a, c.b]) delete part[e].intervals["chunk-bootstrap"];
    const { queriesDiffering: _q, ...rest } = c;
    return rest;
  };
  return JSON.stringify(structuredClone(out).comparisons.map(strip));
}

describe("compare --write-aggregates' min and max", () => {
  it("are each document's range: of a system's results, and of a pair's per-query differences", () => {
    const table = join(dir, "ranges.csv");
    ragciJson([
      "compare",
      EXAMPLE,
      "--system",
      "system",
      "--metric",
      "rr",
      "--write-aggregates",
      table,
    ]);
    // Recomputed from the per-query file: each (system, document)'s rr, and tfidf − bm25 per query.
    const [head, ...lines] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const col = (name: string) => (head as string).split(",").indexOf(name);
    const byQuery = new Map<string, Record<string, number>>();
    const expected = new Map<string, [number, number]>();
    const widen = (key: string, x: number) => {
      const [lo, hi] = expected.get(key) ?? [x, x];
      expected.set(key, [Math.min(lo, x), Math.max(hi, x)]);
    };
    for (const line of lines) {
      const f = line.split(",");
      const [doc, query, system, rr] = [
        f[col("doc_id")],
        f[col("query_id")],
        f[col("system")],
        Number(f[col("rr")]),
      ];
      widen(`${system},${doc}`, rr);
      const key = `${doc},${query}`;
      byQuery.set(key, { ...byQuery.get(key), [system as string]: rr });
    }
    for (const [key, v] of byQuery)
      widen(`tfidf - bm25,${key.split(",")[0]}`, (v.tfidf as number) - (v.bm25 as number));
    const written = new Map(
      readFileSync(table, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(","))
        .map((f) => [`${f[0]},${f[2]}`, [Number(f[6]), Number(f[7])]] as const),
    );
    expect(written).toEqual(expected);
  });
});

describe("compare from its per-document table", () => {
  const base = ["--metric", "hit5,rr", "--replicates", "500"];

  it.each(["csv", "parquet"])(
    "re-runs from %s to the same intervals, tests and verdicts",
    (ext) => {
      const table = join(dir, `pairs.${ext}`);
      const full = ragciJson([
        "compare",
        EXAMPLE,
        "--system",
        "system",
        ...base,
        "--write-aggregates",
        table,
      ]);
      expect(full.aggregatesFile).toBe(table);
      const again = ragciJson(["compare", table, "--aggregated", ...base]);
      expect(again.inputs[0].kind).toBe("per-document");
      expect(numbers(again)).toBe(numbers(full));
      // 0/1 differences are in {−1, 0, 1}: Σx² counts the queries that differ.
      expect(comparisonOf(again, "hit5").queriesDiffering).toBe(
        comparisonOf(full, "hit5").queriesDiffering,
      );
      expect(comparisonOf(again, "rr").queriesDiffering).toBeNull();
      expect(
        comparisonOf(again, "rr").difference.micro.intervals["chunk-bootstrap"].reason,
      ).toMatch(/needs the per-query values/);
    },
  );

  it("with a design the table keeps the design column", () => {
    const [head, ...rows] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const sized = rows.map((r) => `${r},${Number(r.split(",")[0]) % 3 === 0 ? "large" : "small"}`);
    const data = join(dir, "sized.csv");
    writeFileSync(data, `${head},size\n${sized.join("\n")}\n`);
    const large = new Set(sized.filter((r) => r.endsWith("large")).map((r) => r.split(",")[0]))
      .size;
    const design = join(dir, "sized.design.json");
    writeFileSync(
      design,
      JSON.stringify({
        design: "stratified",
        strata: { large: large * 3, small: (98 - large) * 3 },
      }),
    );
    const opts = ["--metric", "hit5", "--replicates", "0", "--design", design, "--stratum", "size"];
    const table = join(dir, "sized-pairs.csv");
    const full = ragciJson([
      "compare",
      data,
      "--system",
      "system",
      ...opts,
      "--write-aggregates",
      table,
    ]);
    const again = ragciJson(["compare", table, "--aggregated", ...opts]);
    expect(again.comparisons[0].difference.micro.intervals.stratified).toEqual(
      full.comparisons[0].difference.micro.intervals.stratified,
    );
  });

  it("per-system sums alone are refused: they do not determine the differences", () => {
    const perSystem = join(dir, "per-system.csv");
    ragci([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system",
      "--replicates",
      "0",
      "--write-aggregates",
      perSystem,
    ]);
    const result = ragci(["compare", perSystem, "--aggregated", "--metric", "hit5"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /no rows for the difference "tfidf - bm25" of metric hit5; a paired comparison needs each query of both systems, so per-system sums are not enough — write the table with ragci compare --write-aggregates/,
    );
  });

  it("--aggregated reads one table", () => {
    const result = ragci([
      "compare",
      join(FIXTURES, "k5_binary.csv"),
      EXAMPLE,
      "--aggregated",
      "--metric",
      "hit5",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--aggregated reads one per-document table/);
  });
});

describe("compare --aggregated with system names ordered differently by UTF-16 and by code point", () => {
  it("pairs the systems as the per-query file does (z < ｚ U+FF5A < 😀 U+1F600)", () => {
    const file = join(dir, "awkward-systems.csv");
    const rows = ["doc_id,query_id,system,hit"];
    for (const doc of ["a", "b", "c", "d", "e"])
      for (const q of [1, 2, 3])
        for (const [i, system] of ["z", "ｚ", "😀"].entries())
          rows.push(`${doc},${doc}${q},${system},${(doc.charCodeAt(0) + q * (i + 1)) % 2}`);
    writeFileSync(file, `${rows.join("\n")}\n`);
    const table = join(dir, "awkward-systems.pairs.csv");
    const args = ["--metric", "hit", "--all-pairs", "--replicates", "0", "--json"];
    const fromRows = ragciJson([
      "compare",
      file,
      "--system",
      "system",
      ...args,
      "--write-aggregates",
      table,
    ]);
    const fromTable = ragciJson(["compare", table, "--aggregated", ...args]);
    const pairs = (out: Record<string, any>) =>
      out.comparisons.map((c: Record<string, any>) => [
        c.a.system,
        c.b.system,
        c.difference.micro.estimate,
      ]);
    expect(pairs(fromRows).map((p: unknown[]) => p.slice(0, 2))).toEqual([
      ["z", "ｚ"],
      ["z", "😀"],
      ["ｚ", "😀"],
    ]);
    expect(pairs(fromTable)).toEqual(pairs(fromRows));
  });
});
