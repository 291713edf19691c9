import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { summarizeCensusStrata } from "../../src/core/designs/predictedStandardErrors.js";
import { sizeStrata } from "../../src/core/designs/sizeStrata.js";
import {
  type DocumentStats,
  documentStats,
  pilotStandardDeviations,
  requiredStratifiedDocuments,
  stratifiedHalfWidth,
} from "../../src/core/index.js";
import { requiredDocuments } from "../../src/core/planning/requiredDocuments.js";
import { requiredDocumentsToDetect } from "../../src/core/planning/requiredDocumentsToDetect.js";
import { EXAMPLE, FIXTURES, ragci, ragciJson, ragciOk, scratchDir } from "./runCli.js";

/** plan --json (v2): the plan of one estimand. */
const estimandOf = (out: Record<string, any>, estimand: string) =>
  out.estimands.find((e: { estimand: string }) => e.estimand === estimand);

/**
 * hit5 per document of the bundled example, summed here without DuckDB: BM25's, or the
 * per-query difference tfidf − bm25 paired on the query id.
 */
function bm25Hit5Census(difference = false): DocumentStats {
  const [header, ...rows] = readFileSync(EXAMPLE, "utf8").replace(/\r/g, "").trim().split("\n");
  const columns = (header as string).split(",");
  const doc = columns.indexOf("doc_id");
  const query = columns.indexOf("query_id");
  const system = columns.indexOf("system");
  const hit5 = columns.indexOf("hit5");
  const bm25 = new Map<string, number>();
  for (const row of rows) {
    const cells = row.split(",");
    if (cells[system] === "bm25") bm25.set(cells[query] as string, Number(cells[hit5]));
  }
  const totals = new Map<string, { n: number; s: number; ss: number }>();
  for (const row of rows) {
    const cells = row.split(",");
    if (cells[system] !== (difference ? "tfidf" : "bm25")) continue;
    const t = totals.get(cells[doc] as string) ?? { n: 0, s: 0, ss: 0 };
    const x = Number(cells[hit5]) - (difference ? (bm25.get(cells[query] as string) as number) : 0);
    t.n += 1;
    t.s += x;
    t.ss += x * x;
    totals.set(cells[doc] as string, t);
  }
  const ids = [...totals.keys()].sort();
  return documentStats({
    ids,
    n: ids.map((id) => totals.get(id)?.n as number),
    s: ids.map((id) => totals.get(id)?.s as number),
    ss: ids.map((id) => totals.get(id)?.ss as number),
  });
}

/** The bundled example's BM25 rows, hit@5. */
const BM25_HIT5 = [EXAMPLE, "--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25"];

