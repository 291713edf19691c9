/**
 * ragci simulate: SPEC §8's fields in ragci/schemas/simulate.v2.json, the same bytes for any number of
 * threads, a clean stop on Ctrl-C (exit 130, no output file), paired studies, bad options.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, EXAMPLE, ROOT, ragci, ragciOk, scratchDir } from "./runCli.js";

const CENSUS = join(ROOT, "examples/synthetic-census.csv");
const dir = scratchDir();

const small = [
  "simulate",
  CENSUS,
  "--aggregated",
  "--k",
  "5,12",
  "--reps",
  "60,40",
  "--replicates",
  "49",
  "--seed",
  "3",
];

/** A paired study's census values are the difference compare reports on the bundled example. */
function expectTruthOfComparedExample(out: {
  census: { pair: unknown };
  truth: { micro: number; macro: number };
}) {
  expect(out.census.pair).toEqual({ a: "bm25", b: "tfidf" });
  const compared = JSON.parse(
    ragciOk([
      "compare",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system",
      "--replicates",
      "0",
      "--json",
    ]),
  );
  const [only] = compared.comparisons;
  expect(out.truth.micro).toBe(only.difference.micro.estimate);
  expect(out.truth.macro).toBe(only.difference.macro.estimate);
}

describe("ragci simulate", () => {
  it("reports every method with SPEC §8's fields, per K, against the census value", () => {
    const out = JSON.parse(ragciOk([...small, "--json"]));
    expect(out.schema).toBe("ragci/schemas/simulate.v2.json");
    expect(out.truth.micro).toBeCloseTo(0.1861, 4);
    expect(out.truth.macro).toBeCloseTo(0.156, 3);
    expect(out.studies.map((s: { k: number; reps: number }) => [s.k, s.reps])).toEqual([
      [5, 60],
      [12, 40],
    ]);
    const study = out.studies[1];
    expect(study.replicates).toBe(49);
    expect(study.seed).toBe(3);
    for (const e of ["micro", "macro"]) {
      const { bias, sd, rmse } = study.estimators[e];
      expect(rmse ** 2).toBeCloseTo(bias ** 2 + sd ** 2, 12);
    }
    const methods = Object.keys(study.methods);
    for (const m of [
      "micro/cr2",
      "micro/logit-cv3",
      "micro/bootstrap-t",
      "macro/t",
      "macro/logit",
      "macro/wald-iid",
    ])
      expect(methods).toContain(m);
    expect(methods).not.toContain("micro/chunk-bootstrap");
    expect(out.notes.join(" ")).toMatch(/chunk-bootstrap: not scored by default/);
    const cr2 = study.methods["micro/cr2"];
    for (const field of [
      "coverage",
      "coverageAvailable",
      "mcse",
      "meanWidth",
      "medianWidth",
      "unavailable",
      "zeroWidth",
      "missBelow",
      "missAbove",
      "outside01",
      "meanDf",
    ])
      expect(cr2).toHaveProperty(field);
    expect(cr2.coverage + cr2.missBelow + cr2.missAbove + cr2.unavailable).toBeCloseTo(1, 12);
    expect(cr2.mcse).toBeCloseTo(Math.sqrt((cr2.coverage * (1 - cr2.coverage)) / 40), 14);
    expect(study.methods["micro/bootstrap-t"]).toHaveProperty("meanDegenerateFraction");
    expect(study.recommended.micro.method).toBeTypeOf("string");
  });

  it("--chunk-bootstrap scores the chunk bootstrap too", () => {
    const out = JSON.parse(
      ragciOk([
        ...small.slice(0, 3),
        "--k",
        "8",
        "--reps",
        "20",
        "--replicates",
        "39",
        "--chunk-bootstrap",
        "--json",
      ]),
    );
    const methods = out.studies[0].methods;
    expect(methods["micro/chunk-bootstrap"].unavailable).toBe(0);
    expect(methods["macro/chunk-bootstrap"].meanWidth).toBeGreaterThan(0);
    expect(out.notes).toEqual([]);
  });

  it("gives the same bytes on 1 and 3 workers", () => {
    const one = ragciOk([...small, "--json", "--workers", "1"]);
    const three = ragciOk([...small, "--json", "--workers", "3"]);
    expect(three).toBe(one);
  });

  it("still takes --threads alone as the workers' count, with a one-line deprecation notice", () => {
    const workers = ragciOk([...small, "--json", "--workers", "2"]);
    const old = ragci([...small, "--json", "--threads", "2"]);
    expect(old.code).toBe(0);
    expect(old.stdout).toBe(workers);
    expect(old.stderr).toBe(
      "ragci: simulate --threads n for the study's workers is deprecated: give --workers n (--threads sets DuckDB's threads)\n",
    );
    // with --workers, --threads is DuckDB's alone: no notice
    expect(ragciOk([...small, "--json", "--workers", "2", "--threads", "1"])).toBe(workers);
  });

  it("through the bin entry (workers started before the CLI loads) gives the same bytes, and a bad flag still ends at once with exit 2", () => {
    const BIN = CLI;
    const run = (args: string[]) =>
      spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8", timeout: 60_000 });
    // main.js itself (no early workers), on one thread
    const one = spawnSync(
      process.execPath,
      [join(ROOT, "dist/cli/main.js"), ...small, "--json", "--workers", "1"],
      { encoding: "utf8" },
    ).stdout;
    expect(JSON.parse(one).schema).toBe("ragci/schemas/simulate.v2.json");
    for (const workers of ["2", "3"]) {
      const viaBin = run([...small, "--json", "--workers", workers]);
      expect(viaBin.status).toBe(0);
      expect(viaBin.stdout).toBe(one);
    }
    // the prestarted workers are idle: they must not keep a failing run alive
    const bad = run([...small, "--workers", "2", "--no-such-flag"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("prints the article's table: methods as rows, K as columns, the recommendation", () => {
    const text = ragciOk(small);
    expect(text).toMatch(
      /^ragci simulate .*synthetic-census\.csv · metric s \(0\/1\) · census of 1300 documents/,
    );
    expect(text).toMatch(/micro: coverage ± MC se \(mean width\), nominal 95%/);
    expect(text).toMatch(/ {2}method\s+K = 5\s+K = 12/);
    expect(text).toMatch(/ {2}cr2\s+\d+\.\d% ± \d+\.\d \(\d/);
    expect(text).toMatch(/ {2}recommended /);
    // The study's caveat, with pseudo-population.json's figures and the flag as typed.
    expect(text.replace(/\s+/g, " ")).toContain(
      "in up to 78.0% of samples for one system and 39.5% for a pair (33.5% and 16.5% with --fpc); with only a sample, use the default recommendation",
    );
    expect(ragciOk([...small, "--markdown"])).toMatch(
      /^## ragci simulate[\s\S]*\| method \| K = 5 \| K = 12 \|/,
    );
  });

  it("studies the paired differences of two systems, as compare pairs them", () => {
    const out = JSON.parse(
      ragciOk([
        "simulate",
        EXAMPLE,
        "--metric",
        "hit5",
        "--system",
        "system=bm25,tfidf",
        "--k",
        "10",
        "--reps",
        "30",
        "--replicates",
        "39",
        "--json",
      ]),
    );
    expectTruthOfComparedExample(out);
  });

  it("names compare's defaults as the robust default of a pair's study, a system's own otherwise", () => {
    const args = ["simulate", EXAMPLE, "--metric", "hit5", "--k", "10", "--reps", "30"];
    const pair = ragciOk([...args, "--system", "system=bm25,tfidf", "--replicates", "39"]);
    expect(pair).toContain(
      "Recommended: the robust default (compare's: micro cr2, macro t-differing) when",
    );
    const one = ragciOk([...args, "--system", "system=bm25", "--replicates", "39"]);
    expect(one).toContain(
      "Recommended: the robust default (micro logit-cv3, macro logit; cr2 and t where they do not apply) when",
    );
  });

  /**
   * Runs simulate with `args` writing its JSON to `out`, sends Ctrl-C after `waitMs`, and
   * returns the exit code, stderr and how long the process took to stop after the signal.
   */
  async function interrupted(args: readonly string[], out: string, waitMs: number) {
    const child = spawn(
      process.execPath,
      [CLI, "simulate", CENSUS, "--aggregated", ...args, "--workers", "2", "--json", "-o", out],
      { env: { ...process.env, NO_COLOR: "1" } },
    );
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const sent = Date.now();
    child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    return { code, stderr, stopMs: Date.now() - sent };
  }

  it("stops on Ctrl-C with exit code 130 and writes nothing", async () => {
    const out = join(dir, "study.json");
    const { code, stderr } = await interrupted(["--k", "20", "--reps", "100000"], out, 1500);
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted: the study was stopped and nothing was written/);
    expect(existsSync(out)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith(".study.json"))).toEqual([]);
  }, 20_000);

  it("stops on Ctrl-C within seconds when each repetition is slow (K = 200, B = 9999, chunk bootstrap)", async () => {
    // This thread once ran pieces of up to 100 repetitions between looks at Ctrl-C: here half
    // a second each or more, so the stop waited for a minute, or the study ran to its end.
    const out = join(dir, "slow.json");
    const slow = ["--k", "200", "--reps", "2000", "--replicates", "9999", "--chunk-bootstrap"];
    const { code, stderr, stopMs } = await interrupted(slow, out, 2500);
    expect(stopMs).toBeLessThan(8000);
    expect(code).toBe(130);
    expect(stderr).toMatch(/interrupted: the study was stopped and nothing was written/);
    expect(existsSync(out)).toBe(false);
  }, 60_000);

  const stratifiedStudy = [
    ...small.slice(0, 3),
    "--k",
    "20",
    "--reps",
    "40",
    "--replicates",
    "0",
    "--sampling",
    "stratified",
    "--cutoff",
    "76",
    "--allocation",
    "equal",
    "--json",
  ];

  it("--sampling stratified samples size strata and scores the stratified interval next to the SRS ones", () => {
    const out = JSON.parse(ragciOk(stratifiedStudy));
    const study = out.studies[0];
    expect(study.design).toEqual({
      kind: "stratified",
      strata: [
        { name: "large", population: 129, sampled: 10 },
        { name: "small", population: 1171, sampled: 10 },
      ],
    });
    expect(study.methods["micro/stratified"].meanDf).toBe(18);
    expect(study.methods["micro/logit-cv3"].unavailable).toBe(1);
    expect(["stratified", "logit"]).toContain(study.recommended.micro.method);
  });

  it("says whether --fpc scales the SRS intervals under stratified sampling, and it does", () => {
    const without = JSON.parse(ragciOk(stratifiedStudy)).studies[0];
    const withFpc = JSON.parse(ragciOk([...stratifiedStudy, "--fpc"])).studies[0];
    // The same samples: t and cr2 scale by √(1 − K/M), K = 20 of M = 1300; the stratified
    // interval applies each stratum's fpc either way.
    for (const key of ["macro/t", "micro/cr2"])
      expect(withFpc.methods[key].meanWidth / without.methods[key].meanWidth, key).toBeCloseTo(
        Math.sqrt(1 - 20 / 1300),
        12,
      );
    expect(withFpc.methods["micro/stratified"].meanWidth).toBe(
      without.methods["micro/stratified"].meanWidth,
    );
    const text = (args: string[]) =>
      ragciOk(args.filter((a) => a !== "--json")).replace(/\s+/g, " ");
    expect(text([...stratifiedStudy, "--fpc"])).toContain(
      "SRS inside each stratum (the stratified interval with each stratum's fpc; the SRS intervals with the fpc 1 − K/M)",
    );
    expect(text(stratifiedStudy)).toContain("the SRS intervals without fpc)");
  });

  it("still takes the old --design stratified for --sampling stratified: the same bytes, with a one-line deprecation notice", () => {
    const old = ragci(stratifiedStudy.map((arg) => (arg === "--sampling" ? "--design" : arg)));
    expect(old.code).toBe(0);
    expect(old.stdout).toBe(ragciOk(stratifiedStudy));
    expect(old.stderr).toBe(
      "ragci: simulate --design stratified is deprecated: give --sampling stratified (--design is a design FILE, as in analyze and compare)\n",
    );
  });

  it.each([
    [
      ["--k", "20", "--sampling", "simple"],
      /--sampling simple: use srs, stratified \(size strata, with --cutoff C\) or two-stage \(units then documents, with --psu, --units, --per-unit\)/,
    ],
    [
      ["--k", "20", "--design", "simple"],
      /--design simple: no such file; simulate's --design is a two-stage design FILE \(JSON\), and the study's sampling is --sampling srs, stratified or two-stage/,
    ],
    [
      ["--k", "20", "--design", "stratified", "--sampling", "two-stage"],
      /--design stratified: the old spelling of --sampling stratified, given with --sampling two-stage; drop --design stratified/,
    ],
    [
      ["--units", "4", "--per-unit", "3"],
      /--psu, --units and --per-unit belong to a two-stage study/,
    ],
    [
      ["--k", "20", "--sampling", "stratified"],
      /--sampling stratified needs the size cutoff: --cutoff C/,
    ],
    [["--k", "20", "--cutoff", "76"], /--cutoff belongs to --sampling stratified/],
    [
      ["--k", "20", "--sampling", "stratified", "--cutoff", "1000"],
      /--cutoff 1000: the large stratum would hold no document; give a cutoff from the smallest size up to below the largest/,
    ],
    [["--k", "1"], /--k 1: give whole numbers ≥ 2/],
    [
      ["--k", "5,10", "--reps", "10,20,30"],
      /--reps 10,20,30: give one number, or one per K \(2 of them\)/,
    ],
    [["--k", "2000"], /--k 2000: K = 2000 is more than the census.s 1300 documents/],
    [
      ["--k", "20,1300"],
      /--k 1300: a study at K = M = 1300 cannot miss: every sample is the census itself; give a census larger than the sample, or use the default recommendation/,
    ],
    [
      ["--k", "5", "--replicates", "2000000"],
      /--replicates 2000000: give a whole number from 0 to 1,000,000/,
    ],
    [["--k", "5", "--json", "--markdown"], /choose one of --json and --markdown/],
    [["--k", "5", "-o", CENSUS], /is the same file as the input/],
  ])("refuses %j", (args, message) => {
    const result = ragci(["simulate", CENSUS, "--aggregated", ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("runs at K = M − 1, where the samples differ from the census", () => {
    const out = JSON.parse(
      ragciOk([
        "simulate",
        CENSUS,
        "--aggregated",
        "--k",
        "1299",
        "--reps",
        "3",
        "--replicates",
        "0",
        "--json",
      ]),
    );
    expect(out.studies[0].k).toBe(1299);
    expect(out.studies[0].reps).toBe(3);
  });

  it("says when K is a material share of the census and the study runs without --fpc", () => {
    const args = [
      ...["simulate", EXAMPLE, "--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25"],
      ...["--k", "10,50", "--reps", "100", "--replicates", "39"],
    ];
    const without = JSON.parse(ragciOk([...args, "--json"]));
    const withFpc = JSON.parse(ragciOk([...args, "--fpc", "--json"]));
    const note = without.notes.find((n: string) => n.startsWith("K = 50 is 51.0% of"));
    expect(note).toContain("(K = 10, 10.2%) and the study ran without --fpc");
    expect(note).toContain("1/√(1 − K/M) = 1.43× as wide as with the fpc");
    expect(withFpc.notes.some((n: string) => n.startsWith("K = "))).toBe(false);
    // What it says holds on the same samples: every interval but the Wald contrasts is that
    // much wider without the fpc (cr2, t, the bootstraps exactly), and covers at least as often.
    const [a, b] = [without.studies[1].methods, withFpc.studies[1].methods];
    for (const key of ["micro/cr2", "micro/bootstrap-t", "macro/t", "macro/bootstrap-percentile"])
      expect(a[key].meanWidth / b[key].meanWidth, key).toBeCloseTo(1 / Math.sqrt(1 - 50 / 98), 10);
    for (const key of Object.keys(a).filter((k) => a[k].meanWidth !== null))
      expect(a[key].coverage, key).toBeGreaterThanOrEqual(b[key].coverage);
    expect(ragciOk(args).replace(/\s+/g, " ")).toContain("and the study ran without --fpc:");
  });

  it("docs/simulate.md's example: at K = 50 of COVID-QA the pick without the fpc is the narrowest", () => {
    const study = (fpc: string[]) =>
      JSON.parse(
        ragciOk([
          ...["simulate", EXAMPLE, "--doc", "doc_id", "--metric", "hit5", "--system"],
          ...["system=bm25", "--k", "50", ...fpc, "--json"],
        ]),
      ).studies[0];
    const [a, b] = [study([]), study(["--fpc"])];
    expect([a.recommended.micro.method, a.recommended.macro.method]).toEqual([
      "bootstrap-percentile",
      "bootstrap-percentile",
    ]);
    expect([b.recommended.micro.reachesNominal, b.recommended.macro.method]).toEqual([
      false,
      "logit",
    ]);
    const [without, withFpc] = [a.methods, b.methods];
    const shown = (m: { coverage: number }) => (100 * m.coverage).toFixed(1);
    expect(shown(without["micro/bootstrap-percentile"])).toBe("98.4");
    expect(shown(without["macro/bootstrap-percentile"])).toBe("99.0");
    expect(shown(withFpc["micro/bootstrap-percentile"])).toBe("88.9");
    expect(shown(withFpc["macro/logit"])).toBe("94.7");
    const page = readFileSync(join(ROOT, "docs/simulate.md"), "utf8").replace(/\s+/g, " ");
    expect(page).toContain(
      "picks `bootstrap-percentile` for micro and macro (98.4% and 99.0%); with `--fpc` that interval covers 88.9% for micro",
    );
  });

  it("shows a coverage of every repetition with its exact bound, not ± 0.0", () => {
    const text = ragciOk([
      ...["simulate", EXAMPLE, "--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25"],
      ...["--k", "90", "--reps", "200", "--replicates", "0"],
    ]);
    expect(text).toMatch(/cr2 +100\.0% \(≥ 98\.5\) \(0\.109\)/);
    expect(text).not.toContain("± 0.0 ");
    expect(text.replace(/\s+/g, " ")).toContain(
      "· A bracket such as (≥ 98.5) beside 100.0% (or ≤ beside 0.0%): where every repetition covered, or none did, the Monte Carlo se is 0",
    );
  });

  it("says 1 repetition in the singular", () => {
    const text = ragciOk([
      "simulate",
      CENSUS,
      "--aggregated",
      "--k",
      "5",
      "--reps",
      "1",
      "--replicates",
      "0",
    ]).replace(/\s+/g, " ");
    // One bootstrap replicate is refused (too few for any level's tails: replicateLimit.test.ts).
    expect(text).toContain("; 1 repetition per K, B = 0 bootstrap replicates, seed 1");
    const two = ragciOk([...small.slice(0, -4), "--replicates", "0"]).replace(/\s+/g, " ");
    expect(two).toContain("60, 40 repetitions per K, B = 0 bootstrap replicates");
    // The faceted study's line too.
    const facets = ragciOk([
      "simulate",
      join(ROOT, "examples/covidqa-judges.csv"),
      ...["--doc", "doc_id", "--query", "query_id", "--metric", "found", "--system", "system=bm25"],
      ...["--judge", "judge", "--k", "10", "--reps", "1"],
    ]).replace(/\s+/g, " ");
    expect(facets).toContain("; 1 repetition per column, seed 1");
  });

  it("twelve workers, stderr a file: no leak warning from Node (one pipe listener per worker)", () => {
    const dir = scratchDir();
    const shell = spawnSync(
      "bash",
      [
        "-c",
        `"${process.execPath}" "${CLI}" simulate "${join(ROOT, "examples/synthetic-census.csv")}" --aggregated --k 10 --reps 40 --replicates 0 --workers 12 > out.txt 2> err.txt`,
      ],
      { cwd: dir, encoding: "utf8" },
    );
    expect(shell.status).toBe(0);
    expect(readFileSync(join(dir, "err.txt"), "utf8")).toBe("");
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toMatch(/^ragci simulate/);
  });
});

// A census with first-stage units: the synthetic census's documents in 17 topics of uneven
// size (topic of the i-th document: i² mod 17), one row per document.
const UNITS_CENSUS = join(dir, "units-census.csv");
const censusLines = readFileSync(CENSUS, "utf8").trim().split("\n");
writeFileSync(
  UNITS_CENSUS,
  `${censusLines[0]},topic\n${censusLines
    .slice(1)
    .map((line, i) => `${line},t${String((i * i) % 17).padStart(2, "0")}`)
    .join("\n")}\n`,
);
const topicSizes = new Map<string, number>();
censusLines.slice(1).forEach((_, i) => {
  const t = `t${String((i * i) % 17).padStart(2, "0")}`;
  topicSizes.set(t, (topicSizes.get(t) ?? 0) + 1);
});
const twoStage = [
  "simulate",
  UNITS_CENSUS,
  "--aggregated",
  "--sampling",
  "two-stage",
  "--psu",
  "topic",
  "--per-unit",
  "4",
  "--replicates",
  "0",
];

describe("ragci simulate, two-stage, paired", () => {
  // The bundled example's per-query rows of two systems, each article in one of 7 topics
  // (its id mod 7): a census of paired queries with first-stage units.
  const PAIRED_UNITS = join(dir, "paired-units.csv");
  const rows = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
  writeFileSync(
    PAIRED_UNITS,
    `${rows[0]},topic\n${rows
      .slice(1)
      .map((line) => `${line},u${Number(line.split(",")[0]) % 7}`)
      .join("\n")}\n`,
  );

  it("scores compare's two-stage interval of the differences, against the census difference", () => {
    const out = JSON.parse(
      ragciOk([
        "simulate",
        PAIRED_UNITS,
        "--metric",
        "hit5",
        "--system",
        "system=bm25,tfidf",
        "--sampling",
        "two-stage",
        "--psu",
        "topic",
        "--units",
        "3,5",
        "--per-unit",
        "4",
        "--reps",
        "40",
        "--replicates",
        "0",
        "--json",
      ]),
    );
    expectTruthOfComparedExample(out);
    expect(
      out.studies.map((s: { design: { units: number; firstStagePopulation: number } }) => [
        s.design.units,
        s.design.firstStagePopulation,
      ]),
    ).toEqual([
      [3, 7],
      [5, 7],
    ]);
    for (const study of out.studies) {
      for (const key of ["micro/two-stage", "macro/two-stage"]) {
        const score = study.methods[key];
        expect(score.meanDf).toBe(study.design.units - 1);
        expect(score.coverage).toBeGreaterThan(0.5);
        expect(score.coverage + score.missBelow + score.missAbove + score.unavailable).toBeCloseTo(
          1,
          12,
        );
      }
      // a difference is not a proportion: no logit interval is scored as available
      expect(study.methods["micro/logit"].coverageAvailable ?? null).toBeNull();
    }
  });
});

describe("ragci simulate, two-stage", () => {
  it("draws m units then k documents in each, and scores the two-stage interval next to the SRS ones", () => {
    const out = JSON.parse(ragciOk([...twoStage, "--units", "3,6", "--reps", "60", "--json"]));
    const T = topicSizes.size;
    expect(T).toBe(9); // i² mod 17 takes the 9 quadratic residues (with 0)
    const expected = (m: number) =>
      (m / T) * [...topicSizes.values()].reduce((t, M) => t + Math.min(4, M), 0);
    expect(out.studies.map((s: { design: unknown }) => s.design)).toEqual([
      {
        kind: "two-stage",
        units: 3,
        firstStagePopulation: T,
        perUnit: 4,
        expectedDocuments: expected(3),
      },
      {
        kind: "two-stage",
        units: 6,
        firstStagePopulation: T,
        perUnit: 4,
        expectedDocuments: expected(6),
      },
    ]);
    for (const study of out.studies) {
      expect(study.k).toBe(4 * study.design.units);
      for (const key of ["micro/two-stage", "macro/two-stage"]) {
        const score = study.methods[key];
        expect(score.unavailable).toBe(0);
        // ν = m − 1 in every repetition
        expect(score.meanDf).toBe(study.design.units - 1);
        expect(score.coverage).toBeGreaterThan(0.5);
        expect(score.missBelow + score.missAbove).toBeCloseTo(1 - score.coverage, 12);
      }
      expect(study.methods["micro/stratified"]).toBeUndefined();
      expect(["two-stage", "logit"]).toContain(study.recommended.micro.method);
      expect(["two-stage", "logit"]).toContain(study.recommended.macro.method);
    }
    const text = ragciOk([...twoStage, "--units", "3,6", "--reps", "60"]);
    expect(text).toMatch(/m = 3 × 4 +m = 6 × 4/);
    expect(text).toMatch(/m of the census's T = 9 first-stage units by SRS, then k documents/);
    expect(text).toMatch(/two-stage +\d+\.\d% ± /);
  });

  it("gives the same bytes on 1 and 2 workers", () => {
    const args = [...twoStage, "--units", "4", "--reps", "50", "--replicates", "39", "--json"];
    expect(ragciOk([...args, "--workers", "1"])).toBe(ragciOk([...args, "--workers", "2"]));
  });

  it("checks a two-stage design file against the census's units", () => {
    const population = Object.fromEntries(topicSizes);
    const good = join(dir, "two-stage-good.json");
    writeFileSync(
      good,
      JSON.stringify({
        design: "two-stage",
        first_stage_population: 9,
        second_stage_population: population,
      }),
    );
    // --design FILE alone is a two-stage study (--sampling two-stage may be given too)
    const withFile = (file: string) => [
      ...twoStage.slice(0, 3),
      "--design",
      file,
      ...twoStage.slice(5),
    ];
    const sizes = ["--units", "3", "--reps", "20", "--json"];
    const fileBytes = ragciOk([...withFile(good), ...sizes]);
    const viaFlag = JSON.parse(ragciOk([...twoStage, ...sizes]));
    expect(JSON.parse(fileBytes).studies).toEqual(viaFlag.studies);
    expect(ragciOk([...withFile(good), "--sampling", "two-stage", ...sizes])).toBe(fileBytes);
    const notTwoStage = ragci([...small.slice(0, 3), "--sampling", "srs", "--design", good]);
    expect(notTwoStage.code).toBe(2);
    expect(notTwoStage.stderr).toBe(
      `ragci: --design ${good}: simulate reads a two-stage design file, and --sampling srs takes none; give --sampling two-stage, or no --design\n`,
    );

    const wrongT = join(dir, "two-stage-wrong-t.json");
    writeFileSync(
      wrongT,
      JSON.stringify({
        design: "two-stage",
        first_stage_population: 10,
        second_stage_population: population,
      }),
    );
    const wrongM = join(dir, "two-stage-wrong-m.json");
    writeFileSync(
      wrongM,
      JSON.stringify({
        design: "two-stage",
        first_stage_population: 9,
        second_stage_population: { ...population, t00: (population.t00 as number) + 1 },
      }),
    );
    const stratified = join(dir, "stratified.json");
    writeFileSync(stratified, JSON.stringify({ design: "stratified", strata: { a: 10, b: 20 } }));
    for (const [file, message] of [
      [wrongT, /first_stage_population is 10 but the census has 9 first-stage units/],
      [
        wrongM,
        /unit "t00" has M_i = \d+ in second_stage_population but \d+ documents in the census/,
      ],
      [
        stratified,
        /simulate reads a two-stage design file \(.*stratified.json is stratified\); size strata are --sampling stratified --cutoff C/,
      ],
    ] as const) {
      const result = ragci([...withFile(file), "--units", "3"]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it.each([
    [
      ["--units", "3", "--k", "20"],
      /a two-stage study's columns are --units m .*--k does not apply/,
    ],
    [[], /a two-stage study needs --units m .* and --per-unit k/],
    [
      ["--units", "10"],
      /10 units per sample: a two-stage study draws between 2 and the census's 9/,
    ],
    [["--units", "1"], /--units 1: give whole numbers ≥ 2/],
  ])("refuses %j", (args, message) => {
    const result = ragci([...twoStage, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });
});
