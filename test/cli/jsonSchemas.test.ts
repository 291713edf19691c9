/**
 * Every command's --json against the JSON Schema its `schema` field names (schemas/, shipped in
 * the package): one system and several, one metric and several, a gate, a design, a census
 * study. The schemas close their objects, so a key added, renamed or dropped fails here.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { METHODS } from "../../src/core/methods.js";
import { ADVICE_CODES } from "../../src/core/recommendMethod.js";
import { EXAMPLE, FIXTURES, ROOT, ragci, ragciJson, scratchDir } from "./runCli.js";
import { ajv, SCHEMAS } from "./schemaValidator.js";

/** The output's `schema` resolves, through the package's exports, to the file that checks it. */
function expectValid(out: Record<string, any>, command: string): void {
  expect(out.schema).toBe(`ragci/schemas/${command}.v2.json`);
  const file = createRequire(import.meta.url).resolve(out.schema);
  expect(file).toBe(join(SCHEMAS, `${command}.v2.json`));
  expect(JSON.parse(readFileSync(file, "utf8")).$id).toBe(out.schema);
  const validate = ajv.getSchema(out.schema);
  if (!validate) throw new Error(`no schema ${out.schema}`);
  const valid = validate(out);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  expect(out.command).toBe(`ragci ${command}`);
}

const dir = scratchDir();
const CENSUS = join(ROOT, "examples/synthetic-census.csv");
const covid = (...args: string[]) => [EXAMPLE, "--doc", "doc_id", ...args];
const fast = ["--replicates", "99"];

describe("analyze --json follows schemas/analyze.v2.json", () => {
  const cases: [string, string[], [string | null, string][]][] = [
    [
      "one system, one metric",
      covid("--metric", "hit5", "--system", "system=bm25"),
      [["bm25", "hit5"]],
    ],
    [
      "one system, two metrics",
      covid("--metric", "hit5,rr", "--system", "system=bm25"),
      [
        ["bm25", "hit5"],
        ["bm25", "rr"],
      ],
    ],
    [
      "two systems, two metrics",
      covid("--metric", "hit5,rr", "--system", "system"),
      [
        ["bm25", "hit5"],
        ["bm25", "rr"],
        ["tfidf", "hit5"],
        ["tfidf", "rr"],
      ],
    ],
    ["no system column", [CENSUS, "--aggregated"], [[null, "s"]]],
  ];
  for (const [name, args, named] of cases) {
    it(`${name}: analyses[] names each system and metric`, () => {
      const out = ragciJson(["analyze", ...args, ...fast]);
      expectValid(out, "analyze");
      expect(out.analyses.map((a: any) => [a.system, a.metric])).toEqual(named);
    });
  }

  it("a declared two-stage design (design.detail) and a census study (censusStudy)", () => {
    const designed = ragciJson([
      "analyze",
      join(FIXTURES, "two_stage_types.csv"),
      "--metric",
      "score",
      "--design",
      join(FIXTURES, "two_stage_types.design.json"),
      "--replicates",
      "0",
    ]);
    expectValid(designed, "analyze");
    expect(designed.analyses[0].design.kind).toBe("two-stage");
    // design.detail is one of two closed shapes, with counts
    const validate = ajv.getSchema("ragci/schemas/analyze.v2.json");
    const edited = (change: (detail: Record<string, any>) => void) => {
      const copy = structuredClone(designed);
      change(copy.analyses[0].design.detail);
      return validate?.(copy);
    };
    expect(edited(() => {})).toBe(true);
    expect(edited((d) => Object.assign(d, { extra: 1 }))).toBe(false);
    expect(edited((d) => Object.assign(d, { strata: d.units }))).toBe(false);
    expect(edited((d) => delete d.firstStagePopulation)).toBe(false);
    expect(edited((d) => ((Object.values(d.units)[0] as any).sampled = 0))).toBe(false);
    expect(edited((d) => Object.assign(Object.values(d.units)[0] as any, { share: 1 }))).toBe(
      false,
    );
    // the same documents as strata (the drawn types, with their M_h)
    const types = JSON.parse(readFileSync(join(FIXTURES, "two_stage_types.design.json"), "utf8"));
    const drawn = new Set(
      readFileSync(join(FIXTURES, "two_stage_types.csv"), "utf8")
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((line) => line.split(",")[2] as string),
    );
    const strataFile = join(dir, "types-as-strata.json");
    writeFileSync(
      strataFile,
      JSON.stringify({
        design: "stratified",
        strata: Object.fromEntries([...drawn].map((t) => [t, types.second_stage_population[t]])),
      }),
    );
    const stratified = ragciJson([
      "analyze",
      join(FIXTURES, "two_stage_types.csv"),
      "--metric",
      "score",
      "--design",
      strataFile,
      "--stratum",
      "psu",
      "--replicates",
      "0",
    ]);
    expectValid(stratified, "analyze");
    expect(Object.keys(stratified.analyses[0].design.detail.strata).sort()).toEqual(
      [...drawn].sort(),
    );
    // every 13th document of the census: a sample smaller than the census
    const [head, ...rows] = readFileSync(CENSUS, "utf8").trim().split(/\r?\n/);
    const sample = join(dir, "census-sample.csv");
    writeFileSync(sample, `${head}\n${rows.filter((_, i) => i % 13 === 0).join("\n")}\n`);
    const studied = ragciJson([
      "analyze",
      sample,
      "--aggregated",
      "--census",
      CENSUS,
      "--census-aggregated",
      "--census-reps",
      "50",
      "--replicates",
      "0",
    ]);
    expectValid(studied, "analyze");
    expect(studied.analyses[0].censusStudy.file).toBe(CENSUS);
  });
});