describe("ragci plan", () => {
  it("--sd 0.224 --population 1300 --half-width 0.05 gives 76 documents, 80 without fpc (SPEC §7)", () => {
    const out = ragciJson([
      "plan",
      "--sd",
      "0.224",
      "--population",
      "1300",
      "--half-width",
      "0.05",
    ]);
    expect(out.schema).toBe("ragci/schemas/plan.v2.json");
    expect(estimandOf(out, "macro").documents).toBe(76);
    expect(estimandOf(out, "macro").documentsWithoutFpc).toBe(80);
    expect(estimandOf(out, "micro").documents).toBe(76);
    expect(estimandOf(out, "micro").curve.length).toBeGreaterThan(3);
  });

  it("--sd 0.412 gives 220 documents, 264 without fpc", () => {
    const out = ragciJson([
      "plan",
      "--sd-micro",
      "0.412",
      "--sd-macro",
      "0.224",
      "--population",
      "1300",
      "--half-width",
      "0.05",
    ]);
    expect([
      estimandOf(out, "micro").documents,
      estimandOf(out, "micro").documentsWithoutFpc,
    ]).toEqual([220, 264]);
    expect([
      estimandOf(out, "macro").documents,
      estimandOf(out, "macro").documentsWithoutFpc,
    ]).toEqual([76, 80]);
  });

  it("estimates S from a pilot file (one system) and warns that S is itself uncertain", () => {
    const out = ragciJson([
      "plan",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--half-width",
      "0.03",
      "--population",
      "1300",
    ]);
    expect(out.source).toMatchObject({ kind: "pilot", documents: 98 });
    expect(out.warnings[0]).toMatch(/S is estimated from a pilot of 98 documents/);
    // scipy: √(97/chi2.ppf(0.975, 97)) = 0.8769…, √(97/chi2.ppf(0.025, 97)) = 1.1636…
    expect(out.warnings[0]).toContain(
      "its 95% interval would run from 0.88× to 1.16× the estimate, and the planned K, which grows with S², from 0.77× to 1.35×",
    );
    expect(estimandOf(out, "macro").documents).toBe(
      requiredDocuments({ sd: estimandOf(out, "macro").sd, halfWidth: 0.03, population: 1300 }),
    );
  });

  it("takes M from a census file", () => {
    const file = join(FIXTURES, "rr10_scores.csv");
    const out = ragciJson(["plan", file, "--metric", "score", "--census", "--half-width", "0.1"]);
    expect(out.population).toBe(25);
    expect(out.source.kind).toBe("census");
    // rr10_scores reference: S_macro 0.21516984525720634 (numpy, ddof 1)
    expect(estimandOf(out, "macro").sd).toBeCloseTo(0.21516984525720634, 14);
    expect(estimandOf(out, "macro").documents).toBeLessThanOrEqual(25);
  });

  it("--census FILE names the census file, as analyze's --census does: the same plan as FILE --census", () => {
    const file = join(FIXTURES, "rr10_scores.csv");
    const request = ["--metric", "score", "--half-width", "0.1", "--json"];
    const named = ragciOk(["plan", "--census", file, ...request]);
    expect(named).toBe(ragciOk(["plan", file, "--census", ...request]));
    expect(JSON.parse(named).source.kind).toBe("census");
    const twice = ragci(["plan", EXAMPLE, "--census", file, ...request]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toBe(
      `ragci: --census ${file}: plan reads one file, here ${EXAMPLE} as well; give the census once: plan --census FILE, or plan FILE --census\n`,
    );
  });

  it("plans a paired comparison: documents to detect a difference with 80% power", () => {
    const out = ragciJson(["plan", "--sd", "0.18", "--difference", "0.03"]);
    expect(estimandOf(out, "macro").detect.documents).toBeGreaterThan(282);
    expect(estimandOf(out, "macro").detect.documents).toBeLessThan(290);
  });

  it.each([
    [["plan", "--half-width", "0.05"], /give S with --sd/],
    [["plan", "--sd", "0.2"], /give --half-width w/],
    [["plan", "--sd", "-1", "--half-width", "0.05"], /--sd -1: give a number ≥ 0/],
    [
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system", "--half-width", "0.05"],
      /2 systems in column system \(bm25, tfidf\); plan uses one: pick it with --system system=bm25/,
    ],
    [
      ["plan", EXAMPLE, "--metric", "hit5", "--half-width", "0.05"],
      /2 systems in column system \(bm25, tfidf\); plan uses one: pick it with --system system=bm25/,
    ],
    [
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system=bm26", "--half-width", "0.05"],
      /no system "bm26" in column system \(found bm25, tfidf\)/,
    ],
    [
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system=bm25,bm26", "--difference", "0.03"],
      // A pair's rows are read alone (as simulate's census and --from read them).
      /no system "bm26" in column system \(kept bm25\); check the names after "="/,
    ],
    [
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system=bm25,bm25", "--difference", "0.03"],
      /--system system=bm25,bm25: name each system once after "="/,
    ],
    [
      ["plan", EXAMPLE, "--system", "system=bm25,tfidf", "--difference", "0.03"],
      /a paired plan uses one metric: name it with --metric/,
    ],
    [
      ["plan", "--sd", "0.2", "--half-width", "0.05", "--cutoff", "20"],
      /--cutoff plans a stratified sample from a census: give the census file and --census/,
    ],
    [
      ["plan", ...BM25_HIT5, "--half-width", "0.05", "--cutoff", "20"],
      /give the census file and --census/,
    ],
    [
      ["plan", ...BM25_HIT5, "--census", "--difference", "0.05", "--cutoff", "20"],
      /--cutoff needs the target --half-width w/,
    ],
    [
      ["plan", ...BM25_HIT5, "--census", "--half-width", "0.05", "--cutoff", "10000"],
      /--cutoff 10000: the large stratum would hold no document; give a cutoff from the smallest size up to below the largest \(ragci strata proposes one\)/,
    ],
  ])("%j is a user error with one line and exit code 2", (args, message) => {
    const result = ragci(args as string[]);
    expect(result.stderr).toMatch(message as RegExp);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
    expect(result.code).toBe(2);
  });

  it("--cutoff plans a size-stratified sample from the census next to SRS", () => {
    const args = ["plan", ...BM25_HIT5, "--census", "--half-width", "0.05", "--cutoff", "20"];
    const out = ragciJson(args);
    const census = bm25Hit5Census();
    const strata = sizeStrata(census.n, 20);
    const N = census.n.reduce((a, b) => a + b, 0);
    expect(out.stratified.cutoff).toBe(20);
    expect(out.stratified.strata).toEqual(
      strata.map((h) => ({
        name: h.name,
        population: h.documents.length,
        shareOfResults: expect.closeTo(
          h.documents.reduce((t, d) => t + (census.n[d] as number), 0) / N,
          14,
        ),
      })),
    );
    const summary = summarizeCensusStrata(census, strata);
    for (const estimand of ["macro", "micro"] as const) {
      const plan = out.stratified[estimand];
      expect(plan.srsDocuments).toBe(estimandOf(out, estimand).documents);
      expect(plan.srsHalfWidth).toBeLessThanOrEqual(0.05);
      expect(plan.allocations.map((a: { rule: string }) => a.rule)).toEqual([
        "equal",
        "proportional",
        "neyman",
      ]);
      for (const a of plan.allocations) {
        const K = requiredStratifiedDocuments({ summary, rule: a.rule, estimand, halfWidth: 0.05 });
        expect(a.documents).toBe(K);
        expect(a.sampled.large + a.sampled.small).toBe(K);
        expect(a.halfWidth).toBeLessThanOrEqual(0.05);
        expect(a.df).toBe(K - 2);
        const atSrs = stratifiedHalfWidth({
          summary,
          rule: a.rule,
          estimand,
          documents: plan.srsDocuments,
        });
        expect(a.atSrsDocuments.halfWidth).toBe(atSrs.halfWidth);
        expect(a.atSrsDocuments.df).toBe(plan.srsDocuments - 2);
      }
    }
    // On COVID-QA the large documents hold most results: Neyman on micro needs fewer documents.
    const micro = out.stratified.micro.allocations;
    expect(micro[2].documents).toBeLessThan(estimandOf(out, "micro").documents);

    const terminal = ragci(args);
    expect(terminal.code).toBe(0);
    expect(terminal.stdout).toMatch(/stratified by size at cutoff 20: large \d+ documents/);
    expect(terminal.stdout).toMatch(/neyman\s+\d+\s+\d+ \+ \d+\s+0\.\d{4}/);
  });

  it("--system COL=A,B plans a paired comparison from the pilot's per-document differences", () => {
    const out = ragciJson([
      "plan",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system=bm25,tfidf",
      "--difference",
      "0.03",
      "--population",
      "1300",
    ]);
    const s = pilotStandardDeviations(bm25Hit5Census(true));
    expect(out.source.difference).toEqual({ a: "bm25", b: "tfidf", metric: "hit5" });
    expect(estimandOf(out, "macro").sd / s.macro).toBeCloseTo(1, 13);
    expect(estimandOf(out, "micro").sd / s.micro).toBeCloseTo(1, 13);
    // The paired S is far below one system's: pairing is what makes small differences visible.
    expect(estimandOf(out, "macro").sd).toBeLessThan(
      0.5 * pilotStandardDeviations(bm25Hit5Census()).macro,
    );
    // The macro ν is that of t-differing: the share of the pilot's documents that differ.
    const differences = bm25Hit5Census(true);
    const differing = [...differences.s].filter((x) => x !== 0).length;
    expect(differing).toBe(39);
    expect(estimandOf(out, "macro").detect.documents).toBe(
      requiredDocumentsToDetect({
        sd: estimandOf(out, "macro").sd,
        difference: 0.03,
        power: 0.8,
        population: 1300,
        differingShare: differing / differences.n.length,
      }),
    );
    expect(out.warnings.join(" ")).toContain("39 of the 98 documents of the pilot differ");
    expect(out.warnings.join(" ")).not.toMatch(/one system's results/);
  });

  it("warns when a paired plan takes S from one system of several", () => {
    const out = ragciJson(["plan", ...BM25_HIT5, "--difference", "0.03"]);
    expect(out.warnings.join("\n")).toMatch(
      /S is of one system's results \(system=bm25\), not of a per-document difference.*--system system=A,B/,
    );
  });

  it("agrees with pilotStandardDeviations on the same per-document table", () => {
    const dir = scratchDir();

    const file = join(dir, "pilot.csv");
    writeFileSync(file, "doc,n,s\na,4,1\nb,10,7\nc,3,3\nd,8,2\n");
    const out = ragciJson(["plan", file, "--aggregated", "--half-width", "0.2"]);
    const s = pilotStandardDeviations(
      documentStats({ ids: ["a", "b", "c", "d"], n: [4, 10, 3, 8], s: [1, 7, 3, 2] }),
    );
    expect(estimandOf(out, "macro").sd).toBe(s.macro);
    expect(estimandOf(out, "micro").sd).toBe(s.micro);
  });
});
