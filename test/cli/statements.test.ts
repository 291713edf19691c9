/**
 * Issue 11: every message is true of the data it is printed for. Each test builds the data
 * a statement was once wrong for and checks what is said now (and what is not).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  EXAMPLE,
  FIXTURES,
  onlyAnalysis,
  ragci,
  ragciJson,
  ragciOk,
  scratchDir,
} from "./runCli.js";

const dir = scratchDir();
const TWO_STAGE = join(FIXTURES, "two_stage_types.csv");
const TWO_STAGE_DESIGN = join(FIXTURES, "two_stage_types.design.json");
const K5 = join(FIXTURES, "k5_binary.csv");

function file(name: string, contents: string): string {
  const path = join(dir, name);
  writeFileSync(path, contents);
  return path;
}

describe("under a design every interval and line of advice follows the design", () => {
  const args = ["analyze", TWO_STAGE, "--metric", "score", "--design", TWO_STAGE_DESIGN];

  it("the logit interval is built on the design's estimate, se and ν", () => {
    const out = onlyAnalysis(ragciJson(args));
    for (const e of ["micro", "macro"]) {
      const design = out[e].intervals["two-stage"];
      const logit = out[e].intervals.logit;
      expect(logit.df).toBe(design.df);
      expect(logit.se).toBe(design.se);
      const p = out[e].estimate;
      expect(logit.seLogit).toBeCloseTo(design.se / (p * (1 - p)), 14);
      // expit(logit p ± q·se_L) with the design's q.
      const logitP = Math.log(p / (1 - p));
      const expit = (x: number) => 1 / (1 + Math.exp(-x));
      expect(logit.lower).toBeCloseTo(expit(logitP - design.q * logit.seLogit), 14);
    }
  });

  it("the document bootstraps are marked not valid under it", () => {
    const out = onlyAnalysis(ragciJson(args));
    for (const method of ["bootstrap-t", "bootstrap-percentile"]) {
      expect(out.micro.intervals[method].available).toBe(false);
      expect(out.micro.intervals[method].reason).toMatch(/not valid under the two-stage design/);
    }
  });

  it("the advice does not recommend the SRS intervals", () => {
    const text = ragciOk(args);
    expect(text).not.toMatch(/for micro use cr2/);
    expect(text).not.toMatch(/cr2 ν = .* is far below/);
    expect(text).toMatch(
      /design ν = 3: a design-based t interval with so few documents is approximate/,
    );
  });
});

describe("quoted coverages say their conditions and where to read more", () => {
  it("cites the method guide's page with K = 20 and the census, never SPEC", () => {
    const text = ragciOk([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--replicates",
      "0",
    ]);
    expect(text).toMatch(
      /at K = 20 it covered 92\.5%–93\.9% of 95% on censuses with heavy log-normal size tails.* on a power-law census it covered 79\.1% at K = 20 and as little as 75\.9% at K = 50.* on the bundled synthetic census it covered 97\.2% ± 0\.4 at 1\.21× the width of cr2 \(which covered 88\.8%\).*\(ragci's studies: SRS of K = 20 of 1,300 documents, 2,000 repetitions, Monte Carlo se about 0\.5 points; docs\/choosing-an-interval\.md\)/,
    );
    expect(text).not.toMatch(/SPEC/);
    expect(
      readFileSync(join(import.meta.dirname, "../../docs/choosing-an-interval.md"), "utf8"),
    ).toMatch(/^# Choosing an interval/m);
  });

  it("no command's --help cites SPEC", () => {
    for (const command of ["analyze", "compare", "plan", "strata"])
      expect(ragci([command, "--help"]).stdout).not.toMatch(/SPEC/);
  });
});

describe("statements true of the data", () => {
  it("the logit row's se is on the estimate's scale; the Markdown ν of bootstrap rows is empty", () => {
    const out = onlyAnalysis(ragciJson(["analyze", K5, "--metric", "score"]));
    expect(out.micro.intervals.logit.se).toBe(out.micro.intervals.cr2.se);
    const markdown = ragciOk(["analyze", K5, "--metric", "score", "--markdown"]);
    const bootstrapRow = markdown.split("\n").find((l) => l.includes("| bootstrap-t |")) as string;
    expect(bootstrapRow.trim().endsWith("|  |")).toBe(true);
    expect(markdown).not.toMatch(/\| bootstrap-t \|.*\| z \|/);
    expect(markdown).toMatch(/logit \(built on the logit scale; se on the estimate's\)/);
  });

  it("a score (RR) is a mean, not a rate, and its differences are not percentage points", () => {
    const text = ragciOk([
      "analyze",
      EXAMPLE,
      "--metric",
      "rr",
      "--system",
      "system=bm25",
      "--replicates",
      "0",
    ]);
    expect(text).toMatch(/metric rr \(score in \[0, 1\], observed 0 to 1\.00\)/);
    expect(text).toMatch(/mean of a random result/);
    expect(text).not.toMatch(/\brate\b/);
    const compared = ragciOk([
      "compare",
      EXAMPLE,
      "--system",
      "system",
      "--metric",
      "rr",
      "--replicates",
      "0",
    ]);
    expect(compared).not.toMatch(/points|percentage/);
    const hits = ragciOk([
      "compare",
      EXAMPLE,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--replicates",
      "0",
    ]);
    expect(hits).toMatch(/-4\.13 points/);
  });

  it("two documents of equal size are not a dominant document", () => {
    const text = ragciOk([
      "analyze",
      file("eq2.csv", "doc,hit\na,1\na,0\nb,1\nb,1\n"),
      "--metric",
      "hit",
    ]);
    expect(text).not.toMatch(/holds 50\.0% of all results/);
  });

  it("all values equal: no logit recommended, no method advice", () => {
    const text = ragciOk([
      "analyze",
      file("all1.csv", "doc,hit\na,1\na,1\nb,1\nc,1\nc,1\nc,1\n"),
      "--metric",
      "hit",
    ]);
    expect(text).toMatch(
      /Every document has the same rate, so the document-level standard error is 0/,
    );
    expect(text).not.toMatch(/logit interval keeps|logit interval stays/);
    expect(text).not.toMatch(/cr2 is the least bad|for micro use cr2/);
    // No document moves the estimate, so none is named as the one that does.
    expect(text).toContain(
      "influence   leaving out any one document leaves the micro estimate as it is",
    );
    expect(text).not.toMatch(/influence {3}without /);
  });

  it("--population = K (a census) does not call 95% optimistic", () => {
    const text = ragciOk(["analyze", K5, "--metric", "score", "--population", "5"]);
    expect(text).not.toMatch(/optimistic|least bad/);
    expect(text).toMatch(/K = M: every document of the population is in the sample/);
  });

  it("compare's per-system intervals say why they are not bootstrapped", () => {
    const out = ragciJson(["compare", EXAMPLE, "--system", "system", "--metric", "hit5"]);
    expect(out.comparisons[0].a.micro.intervals["bootstrap-t"].reason).toMatch(
      /not run for each system on its own: ragci compare resamples the per-document differences/,
    );
    expect(JSON.stringify(out)).not.toMatch(/B = 0/);
  });

  it("--intersect reports the file's rows, and how many queries it kept", () => {
    const [head, ...rows] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const kept = rows.filter((r, i) => !(r.split(",")[2] === "tfidf" && i % 10 === 0));
    const path = file("partial.csv", `${head}\n${kept.join("\n")}\n`);
    const out = ragciJson([
      "compare",
      path,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--intersect",
      "--replicates",
      "0",
    ]);
    expect(out.inputs[0].rows).toBe(kept.length);
    expect(out.queries).toBeLessThan(1380);
    expect(out.dropped.bm25).toBe(1380 - out.queries);
  });
});

describe("the input, as read", () => {
  it("prints the metric's kind and observed range in the header and JSON", () => {
    expect(ragciOk(["analyze", K5, "--metric", "score"])).toMatch(/metric score \(0\/1\)/);
    const scores = file("scores.csv", "doc,score\na,2.5\na,3\nb,17\nc,4\n");
    expect(ragciOk(["analyze", scores, "--metric", "score"])).toMatch(
      /metric score \(score, observed 2\.50 to 17\.0\)/,
    );
    const out = onlyAnalysis(ragciJson(["analyze", scores, "--metric", "score"]));
    expect(out.metricKind).toBe("score");
    expect(out.observedRange).toEqual({ min: 2.5, max: 17 });
  });

  it("a 0/1 column with one 2 is warned about, naming the line", () => {
    const rows = ["doc,hit"];
    for (let i = 0; i < 300; i++) rows.push(`d${i % 30},${i === 41 ? 2 : i % 3 === 0 ? 1 : 0}`);
    const path = file("typo.csv", `${rows.join("\n")}\n`);
    const text = ragciOk(["analyze", path, "--metric", "hit", "--replicates", "0"]);
    expect(text).toMatch(
      /typo\.csv line 43: column hit is 0\/1 in all but 1 of 300 rows, so it is analysed as a score/,
    );
    expect(ragciJson(["analyze", path, "--metric", "hit", "--replicates", "0"]).notes).toHaveLength(
      1,
    );
  });

  it("ids that differ only by surrounding spaces are warned about", () => {
    const path = file("spaces.csv", 'doc,hit\na,1\n" a",0\nb,1\nc,0\n');
    expect(ragciOk(["analyze", path, "--metric", "hit"])).toMatch(
      /column doc has ids that differ only by surrounding spaces \(" a" and "a"\)/,
    );
  });

  it("a repeated query id is warned about; one query per system is not", () => {
    const path = file("repeat.csv", "doc,query_id,hit\na,q1,1\na,q1,1\nb,q2,0\nc,q3,1\n");
    expect(ragciOk(["analyze", path, "--metric", "hit"])).toMatch(
      /query id q1 appears 2 times in column query_id/,
    );
    const clean = ragciOk([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system",
      "--replicates",
      "0",
    ]);
    expect(clean).not.toMatch(/appears \d+ times/);
  });

  it("values too large for exact decimal sums fall back to double sums and say so", () => {
    const rows = ["doc,score"];
    for (let i = 0; i < 60; i++) rows.push(`d${i % 12},${(1 + ((i * 7919) % 13)) * 3.7e10}`);
    const path = file("big.csv", `${rows.join("\n")}\n`);
    const out = ragciJson(["analyze", path, "--metric", "score", "--replicates", "0"]);
    expect(out.summation).toBe("double-single-thread");
    expect(onlyAnalysis(out).micro.estimate).toBeGreaterThan(1e10);
    expect(ragciOk(["analyze", path, "--metric", "score", "--replicates", "0"])).toMatch(
      /sums added in double precision on one thread/,
    );
  });
});

describe("plan says what it can and cannot plan", () => {
  it("S = 0 is warned about", () => {
    const text = ragciOk(["plan", "--sd", "0", "--half-width", "0.05"]);
    expect(text).toMatch(/S = 0 for macro and micro: .* cannot size anything/);
  });

  it("a pilot with no variation is warned about", () => {
    const rows = ["doc,hit"];
    for (let i = 0; i < 20; i++) rows.push(`d${i % 5},1`);
    const text = ragciOk([
      "plan",
      file("flat.csv", `${rows.join("\n")}\n`),
      "--metric",
      "hit",
      "--half-width",
      "0.05",
    ]);
    expect(text).toMatch(/S = 0 for macro and micro: the 5 documents of the pilot do not vary/);
  });

  it("with a finite population the answer is at most M, and says so", () => {
    const out = ragciJson(["plan", "--sd", "0.2", "--half-width", "1e-7", "--population", "1000"]);
    const [macro] = out.estimands;
    expect(macro.estimand).toBe("macro");
    expect(macro.documents).toBe(1000);
    expect(macro.documentsWithoutFpc).toBeNull();
    const text = ragciOk(["plan", "--sd", "0.2", "--half-width", "1e-7", "--population", "1000"]);
    expect(text).toMatch(/more than 10¹²/);
    expect(text).toMatch(/the answer is every document \(K = M = 1000\)/);
  });
});

describe("the same options everywhere", () => {
  it("analyze --system system=bm25 analyses BM25 alone, as a BM25-only file", () => {
    const [head, ...rows] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const only = file(
      "bm25.csv",
      `${head}\n${rows.filter((r) => r.split(",")[2] === "bm25").join("\n")}\n`,
    );
    const picked = ragciJson([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--replicates",
      "0",
    ]);
    const alone = ragciJson([
      "analyze",
      only,
      "--metric",
      "hit5",
      "--system",
      "system",
      "--replicates",
      "0",
    ]);
    expect(picked.analyses.map((a: any) => a.system)).toEqual(["bm25"]);
    expect(onlyAnalysis(picked).aggregatesSha256).toBe(onlyAnalysis(alone).aggregatesSha256);
    expect(onlyAnalysis(picked).micro).toEqual(onlyAnalysis(alone).micro);
  });

  it("compare --system system=bm25,tfidf is the comparison of those two", () => {
    const base = ["compare", EXAMPLE, "--metric", "hit5", "--replicates", "0"];
    const named = ragciJson([...base, "--system", "system=bm25,tfidf"]);
    const all = ragciJson([...base, "--system", "system"]);
    expect(named.comparisons).toEqual(all.comparisons);
  });

  it("every report command takes --json, --markdown and -o", () => {
    const commands = [
      ["analyze", EXAMPLE, "--metric", "hit5", "--system", "system=bm25", "--replicates", "0"],
      ["compare", EXAMPLE, "--metric", "hit5", "--system", "system", "--replicates", "0"],
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system=bm25", "--half-width", "0.05"],
      ["strata", EXAMPLE, "--metric", "hit5", "--system", "system=bm25", "--documents", "20"],
    ];
    for (const args of commands) {
      const name = args[0] as string;
      expect(JSON.parse(ragciOk([...args, "--json"])).schema).toBe(`ragci/schemas/${name}.v2.json`);
      expect(ragciOk([...args, "--markdown"])).toMatch(/^## ragci /);
      const out = join(dir, `${name}.md`);
      expect(ragciOk([...args, "--markdown", "-o", out])).toBe("");
      expect(readFileSync(out, "utf8")).toBe(ragciOk([...args, "--markdown"]));
    }
  });
});