describe("compare --json follows schemas/compare.v2.json", () => {
  it("two systems: one comparison, pHolm null, no groups, no gate", () => {
    const out = ragciJson([
      "compare",
      ...covid("--system", "system=bm25,tfidf", "--metric", "hit5", "--query", "query_id"),
      ...fast,
    ]);
    expectValid(out, "compare");
    expect(out.comparisons.map((c: any) => [c.metric, c.a.system, c.b.system])).toEqual([
      ["hit5", "bm25", "tfidf"],
    ]);
    expect(out.comparisons[0].pHolm).toBeNull();
    expect(out.gate).toBeNull();
  });

  it("a tie-heavy 20-document sample: macro t-differing (ν = D − 1), gated, valid", () => {
    const [head, ...lines] = readFileSync(EXAMPLE, "utf8").trimEnd().split(/\r?\n/);
    const first20 = new Set([...new Set(lines.map((l) => l.split(",")[0]))].slice(0, 20));
    const file = join(dir, "covidqa-first20.csv");
    writeFileSync(
      file,
      `${[head, ...lines.filter((l) => first20.has(l.split(",")[0] as string))].join("\n")}\n`,
    );
    const r = ragci([
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
      "hit5",
      "--estimand",
      "macro",
      "--fail-if-worse",
      ...fast,
      "--json",
    ]);
    const out = JSON.parse(r.stdout);
    expectValid(out, "compare");
    const c = out.comparisons[0];
    expect(c.difference.macro.recommended).toBe("t-differing");
    expect(c.difference.macro.intervals["t-differing"].df).toBeLessThan(19);
    expect(out.gate.checks[0].test.method).toBe("t-differing");
    expect(c.difference.advice.map((a: { code: string }) => a.code)).toContain("paired-studies");
  });

  it("all pairs of two metrics: a comparison per metric, tie groups per metric", () => {
    const out = ragciJson([
      "compare",
      ...covid("--system", "system", "--metric", "hit5,rr", "--all-pairs"),
      ...fast,
    ]);
    expectValid(out, "compare");
    expect(out.comparisons.map((c: any) => c.metric)).toEqual(["hit5", "rr"]);
    expect(out.groups.map((g: any) => g.metric)).toEqual(["hit5", "rr"]);
  });

  it("--fail-if-worse on two metrics: the gate's checks, Holm, and exit 1 in the JSON too", () => {
    const r = ragci([
      "compare",
      ...covid("--system", "system", "--metric", "hit5,rr", "--baseline", "bm25"),
      "--fail-if-worse",
      "--margin",
      "0.02",
      ...fast,
      "--json",
    ]);
    const out = JSON.parse(r.stdout);
    expectValid(out, "compare");
    expect(out.gate.adjustment).toBe("holm");
    expect(out.gate.checks.map((c: any) => [c.metric, c.candidate])).toEqual([
      ["hit5", "tfidf"],
      ["rr", "tfidf"],
    ]);
    expect(r.code).toBe(out.gate.exitCode);
    expect(out.gate.failed).toBe(out.gate.checks.some((c: any) => c.fails));
  });

  it("values too large to sum exactly: summed in query-id order, and the schema says so", () => {
    // 1e11-sized latencies: Σx² overflows the exact DECIMAL sums, so the pairs are summed as
    // doubles in query-id order (summation "double-query-order").
    const lines = ["doc_id,query_id,system,latency"];
    let q = 0;
    for (let d = 0; d < 30; d++) {
      for (let j = 0; j < 4; j++) {
        q++;
        for (const [i, y] of ["a", "b"].entries()) {
          lines.push(`d${d},q${q},${y},${1e11 * (1 + ((d * 7 + j * 3 + i) % 5))}`);
        }
      }
    }
    const file = join(dir, "large-values.csv");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const out = ragciJson([
      "compare",
      file,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "latency",
      ...fast,
    ]);
    expect(out.summation).toBe("double-query-order");
    expectValid(out, "compare");
  });

  it("--require-noninferior on one metric: one check, no adjustment", () => {
    const r = ragci([
      "compare",
      ...covid("--system", "system", "--metric", "hit5", "--baseline", "bm25"),
      "--require-noninferior",
      "--margin",
      "0.5",
      ...fast,
      "--json",
    ]);
    const out = JSON.parse(r.stdout);
    expectValid(out, "compare");
    expect(out.gate.adjustment).toBe("none");
    expect(r.code).toBe(out.gate.exitCode);
  });
});

