/**
 * A design read from every kind of input: aggregated files (with the label column that
 * --write-aggregates writes), shards merged per document, and the paired input of compare.
 * Each route must give the numbers of the plain per-query analysis, and conflicting or missing
 * labels must be one clear line with exit code 2.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStatsFromRows, stratifiedEstimates } from "../../src/core/index.js";
import { expectClose } from "../expectClose.js";
import { analysisOf, comparisonOf, EXAMPLE, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();
/** The report without resampling (the design intervals need none). */
const run = (args: string[]) => ragciJson([...args, "--replicates", "0"]);

/** The report without what names the input files (which differ between routes by design). */
function numbers(report: Record<string, any>): string {
  const { inputs: _inputs, aggregatesFile: _file, notes: _notes, ...rest } = report;
  return JSON.stringify(rest);
}

function failure(args: string[]): string {
  const result = ragci(args);
  expect(result.code).toBe(2);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  return lines[0] as string;
}

// The bundled COVID-QA results with two design columns: a size stratum (n_d > 60 is large)
// and a topic (doc id mod 7) as the first-stage unit.
const lines = readFileSync(EXAMPLE, "utf8").replaceAll("\r", "").trim().split("\n");
const sizes = new Map<string, number>();
for (const line of lines.slice(1)) {
  const doc = line.split(",")[0] as string;
  sizes.set(doc, (sizes.get(doc) ?? 0) + 1);
}
const stratumOf = (doc: string) => ((sizes.get(doc) as number) > 60 ? "large" : "small");
const topicOf = (doc: string) => `t${Number(doc) % 7}`;
const rows = lines.slice(1).map((line) => {
  const doc = line.split(",")[0] as string;
  return `${line},${stratumOf(doc)},${topicOf(doc)}`;
});
const header = `${lines[0]},size,topic`;
const whole = join(dir, "designed.csv");
writeFileSync(whole, `${[header, ...rows].join("\n")}\n`);
const shardA = join(dir, "shard-a.csv");
const shardB = join(dir, "shard-b.csv");
writeFileSync(shardA, `${[header, ...rows.filter((_, i) => i % 2 === 0)].join("\n")}\n`);
writeFileSync(shardB, `${[header, ...rows.filter((_, i) => i % 2 === 1)].join("\n")}\n`);

const counts = (of: (doc: string) => string) => {
  const out: Record<string, number> = {};
  for (const doc of sizes.keys()) out[of(doc)] = (out[of(doc)] ?? 0) + 1;
  return out;
};
const sampledStrata = counts(stratumOf);
const strataDesign = join(dir, "strata.json");
writeFileSync(
  strataDesign,
  JSON.stringify({
    design: "stratified",
    strata: { large: 3 * (sampledStrata.large ?? 0), small: 10 * (sampledStrata.small ?? 0) },
  }),
);
const units = Object.fromEntries(Object.entries(counts(topicOf)).map(([u, k]) => [u, 4 * k]));
const twoStageDesign = join(dir, "two-stage.json");
writeFileSync(
  twoStageDesign,
  JSON.stringify({
    design: "two-stage",
    first_stage_population: 20,
    second_stage_population: units,
  }),
);

const stratified = ["--design", strataDesign, "--stratum", "size"];
const twoStage = ["--design", twoStageDesign, "--psu", "topic"];

