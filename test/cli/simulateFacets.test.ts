/**
 * `ragci simulate --judge/--trial/--variant`: a coverage study of evaluations drawn from a
 * faceted pilot's components, on the COVID-QA judges example (three fixed-threshold judges of
 * BM25's and TF-IDF's answers; examples/covidqa-judges.csv).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  facetModelComponents,
  logitNormalFromComponents,
} from "../../src/core/simulation/facetModel.js";
import { UNREACHED_TOLERANCE } from "../../src/core/simulation/unreachedComponents.js";
import { ROOT, ragci, scratchDir } from "./runCli.js";
import { ajv } from "./schemaValidator.js";

const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
const PILOT = ["--doc", "doc_id", "--query", "query_id", "--metric", "found"];
const BM25 = [...PILOT, "--system", "system=bm25"];
const SMALL = ["--k", "6,12", "--reps", "4", "--seed", "7"];
const dir = scratchDir();

describe("simulate with facets", () => {
  it("the COVID-QA judges pilot: every interval, its estimand and model, valid --json", () => {
    const run = ragci(["simulate", JUDGES, ...BM25, "--judge", "judge", ...SMALL, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const validate = ajv.getSchema("ragci/schemas/simulate.v2.json");
    expect(validate?.(out)).toBe(true);
    expect(validate?.errors ?? []).toEqual([]);
    expect(out.truth).toBeUndefined();
    expect(out.census).toMatchObject({ system: "bm25", metric: "found", documents: 98 });
    const f = out.facets;
    // The pilot's fit as read, counted from the file's BM25 rows: each (query, judge) one 0/1 result.
    const rows = readFileSync(JUDGES, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((r) => r.split(","));
    const bm25 = rows.filter((r) => r[2] === "bm25");
    expect(f.pilot.levels).toEqual({
      documents: new Set(bm25.map((r) => r[0])).size,
      queries: new Set(bm25.map((r) => `${r[0]}/${r[1]}`)).size,
      judges: new Set(bm25.map((r) => r[3])).size,
      variants: 0,
      cells: bm25.length,
      observations: bm25.length,
    });
    // The REML intercept is a GLS mean (documents have different numbers of questions): near,
    // not equal to, the rows' mean.
    const mean = bm25.reduce((t, r) => t + Number(r[4]), 0) / bm25.length;
    expect(Math.abs(f.pilot.mean - mean)).toBeLessThan(0.03);
    // 0/1 outcomes: the logit-normal model, whose truth is the pilot's mean.
    expect(f.model.kind).toBe("logit-normal");
    expect(f.truth).toBeCloseTo(f.pilot.mean, 6);
    expect(f.estimand).toContain("judges drawn afresh");
    expect(f.studies.map((s: any) => s.design)).toEqual([
      { documents: 6, queries: 14, trials: 1, judges: 3, variants: 1 },
      { documents: 12, queries: 14, trials: 1, judges: 3, variants: 1 },
    ]);
    for (const s of f.studies) {
      expect(s.reps).toBe(4);
      expect(s.recommended).toBe("population");
      for (const k of ["population", "reml", "spread", "fixed"]) {
        expect(s.intervals[k].coverage).toBeGreaterThanOrEqual(0);
        expect(s.intervals[k].meanWidth).toBeGreaterThan(0);
      }
    }
    // A seed fixes the study.
    const again = ragci(["simulate", JUDGES, ...BM25, "--judge", "judge", ...SMALL, "--json"]);
    expect(JSON.parse(again.stdout).facets).toEqual(f);
  }, 180_000);

  it("a component the logit-normal model cannot reach is said in a note: TF-IDF's documentJudge, none of BM25's", () => {
    const EFFECTS = ["document", "query", "judge", "documentJudge"] as const;
    const noted = (system: string) => {
      const args = [...PILOT, "--system", `system=${system}`, "--judge", "judge"];
      const run = ragci(["simulate", JUDGES, ...args, "--k", "6", "--reps", "2", "--json"]);
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout);
      const validate = ajv.getSchema("ragci/schemas/simulate.v2.json");
      expect(validate?.(out)).toBe(true);
      expect(validate?.errors ?? []).toEqual([]);
      const f = out.facets;
      // The library's calibration, redone from the pilot's REML mean and components.
      const model = logitNormalFromComponents(f.pilot.mean, f.pilot.components);
      const implied = facetModelComponents(model);
      for (const k of EFFECTS) expect(f.modelComponents[k]).toBeCloseTo(implied[k] as number, 12);
      const missed = EFFECTS.filter((k) => {
        const gap = Math.abs((implied[k] as number) - f.pilot.components[k]);
        return (
          gap > UNREACHED_TOLERANCE.relative * f.pilot.components[k] &&
          gap > UNREACHED_TOLERANCE.absolute
        );
      });
      const notes = out.notes.filter((n: string) => n.includes("component of the logit-normal"));
      return { f, implied, missed, notes };
    };
    const tfidf = noted("tfidf");
    expect(tfidf.missed).toEqual(["documentJudge"]);
    expect(tfidf.notes).toHaveLength(1);
    const model = (tfidf.implied.documentJudge as number).toPrecision(3);
    const pilot = (tfidf.f.pilot.components.documentJudge as number).toPrecision(3);
    expect(tfidf.notes[0]).toContain(
      `the document × judge component of the logit-normal model is ${model} where the pilot's REML gives ${pilot}`,
    );
    // Above the pilot's: the logistic curve's interaction, with the study's estimand the model's.
    expect(tfidf.implied.documentJudge).toBeGreaterThan(tfidf.f.pilot.components.documentJudge);
    expect(tfidf.notes[0]).toContain("the logistic curve makes the effects interact");
    expect(tfidf.notes[0]).toContain("its estimand is the model's mean");
    const bm25 = noted("bm25");
    expect(bm25.missed).toEqual([]);
    expect(bm25.notes).toEqual([]);
    // The terminal report shows the note.
    const text = ragci([
      "simulate",
      JUDGES,
      ...PILOT,
      "--system",
      "system=tfidf",
      "--judge",
      "judge",
      "--k",
      "6",
      "--reps",
      "2",
    ]);
    expect(text.code).toBe(0);
    expect(text.stdout.replace(/\s+/g, " ")).toContain(
      `the document × judge component of the logit-normal model is ${model}`,
    );
    // Components by the names every report gives them, in the model's line and the table.
    expect(text.stdout).toMatch(
      /logit-scale sd document [\d.]+, query within document [\d.]+, judge [\d.]+, document × judge [\d.]+/,
    );
    expect(text.stdout).toMatch(/^ {2}document × judge +\d/m);
    expect(text.stdout).not.toContain("documentJudge");
  }, 180_000);

  it("a pair (BM25 vs TF-IDF): the difference's study from both systems' and the difference's fits, valid --json", () => {
    const PAIR = [...PILOT, "--system", "system=bm25,tfidf", "--judge", "judge"];
    const args = ["simulate", JUDGES, ...PAIR, "--k", "8", "--reps", "3", "--seed", "7"];
    const run = ragci([...args, "--json"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    const validate = ajv.getSchema("ragci/schemas/simulate.v2.json");
    expect(validate?.(out)).toBe(true);
    expect(validate?.errors ?? []).toEqual([]);
    expect(out.census).toMatchObject({ pair: { a: "bm25", b: "tfidf" }, metric: "found" });
    const f = out.facets;
    expect(f.pair.a).toBe("bm25");
    expect(f.pair.b).toBe("tfidf");
    expect(f.pair.unmatched).toEqual({ a: 0, b: 0 });
    // 0/1 outcomes: the paired logit-normal model.
    expect(f.model.kind).toBe("paired-logit-normal");
    // Recomputed from the file: each system's rows, and the difference paired on (doc, query, judge).
    const rows = readFileSync(JUDGES, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((r) => r.split(","));
    const value = new Map(rows.map((r) => [`${r[2]}/${r[0]}/${r[1]}/${r[3]}`, Number(r[4])]));
    const bm25 = rows.filter((r) => r[2] === "bm25");
    for (const [system, fit] of [
      ["bm25", f.pair.pilots.a],
      ["tfidf", f.pair.pilots.b],
    ]) {
      const own = rows.filter((r) => r[2] === system);
      expect(fit.levels.cells).toBe(own.length);
      const mean = own.reduce((t, r) => t + Number(r[4]), 0) / own.length;
      expect(Math.abs(fit.mean - mean)).toBeLessThan(0.03);
    }
    expect(f.pilot.levels.cells).toBe(bm25.length);
    const differences = bm25.map(
      (r) => (value.get(`tfidf/${r[0]}/${r[1]}/${r[3]}`) as number) - Number(r[4]),
    );
    const meanDifference = differences.reduce((t, d) => t + d, 0) / differences.length;
    expect(Math.abs(f.pilot.mean - meanDifference)).toBeLessThan(0.01);
    // The truth is the paired REML mean; each component of the difference the pilot's unless
    // the notes say it is clipped.
    expect(f.truth).toBeCloseTo(f.pilot.mean, 9);
    const clipped = out.notes.find((n: string) => n.includes("disagree beyond")) ?? "";
    for (const [k, v] of Object.entries(f.pilot.components) as [string, number][])
      if (!clipped.includes(k)) expect(f.modelComponents[k]).toBeCloseTo(v, 6);
    expect(out.notes.some((n: string) => n.startsWith("0/1 metric simulated"))).toBe(false);
    // TF-IDF's own model cannot reach its documentJudge component (its one-system note, for a
    // model calibrated to the pair's mean), and the clipping note names that floor; BM25's can.
    const own = (system: string) =>
      out.notes.filter((n: string) => n.includes(`component of ${system}'s own logit-normal`));
    expect(own("tfidf")).toHaveLength(1);
    expect(own("tfidf")[0]).toContain("the document × judge component of tfidf's own logit-normal");
    expect(own("bm25")).toEqual([]);
    expect(clipped).toContain(
      "tfidf's own model cannot reach its pilot's document × judge component",
    );
    expect(f.studies).toHaveLength(1);
    const s = f.studies[0];
    expect(s.design).toEqual({ documents: 8, queries: 14, trials: 1, judges: 3, variants: 1 });
    expect(s.truth).toBe(f.truth);
    expect(s.recommended).toBe("population");
    for (const k of ["population", "reml", "spread", "fixed"])
      expect(s.intervals[k].meanWidth).toBeGreaterThan(0);
    // A seed fixes the study.
    expect(JSON.parse(ragci([...args, "--json"]).stdout).facets).toEqual(f);
    const text = ragci(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("systems tfidf − bm25 (paired)");
    expect(text.stdout).toContain("Generating model: paired logit-normal for a 0/1 metric");
    expect(text.stdout).toContain("tfidf − bm25 (REML)");
    expect(text.stdout).toContain("population of judges: union of the two below (recommended)");
  }, 180_000);

  it("the terminal table names the estimand, the generating model and every interval", () => {
    const run = ragci(["simulate", JUDGES, ...BM25, "--judge", "judge", "--k", "6", "--reps", "3"]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      "Estimand: the mean over the populations of documents, queries, judges",
    );
    expect(run.stdout).toContain("Generating model: logit-normal for a 0/1 metric");
    for (const label of [
      "population of judges: union of the two below (recommended)",
      "REML, Satterthwaite ν as lmerTest",
      "CR2 + spread of the judges' means, Satterthwaite ν",
      "these judges only: documents, CR2",
    ])
      expect(run.stdout).toContain(label);
    expect(run.stdout).toMatch(/D = 6/);
  }, 120_000);

  it("reruns only: the document-level interval alone, recommended; the fit adds the trial noise", () => {
    // The three judges read as three reruns of each query (a rerun facet, nested in queries).
    const run = ragci([
      "simulate",
      JUDGES,
      ...BM25,
      "--trial",
      "judge",
      "--k",
      "6",
      "--reps",
      "3",
      "--json",
    ]);
    expect(run.code).toBe(0);
    const f = JSON.parse(run.stdout).facets;
    expect(f.studies[0].design).toEqual({
      documents: 6,
      queries: 14,
      trials: 3,
      judges: 1,
      variants: 1,
    });
    expect(f.studies[0].recommended).toBe("fixed");
    for (const k of ["population", "reml", "spread"]) expect(f.studies[0].intervals[k]).toBeNull();
    expect(Object.keys(f.pilot.components).sort()).toEqual(["document", "query", "residual"]);
    const text = ragci([
      "simulate",
      JUDGES,
      ...BM25,
      "--trial",
      "judge",
      "--k",
      "6",
      "--reps",
      "3",
    ]);
    expect(text.stdout).toContain("documents, CR2 (each query's reruns averaged) (recommended)");
    expect(text.stdout).not.toContain("population of");
  }, 120_000);

  it("refuses in one line (exit 2): one judge, no facet, a census-study flag", () => {
    const rows = readFileSync(JUDGES, "utf8").trim().split("\n");
    const strict = join(dir, "strict.csv");
    writeFileSync(
      strict,
      `${[rows[0], ...rows.slice(1).filter((r) => r.split(",")[3] === "strict")].join("\n")}\n`,
    );
    const cases: [string[], RegExp][] = [
      [[strict, ...BM25, "--judge", "judge"], /one judge \(strict\).*at least two/],
      [[strict, ...BM25, "--trial", "judge"], /no facet beyond documents and queries/],
      [[JUDGES, ...BM25, "--judge", "judge", "--fpc"], /--fpc is for a census study/],
      [[JUDGES, ...BM25, "--judge", "judge", "--psu", "topic"], /--psu is for a census study/],
      [[JUDGES, ...BM25, "--judge", "judge", "--cutoff", "20"], /--cutoff is for a census study/],
      [[JUDGES, ...BM25, "--judge", "judge", "--workers", "2"], /--workers is for a census study/],
      [
        [JUDGES, ...BM25, "--judge", "judge", "--sampling", "stratified"],
        /--sampling is for a census study/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = ragci(["simulate", ...args, "--reps", "2"]);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).toMatch(message);
    }
  }, 180_000);
});