describe("plan, strata and simulate --json follow their schemas", () => {
  it("plan: S given, a paired plan, and a census with a size-stratified plan", () => {
    const given = ragciJson([
      "plan",
      "--sd",
      "0.224",
      "--population",
      "1300",
      "--half-width",
      "0.05",
    ]);
    expectValid(given, "plan");
    expect(given.estimands.map((e: any) => e.estimand)).toEqual(["macro", "micro"]);
    expectValid(ragciJson(["plan", "--sd-micro", "0.18", "--difference", "0.03"]), "plan");
    const census = ragciJson([
      "plan",
      ...covid("--census", "--metric", "hit5", "--system", "system=bm25"),
      "--half-width",
      "0.05",
      "--cutoff",
      "20",
    ]);
    expectValid(census, "plan");
    expect(census.stratified).not.toBeNull();
  });

  it("strata: proposed cutoff, and a written sample", () => {
    expectValid(
      ragciJson([
        "strata",
        ...covid("--metric", "hit5", "--system", "system=bm25"),
        "--documents",
        "30",
      ]),
      "strata",
    );
    const sample = join(dir, "sample.csv");
    const out = ragciJson([
      "strata",
      CENSUS,
      "--aggregated",
      "--documents",
      "20",
      "--write-sample",
      sample,
    ]);
    expectValid(out, "strata");
    expect(out.sample).toBe(sample);
  });

  it("simulate: one system, and a pair's differences", () => {
    const study = ["--k", "10,20", "--reps", "40", "--replicates", "0", "--workers", "1"];
    expectValid(ragciJson(["simulate", CENSUS, "--aggregated", ...study]), "simulate");
    const paired = ragciJson([
      "simulate",
      ...covid("--metric", "hit5", "--system", "system=bm25,tfidf"),
      ...study,
    ]);
    expectValid(paired, "simulate");
    expect(paired.census.pair).toEqual({ a: "bm25", b: "tfidf" });
  });
});

