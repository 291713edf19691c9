import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStatsFromRows, stratifiedEstimates } from "../../src/core/index.js";
import { FIXTURES, onlyAnalysis, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();
/** The only analysis of a report without resampling (the design intervals need none). */
const json = (args: string[]) => onlyAnalysis(ragciJson([...args, "--replicates", "0"]));

/**
 * Two systems on the queries of `rows` (doc,stratum,hit): a as given, b's result of query i
 * from a's by `b`; written to `name` in the scratch directory.
 */
function pairedFile(rows: readonly string[], name: string, b: (hit: string, i: number) => string) {
  const paired = ["doc,stratum,query,system,hit"];
  rows.slice(1).forEach((row, i) => {
    const [doc, stratum, hit = ""] = row.split(",");
    paired.push(`${doc},${stratum},q${i},a,${hit}`, `${doc},${stratum},q${i},b,${b(hit, i)}`);
  });
  const path = join(dir, name);
  writeFileSync(path, `${paired.join("\n")}\n`);
  return path;
}

describe("analyze --design", () => {
  it("two_stage_types: the two-stage interval (R survey, reference) is the recommended one", () => {
    const ref = JSON.parse(
      readFileSync(join(FIXTURES, "two_stage_types.expected.json"), "utf8"),
    ).two_stage;
    const out = json([
      "analyze",
      join(FIXTURES, "two_stage_types.csv"),
      "--metric",
      "score",
      "--design",
      join(FIXTURES, "two_stage_types.design.json"),
    ]);
    expect(out.design.kind).toBe("two-stage");
    expect(out.micro.recommended).toBe("two-stage");
    for (const [estimand, key] of [
      ["micro", "micro"],
      ["macro", "macro_hajek"],
    ] as const) {
      const mine = out[estimand].intervals["two-stage"];
      for (const field of ["lower", "upper", "se"]) {
        expect(Math.abs(mine[field] - ref[key][field])).toBeLessThanOrEqual(
          1e-12 * Math.abs(ref[key][field]),
        );
      }
      expect(mine.df).toBe(3);
    }
    expect(out.advice[0].code).toBe("design-declared");
  });

  const rows = ["doc,stratum,hit"];
  const layout: [string, string, number, number][] = [
    ["a", "big", 6, 2],
    ["b", "big", 9, 5],
    ["c", "big", 4, 4],
    ["d", "small", 2, 1],
    ["e", "small", 3, 0],
    ["f", "small", 1, 1],
  ];
  for (const [doc, stratum, n, s] of layout)
    for (let i = 0; i < n; i++) rows.push(`${doc},${stratum},${i < s ? 1 : 0}`);
  const data = join(dir, "strata.csv");
  writeFileSync(data, `${rows.join("\n")}\n`);
  const design = join(dir, "strata.design.json");
  writeFileSync(design, JSON.stringify({ design: "stratified", strata: { big: 10, small: 40 } }));

  it("stratified: the same numbers as stratifiedEstimates on the per-document sums, ν = K − H", () => {
    const out = json(["analyze", data, "--metric", "hit", "--design", design]);
    const perQuery = rows.slice(1).map((r) => {
      const [doc, , hit] = r.split(",");
      return { doc, hit: Number(hit) };
    });
    const stats = documentStatsFromRows(perQuery, { doc: "doc", metric: "hit" });
    const expected = stratifiedEstimates(stats, {
      strata: ["big", "big", "big", "small", "small", "small"],
      populationSizes: { big: 10, small: 40 },
    });
    expect(out.micro.intervals.stratified.lower).toBe(expected.micro.lower);
    expect(out.macro.intervals.stratified.se).toBe(expected.macro.se);
    expect(out.micro.intervals.stratified.df).toBe(4);
    expect(out.design.detail.strata).toEqual({
      big: { sampled: 3, population: 10 },
      small: { sampled: 3, population: 40 },
    });
  });

  const bad = (name: string, body: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, typeof body === "string" ? body : JSON.stringify(body));
    return path;
  };
  it.each([
    [
      "a stratum with one sampled document",
      ["--design", bad("one.json", { design: "stratified", strata: { big: 10, small: 40 } })],
      { rows: ["doc,stratum,hit", "a,big,1", "b,big,0", "c,small,1"] },
      /stratum "small" has one sampled document of M_h = 40, .*choose a lonely-PSU rule \(--lonely-psu or "lonely_psu" in the design/,
    ],
    [
      "a stratum missing from the design",
      ["--design", bad("missing.json", { design: "stratified", strata: { big: 10 } })],
      null,
      /stratum "small" is in the data but not in the design/,
    ],
    [
      "M_h below the sampled documents",
      ["--design", bad("small.json", { design: "stratified", strata: { big: 2, small: 40 } })],
      null,
      /stratum "big" has 3 sampled documents but M_h = 2/,
    ],
    [
      "an unknown design kind",
      ["--design", bad("kind.json", { design: "cluster" })],
      null,
      /"design" must be "srs", "stratified" or "two-stage"/,
    ],
    [
      "a design file that is not JSON",
      ["--design", bad("broken.json", "{ nope")],
      null,
      /cannot read the design/,
    ],
    [
      "--stratum without a design",
      ["--stratum", "stratum"],
      null,
      /give the design with --design FILE\.json/,
    ],
    [
      "--population with a stratified design",
      ["--design", design, "--population", "50"],
      null,
      /--population applies to SRS/,
    ],
  ] as const)("%s: one line, exit code 2", (_name, flags, custom, message) => {
    let file = data;
    if (custom) {
      file = join(dir, `custom-${Math.random().toString(36).slice(2)}.csv`);
      writeFileSync(file, `${custom.rows.join("\n")}\n`);
    }
    const result = ragci(["analyze", file, "--metric", "hit", ...flags]);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.code).toBe(2);
  });

  // The strata above plus "lone" (1 sampled document of M_h = 7) and "one" (1 of 1, a census).
  const lonelyRows = [...rows, "g,lone,1", "g,lone,1", "g,lone,0", "h,one,0", "h,one,1"];
  const lonelyData = join(dir, "lonely.csv");
  writeFileSync(lonelyData, `${lonelyRows.join("\n")}\n`);
  const lonelySizes = { big: 10, small: 40, lone: 7, one: 1 };
  const lonelyDesign = bad("lonely.design.json", { design: "stratified", strata: lonelySizes });
  const lonelyExpected = (lonelyPsu: "remove" | "adjust" | "average" | "certainty") => {
    const perQuery = lonelyRows.slice(1).map((r) => {
      const [doc, , hit] = r.split(",");
      return { doc, hit: Number(hit) };
    });
    const stats = documentStatsFromRows(perQuery, { doc: "doc", metric: "hit" });
    return stratifiedEstimates(stats, {
      strata: ["big", "big", "big", "small", "small", "small", "lone", "one"],
      populationSizes: lonelySizes,
      lonelyPsu,
    });
  };

  it("--lonely-psu adjust: the stratified interval of that rule, stated in the JSON design", () => {
    const out = json([
      "analyze",
      lonelyData,
      "--metric",
      "hit",
      "--design",
      lonelyDesign,
      "--lonely-psu",
      "adjust",
    ]);
    const expected = lonelyExpected("adjust");
    expect(out.micro.intervals.stratified.se).toBe(expected.micro.se);
    expect(out.macro.intervals.stratified.upper).toBe(expected.macro.upper);
    // ν = K − H = 8 − 4 under every rule (survey's degf).
    expect(out.micro.intervals.stratified.df).toBe(4);
    expect(out.design.lonelyPsu).toEqual({
      rule: "adjust",
      strata: { lone: "adjust", one: "census" },
    });
  });

  it("--lonely-psu in the terminal: the rule in the design line and a warning naming the stratum", () => {
    const result = ragci([
      "analyze",
      lonelyData,
      "--metric",
      "hit",
      "--design",
      lonelyDesign,
      "--lonely-psu",
      "remove",
      "--replicates",
      "0",
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")[0]).toMatch(
      /stratified: big 3 of 10, small 3 of 40, lone 1 of 7, one 1 of 1 · lonely PSU: remove$/,
    );
    expect(result.stdout).toContain(
      '  ! stratum "lone" has one sampled document of M_h = 7; it was left out of the variance (adds 0), so the se omits that stratum\'s sampling error (--lonely-psu remove)',
    );
    expect(result.stdout).not.toMatch(/stratum "one" has one/);
    const md = ragci([
      "analyze",
      lonelyData,
      "--metric",
      "hit",
      "--design",
      lonelyDesign,
      "--lonely-psu",
      "average",
      "--replicates",
      "0",
      "--markdown",
    ]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("stratified design · lonely PSU: average;");
    expect(md.stdout).toContain(
      '- **Warning:** stratum "lone" has one sampled document of M_h = 7; its variance was replaced by the average contribution of the 3 strata that have one (their sum × 4/3) (--lonely-psu average)',
    );
  });

  it("--lonely-psu in compare's terminal: the warning naming the stratum, as analyze's", () => {
    // Two systems on the same queries: b misses every third query.
    const pairedData = pairedFile(lonelyRows, "lonely-paired.csv", (hit, i) =>
      i % 3 === 0 ? "0" : hit,
    );
    const result = ragci([
      "compare",
      pairedData,
      "--metric",
      "hit",
      "--system",
      "system",
      "--design",
      lonelyDesign,
      "--lonely-psu",
      "remove",
      "--replicates",
      "0",
    ]);
    expect(result.stderr).toBe("");
    expect(result.stdout).toContain(
      '  ! stratum "lone" has one sampled document of M_h = 7; it was left out of the variance (adds 0), so the se omits that stratum\'s sampling error (--lonely-psu remove)',
    );
  });

  it("compare under a design: its other intervals are said to ignore it, not quoted from SRS studies", () => {
    // b hits every fourth query besides a's.
    const pairedData = pairedFile(rows, "strata-paired.csv", (hit, i) => (i % 4 === 0 ? "1" : hit));
    const args = ["compare", pairedData, "--metric", "hit", "--system", "system"];
    const withDesign = [...args, "--design", design, "--replicates", "0"];
    const text = ragci(withDesign).stdout.replace(/ +/g, " ");
    expect(text).toContain("micro cr2 ");
    expect(text).toMatch(
      /micro cr2 \[[^\]]+\] as if one simple random sample: ignores the stratified design/,
    );
    expect(text).toMatch(
      /macro t-differing \[[^\]]+\] as if one simple random sample: ignores the stratified design/,
    );
    expect(text).toContain(
      "(the other intervals treat the documents as one simple random sample and ignore the stratified design; its own interval, the recommended one, accounts for how the documents were drawn",
    );
    expect(text).not.toContain("paired differences are small, discrete and full of ties");
    const markdown = ragci([...withDesign, "--markdown"]).stdout;
    expect(markdown).toContain(
      "Why the stratified interval: the other intervals treat the documents",
    );
    // Without the design, the paired studies' caveat as before.
    expect(ragci([...args, "--replicates", "0"]).stdout).toContain(
      "paired differences are small, discrete and full of ties",
    );
  });

  it('"lonely_psu" in the design file sets the rule; --lonely-psu overrides it', () => {
    const withKey = bad("lonely-key.design.json", {
      design: "stratified",
      strata: lonelySizes,
      lonely_psu: "average",
    });
    const fromFile = json(["analyze", lonelyData, "--metric", "hit", "--design", withKey]);
    expect(fromFile.design.lonelyPsu.rule).toBe("average");
    expect(fromFile.micro.intervals.stratified.se).toBe(lonelyExpected("average").micro.se);
    const overridden = json([
      "analyze",
      lonelyData,
      "--metric",
      "hit",
      "--design",
      withKey,
      "--lonely-psu",
      "certainty",
    ]);
    expect(overridden.design.lonelyPsu).toEqual({
      rule: "certainty",
      strata: { lone: "certainty", one: "census" },
    });
    expect(overridden.micro.intervals.stratified.se).toBe(lonelyExpected("certainty").micro.se);
  });

  it('without a rule a census stratum of one document (M_h = 1) is no error; the JSON says "fail"', () => {
    const censusOnly = bad("census-one.design.json", {
      design: "stratified",
      strata: { ...lonelySizes, lone: 1 },
    });
    const rowsNoLone = lonelyRows.filter((r) => !r.includes(",lone,"));
    const file = join(dir, "census-one.csv");
    writeFileSync(file, `${rowsNoLone.join("\n")}\n`);
    const out = json(["analyze", file, "--metric", "hit", "--design", censusOnly]);
    expect(out.design.lonelyPsu).toEqual({ rule: "fail", strata: { one: "census" } });
    expect(out.micro.intervals.stratified.df).toBe(4);
  });

  it.each([
    [
      "--lonely-psu with an unknown rule",
      [lonelyData, "--design", lonelyDesign, "--lonely-psu", "collapse"],
      /--lonely-psu collapse: use one of fail, remove, adjust, average, certainty/,
    ],
    [
      '"lonely_psu" with an unknown rule',
      [
        lonelyData,
        "--design",
        bad("lonely-bad.json", {
          design: "stratified",
          strata: lonelySizes,
          lonely_psu: "collapse",
        }),
      ],
      /"lonely_psu" must be one of "fail", "remove", "adjust", "average", "certainty" \(got "collapse"\)/,
    ],
    [
      '"lonely_psu" that is not a string',
      [
        lonelyData,
        "--design",
        bad("lonely-num.json", { design: "stratified", strata: lonelySizes, lonely_psu: 1 }),
      ],
      /"lonely_psu" must be one of .* \(got 1\)/,
    ],
    [
      '"lonely_psu" in an srs design',
      [
        data,
        "--design",
        bad("lonely-srs.json", { design: "srs", population_documents: 60, lonely_psu: "adjust" }),
      ],
      /"lonely_psu" applies to a stratified design/,
    ],
    [
      "--lonely-psu without a design",
      [lonelyData, "--lonely-psu", "adjust"],
      /--stratum, --psu and --lonely-psu belong to a design/,
    ],
    [
      "--lonely-psu with a two-stage design",
      [
        join(FIXTURES, "two_stage_types.csv"),
        "--design",
        join(FIXTURES, "two_stage_types.design.json"),
        "--lonely-psu",
        "adjust",
      ],
      /--lonely-psu applies to a stratified design; .* is two-stage/,
    ],
    [
      'the default "fail" with a lonely stratum',
      [lonelyData, "--design", lonelyDesign],
      /stratum "lone" has one sampled document of M_h = 7, .*--lonely-psu/,
    ],
  ] as const)("%s: one line, exit code 2", (_name, args, message) => {
    const result = ragci(["analyze", ...args, "--metric", "hit"]);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.stdout).toBe("");
    expect(result.code).toBe(2);
  });

  it("an srs design file sets M like --population", () => {
    const srs = bad("srs.json", { design: "srs", population_documents: 60 });
    const a = json(["analyze", data, "--metric", "hit", "--design", srs]);
    const b = json(["analyze", data, "--metric", "hit", "--population", "60"]);
    expect(a.micro.intervals.cr2).toEqual(b.micro.intervals.cr2);
    expect(a.design.population).toBe(60);
  });
});
