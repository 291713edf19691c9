/**
 * analyze --census and compare --census: a short coverage study at the sample's K on the
 * user's census, each interval's coverage printed next to it, and the recommendation taken
 * from the study (saying so) — the same numbers `ragci simulate` gives for that K.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE, onlyAnalysis, ROOT, ragci, ragciOk, scratchDir } from "./runCli.js";

const CENSUS = join(ROOT, "examples/synthetic-census.csv");
const dir = scratchDir();

/** Every 13th document of the census: a sample of 100 with its own K. */
function sample(): string {
  const [head, ...rows] = readFileSync(CENSUS, "utf8").trim().split(/\r?\n/);
  const path = join(dir, "sample.csv");
  writeFileSync(path, `${head}\n${rows.filter((_, i) => i % 13 === 0).join("\n")}\n`);
  return path;
}

describe("analyze --census", () => {
  const args = [
    "analyze",
    sample(),
    "--aggregated",
    "--census",
    CENSUS,
    "--census-aggregated",
    "--census-reps",
    "200",
    "--replicates",
    "99",
  ];

  it("recommends from the study, says so, and shows each interval's coverage", () => {
    const text = ragciOk(args);
    expect(text).toMatch(
      /Recommended from a coverage study on the census .*synthetic-census\.csv \(200 SRS samples of K = 100, B = 99\), not from the article's table/,
    );
    expect(text).toMatch(
      /micro\s+[\d.]+\s+\[[\d.]+, [\d.]+\]\s+[\d.]+\s+[\d.z]+\s+\S+\s+covers \d+\.\d% on the census/,
    );
    expect(text).toMatch(/micro {2}cr1 .*covers \d+\.\d% on the census/);
    // The general evidence (ragci's studies on other censuses) gives way to the study.
    expect(text).not.toMatch(/on the bundled synthetic census it covered 97\.2%/);
    expect(text).not.toMatch(/No census was given/);
    // Whom the study speaks for: a sample given as the census is no guide.
    expect(text.replace(/\s+/g, " ")).toMatch(
      /The study speaks for your data if \S*synthetic-census\.csv holds every document of the population: a sample given as the census is no reliable guide \(docs\/choosing-an-interval\.md, "A sample is not a census"\)\./,
    );
  });

  it("is the same study as ragci simulate at that K", () => {
    const out = onlyAnalysis(JSON.parse(ragciOk([...args, "--json"])));
    const study = out.censusStudy;
    const simulated = JSON.parse(
      ragciOk([
        "simulate",
        CENSUS,
        "--aggregated",
        "--k",
        "100",
        "--reps",
        "200",
        "--replicates",
        "99",
        "--fpc",
        "--json",
      ]),
    ).studies[0];
    expect(study.fpc).toBe(true);
    expect(study.methods).toEqual(simulated.methods);
    expect(out.micro.recommended).toBe(simulated.recommended.micro.method);
  });

  it("applies the census's M to the intervals, as --population 1300 does", () => {
    const out = onlyAnalysis(JSON.parse(ragciOk([...args, "--json"])));
    const given = onlyAnalysis(
      JSON.parse(
        ragciOk([
          "analyze",
          sample(),
          "--aggregated",
          "--replicates",
          "99",
          "--population",
          "1300",
          "--json",
        ]),
      ),
    );
    const without = onlyAnalysis(
      JSON.parse(ragciOk(["analyze", sample(), "--aggregated", "--replicates", "99", "--json"])),
    );
    for (const [estimand, method] of [
      ["micro", "cr2"],
      ["micro", "bootstrap-t"],
      ["macro", "t"],
      ["macro", "bootstrap-percentile"],
    ] as const) {
      const got = out[estimand].intervals[method];
      expect([got.lower, got.upper]).toEqual([
        given[estimand].intervals[method].lower,
        given[estimand].intervals[method].upper,
      ]);
      const w = without[estimand].intervals[method];
      // K = 100 of M = 1300: every half-width times √(1 − 100/1300).
      const centre = out[estimand].estimate;
      expect((got.upper - centre) / (w.upper - centre)).toBeCloseTo(Math.sqrt(1 - 100 / 1300), 9);
    }
  });

  it("refuses a --population that disagrees with the census", () => {
    const result = ragci([...args, "--population", "1200"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--census .*synthetic-census\.csv has 1300 documents but --population says 1200/,
    );
  });

  it("refuses a census that is the sample itself (K = M): its study could not miss", () => {
    const own = sample();
    const result = ragci(["analyze", own, "--aggregated", "--census", own, "--census-aggregated"]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stderr).toMatch(
      /--census .*sample\.csv: a study at K = M = 100 cannot miss: every sample is the census itself; give a census larger than the sample/,
    );
  });

  it("refuses a census smaller than the sample, and one without the metric", () => {
    const small = join(dir, "small.csv");
    writeFileSync(small, "doc_id,n,s\na,3,1\nb,2,1\nc,4,0\n");
    const result = ragci([
      "analyze",
      sample(),
      "--aggregated",
      "--census",
      small,
      "--census-aggregated",
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /--census .*small\.csv: it has 3 documents, fewer than the sample's 100/,
    );
    const other = ragci([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system",
      "--census",
      CENSUS,
      "--census-aggregated",
    ]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /synthetic-census\.csv: no system column "system"; the columns are doc_id, n, s, ss/,
    );
  });
});

describe("compare --census", () => {
  it("studies the paired differences at the sample's K and shows their coverage", () => {
    const [head, ...rows] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const docs = [...new Set(rows.map((r) => r.split(",")[0]))]
      .sort()
      .filter((_, i) => i % 4 === 0);
    const path = join(dir, "covid-sample.csv");
    writeFileSync(
      path,
      `${head}\n${rows.filter((r) => docs.includes(r.split(",")[0] as string)).join("\n")}\n`,
    );
    const args = [
      "compare",
      path,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--census",
      EXAMPLE,
      "--census-reps",
      "200",
      "--replicates",
      "99",
    ];
    const text = ragciOk(args);
    expect(text).toMatch(
      new RegExp(
        `Recommended from a coverage study on the census .*covidqa-retrieval\\.csv \\(200 SRS samples of K = ${docs.length}`,
      ),
    );
    expect(text).toMatch(/bootstrap-t .*covers \d+\.\d% on the census/);
    const [out] = JSON.parse(ragciOk([...args, "--json"])).comparisons;
    expect(out.censusStudy.k).toBe(docs.length);
    // The census's 98 documents are M: the study and the intervals apply its fpc, as --population 98.
    expect(out.censusStudy.fpc).toBe(true);
    expect(out.difference.design.population).toBe(98);
    const [given] = JSON.parse(
      ragciOk([...args.slice(0, 6), "--population", "98", "--replicates", "99", "--json"]),
    ).comparisons;
    expect(out.difference.micro.intervals).toEqual(given.difference.micro.intervals);
    expect(out.difference.macro.intervals).toEqual(given.difference.macro.intervals);
    expect(["cr2", "t", "cr1"]).toContain(out.tests.micro.method);
  });
});

describe("a per-document census where the census flag or a per-query census is needed", () => {
  it("analyze names --census-aggregated, the flag that reads the census per document", () => {
    const run = ragci(["analyze", sample(), "--aggregated", "--census", CENSUS]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ragci: ${CENSUS}: has columns n and s, a per-document table (doc, n, s[, ss]); read it with --census-aggregated, or rename n and s if they are per-query values\n`,
    );
  });

  it("compare says a pair's census must be per query, not that its query id is missing", () => {
    const run = ragci([
      "compare",
      EXAMPLE,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--census",
      CENSUS,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `ragci: ${CENSUS}: has columns n and s, a per-document table (doc, n, s[, ss]), where per-query results are needed (one row per query, with its query id, to pair the systems on); give those, or rename n and s if they are per-query values\n`,
    );
  });
});