describe("the schemas catch drift", () => {
  // a margin of 0.5 passes the gate: exit 0, and a gate in the JSON
  const out = ragciJson([
    "compare",
    ...covid("--system", "system", "--metric", "hit5", "--baseline", "bm25"),
    "--fail-if-worse",
    "--margin",
    "0.5",
    ...fast,
  ]);
  const validate = ajv.getSchema("ragci/schemas/compare.v2.json");
  const drifted = (change: (o: Record<string, any>) => void) => {
    const copy = structuredClone(out);
    change(copy);
    return validate?.(copy);
  };

  it("refuses an added key, a dropped key, a renamed key and a wrong type, at any depth", () => {
    expect(validate?.(out)).toBe(true);
    expect(drifted((o) => Object.assign(o, { extra: 1 }))).toBe(false);
    expect(drifted((o) => delete o.comparisons[0].difference.micro.intervals.cr2.se)).toBe(false);
    expect(
      drifted((o) => {
        o.gate.checks[0].adjusted = o.gate.checks[0].adjustedP;
        delete o.gate.checks[0].adjustedP;
      }),
    ).toBe(false);
    expect(drifted((o) => (o.comparisons[0].a.diagnostics.deff = "1.2"))).toBe(false);
    expect(drifted((o) => (o.schema = "ragci.comparisons/1"))).toBe(false);
  });

  it("refuses a method id ragci does not have, as the recommendation, an interval or a test", () => {
    const interval = out.comparisons[0].difference.micro.intervals.cr2;
    expect(drifted((o) => (o.comparisons[0].difference.micro.recommended = "banana"))).toBe(false);
    expect(drifted((o) => (o.comparisons[0].difference.micro.intervals.banana = interval))).toBe(
      false,
    );
    expect(drifted((o) => (o.comparisons[0].tests.micro.method = "banana"))).toBe(false);
    expect(drifted((o) => (o.gate.checks[0].test.method = "banana"))).toBe(false);
  });

  it("refuses an advice code ragci does not write", () => {
    expect(drifted((o) => (o.comparisons[0].difference.advice[0].code = "banana"))).toBe(false);
    expect(drifted((o) => (o.comparisons[0].a.advice[0].code = "paired-study"))).toBe(false);
  });

  it("the schemas' method ids are ragci's, every one of them", () => {
    const definitions = JSON.parse(readFileSync(join(SCHEMAS, "definitions.v2.json"), "utf8"));
    expect([...definitions.$defs.methodId.enum].sort()).toEqual(Object.keys(METHODS).sort());
  });

  it("the schemas' advice codes are core's ADVICE_CODES, every one of them", () => {
    const definitions = JSON.parse(readFileSync(join(SCHEMAS, "definitions.v2.json"), "utf8"));
    expect([...definitions.$defs.advice.properties.code.enum].sort()).toEqual(
      [...ADVICE_CODES].sort(),
    );
  });

  it("the /1 shape (one metric at the top level) is not v2", () => {
    const analyze = ajv.getSchema("ragci/schemas/analyze.v2.json");
    const v2 = ragciJson(["analyze", CENSUS, "--aggregated", "--replicates", "0"]);
    const { analyses, ...head } = v2;
    expect(analyze?.(v2)).toBe(true);
    expect(analyze?.({ ...head, ...analyses[0] })).toBe(false);
  });

  it("an analysis without its aggregates' SHA-256, and a study score with a key too many", () => {
    const analyze = ajv.getSchema("ragci/schemas/analyze.v2.json");
    const v2 = ragciJson(["analyze", CENSUS, "--aggregated", "--replicates", "0"]);
    const unsigned = structuredClone(v2);
    delete unsigned.analyses[0].aggregatesSha256;
    expect(analyze?.(unsigned)).toBe(false);
    const simulate = ajv.getSchema("ragci/schemas/simulate.v2.json");
    const study = ragciJson([
      "simulate",
      CENSUS,
      "--aggregated",
      ...["--k", "10", "--reps", "20", "--replicates", "0", "--workers", "1"],
    ]);
    expect(simulate?.(study)).toBe(true);
    const scores = structuredClone(study);
    scores.studies[0].methods["micro/cr2"].extra = 1;
    expect(simulate?.(scores)).toBe(false);
    const dropped = structuredClone(study);
    delete dropped.studies[0].methods["micro/cr2"].missBelow;
    expect(simulate?.(dropped)).toBe(false);
  });
});
