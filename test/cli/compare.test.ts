import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectRelativelyClose } from "../expectClose.js";
import { comparisonOf, EXAMPLE, FIXTURES, ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();
// R 4.2.2, clubSandwich 0.5.8 (coef_test CR2 Satterthwaite / CR1 on lm(x ~ 1) per query) and
// survey 4.1.1 (svyratio, svymean, confint(df = degf)) per document: test/fixtures/covidqa-compare.R
const R = JSON.parse(
  readFileSync(join(ROOT, "test/fixtures/covidqa-compare.expected.json"), "utf8"),
);
const PAIRED = JSON.parse(readFileSync(join(FIXTURES, "paired_ties_rr.expected.json"), "utf8"));

const close = (actual: number, expected: number, label: string, rel = 1e-9) =>
  expectRelativelyClose(actual, expected, { rel, abs: 1e-15, label });

describe("ragci compare on the bundled COVID-QA example (tfidf − bm25)", () => {
  const out = ragciJson([
    "compare",
    EXAMPLE,
    "--doc",
    "doc_id",
    "--query",
    "query_id",
    "--system",
    "system",
    "--metric",
    "hit1,hit5,hit10,rr",
    "--replicates",
    "200",
  ]);

  it.each(["hit1", "hit5", "hit10", "rr"])(
    "%s matches R clubSandwich and survey to 1e-9",
    (metric) => {
      const mine = comparisonOf(out, metric);
      const ref = R.metrics[metric];
      expect(mine.difference.of).toBe("tfidf - bm25");
      const micro = mine.difference.micro;
      close(micro.estimate, ref.micro.estimate, "micro estimate");
      for (const key of ["se", "df", "lower", "upper"])
        close(micro.intervals.cr2[key], ref.micro.cr2[key], `cr2 ${key}`);
      close(micro.intervals.cr1.se, ref.micro.cr1.se, "cr1 se");
      const macro = mine.difference.macro;
      close(macro.estimate, ref.macro.estimate, "macro estimate");
      for (const key of ["se", "df", "lower", "upper"])
        close(macro.intervals.t[key], ref.macro.t[key], `t ${key}`);
      close(mine.a.micro.estimate, ref.a.micro, "bm25 micro");
      close(mine.b.macro.estimate, ref.b.macro, "tfidf macro");
      close(mine.ties, ref.ties, "ties");
      close(mine.queriesDiffering, ref.queriesDiffering, "queries differing");
      expect(mine.a.system).toBe("bm25");
      expect(mine.difference.micro.intervals.logit).toMatchObject({
        available: false,
        reason: "metric not in [0, 1]",
      });
    },
  );

  it("names the input's format as read (csv), not the flag's default", () => {
    expect(out.inputs.map((i: { format: string }) => i.format)).toEqual(["csv"]);
  });

  it("says the verdict in plain words", () => {
    expect(comparisonOf(out, "hit5").verdict.micro).toBe(
      "micro: tfidf − bm25 = -4.13 points [-5.53, -2.73] (cr2, ν = 39.27): distinguishable at 95%, bm25 higher, p = 5.5e-7",
    );
  });
});

describe("reference case paired_ties_rr (difference A − B)", () => {
  const out = ragciJson([
    "compare",
    join(FIXTURES, "paired_ties_rr.csv"),
    "--system",
    "system",
    "--metric",
    "score",
    "--baseline",
    "B",
  ]);
  const c = out.comparisons[0];

  it("reproduces every deterministic interval and the bootstrap of the differences", () => {
    expect(c.difference.of).toBe("A - B");
    for (const estimand of ["micro", "macro"] as const) {
      close(c.difference[estimand].estimate, PAIRED[estimand].estimate, `${estimand} estimate`);
      for (const [method, ref] of Object.entries(PAIRED[estimand].intervals) as [string, any][]) {
        const mine = c.difference[estimand].intervals[method];
        if (ref.available === false) {
          expect(mine.available).toBe(false);
          continue;
        }
        if (method === "chunk-bootstrap") continue; // numpy's own row draws; checked statistically in test/reference
        for (const key of ["lower", "upper"])
          close(mine[key], ref[key], `${estimand} ${method} ${key}`, 1e-12);
      }
    }
    expect(c.ties).toBe(0.7);
    // --baseline B: a is the baseline B, b is A.
    expect([c.a.system, c.b.system]).toEqual(["B", "A"]);
    close(c.b.micro.estimate, PAIRED.paired.a_micro, "A micro");
    close(c.a.macro.estimate, PAIRED.paired.b_macro, "B macro");
  });
});

describe("pairing rules", () => {
  const a = join(dir, "a.jsonl");
  const b = join(dir, "b.jsonl");
  writeFileSync(
    a,
    [
      '{"doc":"d1","qid":"q1","rr":1}',
      '{"doc":"d1","qid":"q2","rr":0.5}',
      '{"doc":"d2","qid":"q3","rr":0}',
      '{"doc":"d3","qid":"q4","rr":1}',
    ].join("\n"),
  );
  writeFileSync(
    b,
    [
      '{"doc":"d1","qid":"q1","rr":0.5}',
      '{"doc":"d1","qid":"q2","rr":0.5}',
      '{"doc":"d2","qid":"q3","rr":1}',
      '{"doc":"d3","qid":"q4","rr":1}',
    ].join("\n"),
  );

  it("joins two files on the query, one system per file", () => {
    const out = ragciJson([
      "compare",
      a,
      b,
      "--doc",
      "doc",
      "--query",
      "qid",
      "--metric",
      "rr",
      "--replicates",
      "0",
    ]);
    expect(out.systems).toEqual(["a", "b"]);
    const c = comparisonOf(out, "rr");
    expect(c.difference.of).toBe("b - a");
    // per document: d1 −0.5 over 2, d2 +1 over 1, d3 0 over 1 → micro 0.5/4, macro (−0.25 + 1 + 0)/3
    close(c.difference.micro.estimate, 0.125, "micro");
    close(c.difference.macro.estimate, 0.25, "macro");
    close(c.ties, 1 / 3, "ties");
    close(c.queriesDiffering, 0.5, "differing");
  });

  const cases: { name: string; rows: string[]; extra?: string[]; message: RegExp }[] = [
    {
      name: "a duplicated query",
      rows: ["d1,q1,A,1", "d1,q1,A,0", "d1,q1,B,1", "d2,q2,A,1", "d2,q2,B,0"],
      message: /query q1 appears 2 times for system A; each query needs one result per system/,
    },
    {
      name: "a query for one system only",
      rows: ["d1,q1,A,1", "d1,q1,B,1", "d2,q2,A,1", "d2,q2,B,0", "d2,q3,A,1"],
      message:
        /query q3 has a result for A but not for B; A has 1 query missing from another system\. Use --intersect/,
    },
    {
      name: "a query under two documents",
      rows: ["d1,q1,A,1", "d2,q1,B,1", "d2,q2,A,1", "d2,q2,B,0"],
      message: /query q1 is under two documents \(d1 and d2\)/,
    },
    {
      name: "three systems without --baseline or --all-pairs",
      rows: ["d1,q1,A,1", "d1,q1,B,1", "d1,q1,C,0", "d2,q2,A,1", "d2,q2,B,0", "d2,q2,C,0"],
      message: /3 systems \(A, B, C\): choose --baseline SYSTEM or --all-pairs/,
    },
  ];
  it.each(cases)("$name: one line, exit code 2", ({ rows, message }) => {
    const file = join(dir, `bad-${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(file, `doc,qid,system,hit\n${rows.join("\n")}\n`);
    const result = ragci([
      "compare",
      file,
      "--doc",
      "doc",
      "--query",
      "qid",
      "--system",
      "system",
      "--metric",
      "hit",
    ]);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.code).toBe(2);
  });

  it("keeps the common queries with --intersect and reports how many were dropped per system", () => {
    const file = join(dir, "partial.csv");
    writeFileSync(
      file,
      `doc,qid,system,hit\n${["d1,q1,A,1", "d1,q1,B,1", "d2,q2,A,1", "d2,q2,B,0", "d2,q3,A,1", "d3,q4,A,0", "d3,q4,B,1"].join("\n")}\n`,
    );
    const out = ragciJson([
      "compare",
      file,
      "--doc",
      "doc",
      "--query",
      "qid",
      "--system",
      "system",
      "--metric",
      "hit",
      "--intersect",
      "--replicates",
      "0",
    ]);
    expect(out.dropped).toEqual({ A: 1, B: 0 });
    expect(out.queries).toBe(3);
    expect(comparisonOf(out, "hit").difference.results).toBe(3);
  });

  it("compares all pairs with Holm-adjusted p-values and groups", () => {
    const out = ragciJson([
      "compare",
      EXAMPLE,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--all-pairs",
      "--replicates",
      "0",
    ]);
    expect(out.mode).toBe("all-pairs");
    expect(out.comparisons).toHaveLength(1);
    // One comparison: Holm leaves the p-value as it is.
    expect(out.comparisons[0].pHolm.micro).toBeCloseTo(out.comparisons[0].tests.micro.p, 15);
    expect(out.groups).toEqual([
      { metric: "hit5", micro: [["bm25"], ["tfidf"]], macro: [["bm25"], ["tfidf"]] },
    ]);
  });

  it("ranks three systems, adjusts by Holm and groups the two that cannot be told apart", () => {
    const [head, ...rows] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const copies = rows
      .filter((r) => r.split(",")[2] === "bm25")
      .map((r) => r.replace(",bm25,", ",bm25copy,"));
    const file = join(dir, "three.csv");
    writeFileSync(file, `${head}\n${[...rows, ...copies].join("\n")}\n`);
    const out = ragciJson([
      "compare",
      file,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--all-pairs",
      "--replicates",
      "0",
    ]);
    expect(out.systems).toEqual(["bm25", "bm25copy", "tfidf"]);
    expect(out.comparisons.map((c: any) => c.difference.of)).toEqual([
      "bm25copy - bm25",
      "tfidf - bm25",
      "tfidf - bm25copy",
    ]);
    const raw = out.comparisons.map((c: any) => c.tests.micro.p ?? 1);
    // Holm: the smallest of three p-values is multiplied by 3, the next by 2 (monotone).
    const sorted = [...raw].sort((a: number, b: number) => a - b);
    const holm = out.comparisons.map((c: any) => c.pHolm.micro);
    expect(Math.min(...holm)).toBeCloseTo(Math.min(1, 3 * (sorted[0] as number)), 14);
    expect(out.comparisons[0].ties).toBe(1);
    expect(out.groups[0].micro).toEqual([["bm25", "bm25copy"], ["tfidf"]]);
    const text = ragci([
      "compare",
      file,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--all-pairs",
      "--replicates",
      "0",
    ]).stdout;
    expect(text).toMatch(/micro: cannot be told apart at 95% \(Holm\): \{bm25, bm25copy\}$/m);
    expect(out.schema).toBe("ragci/schemas/compare.v2.json");
  });

  it("--all-pairs with two systems it can tell apart says so, not that they tie", () => {
    const args = ["compare", EXAMPLE, "--system", "system", "--metric", "hit5", "--all-pairs"];
    const text = ragci([...args, "--replicates", "0"]).stdout;
    expect(text).toMatch(/micro: every pair is told apart at 95% \(Holm\)/);
    expect(text).not.toMatch(/cannot be told apart/);
    expect(text).toMatch(/5\.5e-7/);
    // one schema for two systems and for all pairs
    expect(ragciJson([...args, "--replicates", "0"]).schema).toBe("ragci/schemas/compare.v2.json");
    expect(
      ragciJson(["compare", EXAMPLE, "--system", "system", "--metric", "hit5", "--replicates", "0"])
        .schema,
    ).toBe("ragci/schemas/compare.v2.json");
  });
});

describe("compare on a tie-heavy sample: the first 20 COVID-QA documents (tfidf − bm25)", () => {
  // R 4.2.2 (survey svymean, qt) on the same rows: test/fixtures/covidqa-compare.R, subsample20.
  const [head, ...lines] = readFileSync(EXAMPLE, "utf8").trimEnd().split(/\r?\n/);
  const first20 = new Set([...new Set(lines.map((l) => l.split(",")[0]))].slice(0, 20));
  const file = join(dir, "covidqa-first20.csv");
  writeFileSync(
    file,
    `${[head, ...lines.filter((l) => first20.has(l.split(",")[0] as string))].join("\n")}\n`,
  );
  const argsFor = (metric: string) => [
    "compare",
    file,
    "--doc",
    "doc_id",
    "--query",
    "query_id",
    "--system",
    "system",
    "--baseline",
    "bm25",
    "--metric",
    metric,
    "--replicates",
    "99",
  ];
  const out = ragciJson(argsFor("hit1,hit5,hit10,rr"));

  it.each(["hit1", "hit5", "hit10", "rr"])(
    "%s: macro recommended t-differing, ν = D − 1, bounds as R's qt(0.975, D − 1)",
    (metric) => {
      const ref = R.metrics[metric].subsample20;
      const c = comparisonOf(out, metric);
      expect(c.difference.documents).toBe(20);
      close(c.ties, ref.ties, "ties");
      const macro = c.difference.macro;
      expect(macro.recommended).toBe("t-differing");
      expect(macro.intervals["t-differing"].df).toBe(ref.macro.t_differing.df);
      expect(ref.macro.t_differing.df).toBe(ref.macro.t_differing.differing - 1);
      for (const key of ["se", "lower", "upper"]) {
        close(
          macro.intervals["t-differing"][key],
          ref.macro.t_differing[key],
          `t-differing ${key}`,
        );
        close(macro.intervals.t[key], ref.macro.t[key], `t ${key}`);
      }
      expect(c.tests.macro.method).toBe("t-differing");
      expect(c.tests.macro.df).toBe(ref.macro.t_differing.df);
      expect(c.difference.micro.recommended).toBe("cr2");
      close(c.difference.micro.intervals.cr2.upper, ref.micro.cr2.upper, "cr2 upper");
    },
  );

  it("the full 98 documents: t-differing as R's, recommended for every metric", () => {
    const full = ragciJson([
      "compare",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "hit1,hit5,hit10,rr",
      "--replicates",
      "0",
    ]);
    for (const metric of ["hit1", "hit5", "hit10", "rr"]) {
      const ref = R.metrics[metric].macro.t_differing;
      const macro = comparisonOf(full, metric).difference.macro;
      expect(macro.recommended).toBe("t-differing");
      expect(macro.intervals["t-differing"].df).toBe(ref.df);
      for (const key of ["se", "lower", "upper"])
        close(macro.intervals["t-differing"][key], ref[key], `${metric} t-differing ${key}`);
    }
  });

  it("the terminal prints t-differing with ν = D − 1 and D counted, and the studies at K = 20", () => {
    // Two systems without --baseline: the pair's own section (bm25 first in the file, so a).
    const r = ragci(argsFor("hit5").filter((a) => a !== "--baseline" && a !== "bm25"));
    expect(r.code).toBe(0);
    const ref = R.metrics.hit5.subsample20.macro.t_differing;
    expect(r.stdout).toMatch(new RegExp(`macro .*\\s${ref.df}\\s+t-differing`));
    expect(r.stdout).toContain(
      `macro t-differing: ν = D − 1 = ${ref.df}, D = ${ref.differing} of the 20 documents differ`,
    );
    expect(r.stdout).toMatch(/K = 20: at K = 20 the recommended intervals of a paired difference/);
  });

  it("--require-noninferior: the gate decides on t-differing (a margin t alone would pass fails)", () => {
    const ref = R.metrics.hit5.subsample20.macro;
    // Between t's lower bound (ν = K − 1) and t-differing's (ν = D − 1).
    const margin = -(ref.t.lower + ref.t_differing.lower) / 2;
    expect(-ref.t.lower).toBeLessThan(margin);
    const r = ragci([
      ...argsFor("hit5"),
      "--estimand",
      "macro",
      "--require-noninferior",
      "--margin",
      margin.toFixed(4),
      "--json",
    ]);
    const json = JSON.parse(r.stdout);
    const check = json.gate.checks[0];
    expect(check.test.method).toBe("t-differing");
    expect(check.test.df).toBe(ref.t_differing.df);
    expect(check.verdict).toBe("not-noninferior");
    expect(r.code).toBe(1);
  });
});