describe("analyze: a design with aggregated input and with shards", () => {
  for (const [name, design, kind] of [
    ["stratified", stratified, "stratified"],
    ["two-stage", twoStage, "two-stage"],
  ] as const) {
    it(`${name}: --write-aggregates keeps the label column, and --aggregated re-runs to the same report`, () => {
      const table = join(dir, `${name}.aggregates.csv`);
      const direct = run([
        "analyze",
        whole,
        "--metric",
        "hit5,rr",
        "--system",
        "system",
        ...design,
        "--write-aggregates",
        table,
      ]);
      const written = readFileSync(table, "utf8").split("\n");
      expect((written[0] as string).split(",").at(-1)).toBe(design[3]);
      const again = run(["analyze", table, "--aggregated", ...design]);
      expect(numbers(again)).toBe(numbers(direct));
      const bm25 = analysisOf(direct, "bm25", "hit5");
      expect(bm25.design.kind).toBe(kind);
      expect(bm25.micro.recommended).toBe(kind);
      expect(bm25.macro.recommended).toBe(kind);
    });

    it(`${name}: the same through Parquet`, () => {
      const table = join(dir, `${name}.aggregates.parquet`);
      const direct = run([
        "analyze",
        whole,
        "--metric",
        "hit5",
        ...design,
        "--write-aggregates",
        table,
      ]);
      expect(numbers(run(["analyze", table, "--aggregated", ...design]))).toBe(numbers(direct));
    });

    it(`${name}: two shards, documents split between them, give the whole file's report`, () => {
      const args = ["--metric", "hit5,rr", "--system", "system", ...design];
      const shards = run(["analyze", shardA, shardB, ...args]);
      const single = run(["analyze", whole, ...args]);
      // 0/1 sums are exact, so hit5 is bit for bit; rr's double sums add in another order.
      for (const system of ["bm25", "tfidf"])
        expect(analysisOf(shards, system, "hit5")).toEqual(analysisOf(single, system, "hit5"));
      expectClose(JSON.parse(numbers(shards)), JSON.parse(numbers(single)), 1e-13);
    });
  }

  it("the design interval is the core estimator's on the per-document table (stratified)", () => {
    const out = run(["analyze", whole, "--metric", "hit5", "--system", "system", ...stratified]);
    const perQuery = rows
      .map((line) => line.split(","))
      .filter((f) => f[2] === "tfidf")
      .map((f) => ({ doc: f[0], hit5: Number(f[5]) }));
    const stats = documentStatsFromRows(perQuery, { doc: "doc", metric: "hit5" });
    const expected = stratifiedEstimates(stats, {
      strata: stats.ids.map(stratumOf),
      populationSizes: JSON.parse(readFileSync(strataDesign, "utf8")).strata,
    });
    const mine = analysisOf(out, "tfidf", "hit5").micro.intervals.stratified;
    expect(mine.lower).toBeCloseTo(expected.micro.lower, 14);
    expect(mine.upper).toBeCloseTo(expected.micro.upper, 14);
    expect(mine.df).toBe(stats.ids.length - 2);
  });

  it("a document with different labels in two shards is an error naming both files", () => {
    const flipped = join(dir, "shard-b-flipped.csv");
    const doc = rows[1]?.split(",")[0] as string;
    const other = stratumOf(doc) === "large" ? "small" : "large";
    writeFileSync(
      flipped,
      `${[
        header,
        ...rows
          .filter((_, i) => i % 2 === 1)
          .map((r) => (r.split(",")[0] === doc ? r.replace(/,(large|small),/, `,${other},`) : r)),
      ].join("\n")}\n`,
    );
    const line = failure(["analyze", shardA, flipped, "--metric", "hit5", ...stratified]);
    expect(line).toContain(`document ${doc} has size`);
    expect(line).toContain("shard-a.csv");
    expect(line).toContain("shard-b-flipped.csv");
  });

  it("an aggregated file without the design column names the column and the columns it has", () => {
    const table = join(dir, "plain.aggregates.csv");
    run(["analyze", whole, "--metric", "hit5", "--write-aggregates", table]);
    const line = failure(["analyze", table, "--aggregated", ...stratified]);
    expect(line).toContain('no design column "size"');
  });

  it("an aggregated file whose repeated document rows disagree on the label is an error (merge; --aggregated refuses the repetition first)", () => {
    const table = join(dir, "split.aggregates.csv");
    writeFileSync(
      table,
      "doc,n,s,size\na,4,2,small\na,3,1,large\nb,5,5,small\nc,2,1,large\nd,6,3,large\n",
    );
    const design = join(dir, "tiny.json");
    writeFileSync(design, JSON.stringify({ design: "stratified", strata: { small: 9, large: 9 } }));
    const line = failure([
      "analyze",
      table,
      "--aggregated",
      "--design",
      design,
      "--stratum",
      "size",
    ]);
    expect(line).toContain('document "a" is on 2 rows; a per-document table has one row');
    expect(failure(["merge", table, "--label", "size"])).toContain(
      "document a has more than one size (large and small)",
    );
  });

  it("a design column named like a per-document table column is refused", () => {
    const line = failure([
      "analyze",
      whole,
      "--metric",
      "hit5",
      "--design",
      strataDesign,
      "--stratum",
      "s",
    ]);
    expect(line).toContain("cannot be named s");
  });
});

describe("compare: a design", () => {
  for (const [name, design, kind] of [
    ["stratified", stratified, "stratified"],
    ["two-stage", twoStage, "two-stage"],
  ] as const) {
    it(`${name}: the difference, each system and the test use the design interval and its ν`, () => {
      const out = comparisonOf(
        run(["compare", whole, "--system", "system", "--metric", "hit5", ...design]),
        "hit5",
      );
      expect(out.difference.design.kind).toBe(kind);
      for (const e of ["micro", "macro"] as const) {
        expect(out.difference[e].recommended).toBe(kind);
        expect(out.tests[e].method).toBe(kind);
        expect(out.a[e].recommended).toBe(kind);
        expect(out.b[e].recommended).toBe(kind);
      }
      // Each system's interval equals analyze's on that system alone under the same design.
      const alone = run(["analyze", whole, "--metric", "hit5", "--system", "system", ...design]);
      for (const side of ["a", "b"] as const) {
        const system = out[side].system as string;
        for (const e of ["micro", "macro"] as const)
          expect(out[side][e].intervals[kind]).toEqual(
            analysisOf(alone, system, "hit5")[e].intervals[kind],
          );
      }
    });
  }

  it("the design is stated in the terminal header", () => {
    const result = ragci([
      "compare",
      whole,
      "--system",
      "system",
      "--metric",
      "hit5",
      ...stratified,
      "--replicates",
      "0",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /stratified: (small \d+ of \d+, large \d+ of \d+|large \d+ of \d+, small \d+ of \d+)/,
    );
  });

  it("a missing design column, and --lonely-psu without a design, are one-line errors", () => {
    expect(
      failure([
        "compare",
        whole,
        "--system",
        "system",
        "--metric",
        "hit5",
        "--design",
        strataDesign,
        "--stratum",
        "nosuch",
      ]),
    ).toContain('no design column "nosuch"');
    expect(
      failure([
        "compare",
        whole,
        "--system",
        "system",
        "--metric",
        "hit5",
        "--lonely-psu",
        "adjust",
      ]),
    ).toContain("--lonely-psu");
  });

  it("a document with two strata in the per-query file is an error naming it", () => {
    const broken = join(dir, "two-strata.csv");
    const doc = rows[0]?.split(",")[0] as string;
    let flipped = false;
    const changed = rows.map((r) => {
      if (!flipped && r.split(",")[0] === doc) {
        flipped = true;
        return r.replace(/,(large|small),/, (_, h) => `,${h === "large" ? "small" : "large"},`);
      }
      return r;
    });
    writeFileSync(broken, `${[header, ...changed].join("\n")}\n`);
    const line = failure([
      "compare",
      broken,
      "--system",
      "system",
      "--metric",
      "hit5",
      ...stratified,
    ]);
    expect(line).toContain(`document ${doc} has more than one size (`);
  });
});
