import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectClose } from "../expectClose.js";
import { sha256File } from "../support/sha256File.js";
import {
  analysisOf,
  EXAMPLE,
  FIXTURES,
  onlyAnalysis,
  ragci,
  ragciJson,
  scratchDir,
} from "./runCli.js";

const json = (args: string[], input?: string) =>
  ragciJson(args, input === undefined ? {} : { input });
/** The only analysis of a one-metric run. */
const one = (args: string[]) => onlyAnalysis(json(args));

const k5 = join(FIXTURES, "k5_binary.csv");
const expectedK5 = JSON.parse(readFileSync(join(FIXTURES, "k5_binary.expected.json"), "utf8"));
const dir = scratchDir();

describe("ragci analyze --json (SPEC §10)", () => {
  const report = json(["analyze", k5, "--metric", "score"]);
  const out = onlyAnalysis(report);

  it("has the stable top-level names and one analysis naming its metric", () => {
    expect(report.schema).toBe("ragci/schemas/analyze.v2.json");
    expect(report.level).toBe(0.95);
    expect([out.system, out.metric]).toEqual([null, "score"]);
    expect(out.documents).toBe(5);
    expect(out.results).toBe(110);
    expect(out.micro.estimate).toBeCloseTo(expectedK5.micro.estimate, 14);
    expect(out.macro.estimate).toBeCloseTo(expectedK5.macro.estimate, 14);
  });

  it("puts every interval under micro.intervals[METHOD] with lower, upper, se, df", () => {
    for (const method of ["cr2", "cr1", "wald-iid", "wald-effective-n", "logit"]) {
      const mine = out.micro.intervals[method];
      const ref = expectedK5.micro.intervals[method];
      for (const key of ["lower", "upper"]) expect(mine[key]).toBeCloseTo(ref[key], 12);
      // The fixture's logit se is on the logit scale (its note says so): ragci's seLogit.
      expect(method === "logit" ? mine.seLogit : mine.se).toBeCloseTo(ref.se, 12);
      // df: null for the normal-quantile intervals, else the fixture's (Satterthwaite for CR2).
      if (ref.df === null) expect(mine.df, method).toBeNull();
      else expect(mine.df, method).toBeCloseTo(ref.df, 12);
    }
    expect(out.macro.intervals.t.df).toBe(4);
    // A 0/1 metric: the bounded intervals ragci's studies recommend.
    expect(out.micro.recommended).toBe("logit-cv3");
    expect(out.macro.recommended).toBe("logit");
  });

  it("records the SHA-256 of the input file and of the per-document aggregates", () => {
    expect(report.inputs[0].sha256).toBe(expectedK5.data_sha256);
    expect(report.inputs[0].sha256).toBe(sha256File(k5));
    expect(out.aggregatesSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("carries the diagnostics and the K ≤ 5 advice", () => {
    expect(out.diagnostics.icc.value).toBeCloseTo(expectedK5.diagnostics.icc_anova, 12);
    expect(out.diagnostics.deff).toBeCloseTo(expectedK5.diagnostics.deff_kish, 12);
    expect(out.diagnostics.influence.micro[0]).toEqual({
      document: "d05",
      change: expect.closeTo(0.10104895104895112, 12),
    });
    expect(out.advice.map((a: { code: string }) => a.code)).toContain("very-few-documents");
  });

  it("is bit-identical across runs (deterministic sums)", () => {
    const again = ragci(["analyze", k5, "--metric", "score", "--json"]).stdout;
    expect(again).toBe(`${JSON.stringify(report, null, 2)}\n`);
  });
});

describe("formats and inputs", () => {
  const csv = json(["analyze", EXAMPLE, "--metric", "hit5,rr", "--system", "system"]);
  const strip = (o: Record<string, any>) => {
    const { inputs, command, ...rest } = o;
    return JSON.parse(JSON.stringify(rest, (k, v) => (k === "aggregatesFile" ? undefined : v)));
  };
  /**
   * Per-document input cannot resample the results of a real-valued metric (that needs the
   * per-query values): check it says so, then compare everything else.
   */
  const withoutRowBootstrap = (o: Record<string, any>) => {
    for (const analysis of o.analyses.filter((a: any) => a.metric === "rr")) {
      for (const estimand of ["micro", "macro"]) {
        const interval = analysis[estimand].intervals;
        if (interval["chunk-bootstrap"].available === false) {
          expect(interval["chunk-bootstrap"].reason).toMatch(/needs the per-query values/);
        }
        delete interval["chunk-bootstrap"];
      }
    }
    return o;
  };

  it("gives one analysis per system and metric", () => {
    expect(csv.analyses.map((a: any) => [a.system, a.metric])).toEqual([
      ["bm25", "hit5"],
      ["bm25", "rr"],
      ["tfidf", "hit5"],
      ["tfidf", "rr"],
    ]);
    // DATA.md: bm25 hit@5 0.7312, MRR 0.6117; tfidf hit@5 0.6899.
    expect(analysisOf(csv, "bm25", "hit5").micro.estimate).toBeCloseTo(0.7312, 4);
    expect(analysisOf(csv, "bm25", "rr").micro.estimate).toBeCloseTo(0.6117, 4);
    expect(analysisOf(csv, "tfidf", "hit5").micro.estimate).toBeCloseTo(0.6899, 4);
    expect(analysisOf(csv, "bm25", "hit5").documents).toBe(98);
    expect(analysisOf(csv, "bm25", "rr").binary).toBe(false);
  });

  it("resolves --metric hit@5 to the column hit5 and mrr to rr", () => {
    const loose = json(["analyze", EXAMPLE, "--metric", "hit@5,mrr", "--system", "system"]);
    expect(strip(loose)).toEqual(strip(csv));
  });

  it("reads TSV, JSONL and Parquet copies to the same analysis", async () => {
    const { DuckDBInstance } = await import("@duckdb/node-api");
    const db = await DuckDBInstance.create(":memory:");
    const c = await db.connect();
    const src = `read_csv('${EXAMPLE}', types = {'doc_id': 'VARCHAR'})`;
    await c.run(
      `COPY (SELECT * FROM ${src}) TO '${dir}/x.tsv' (FORMAT csv, DELIMITER '\t', HEADER)`,
    );
    await c.run(`COPY (SELECT * FROM ${src}) TO '${dir}/x.jsonl' (FORMAT json)`);
    await c.run(`COPY (SELECT * FROM ${src}) TO '${dir}/x.parquet' (FORMAT parquet)`);
    c.closeSync();
    db.closeSync();
    for (const name of ["x.tsv", "x.jsonl", "x.parquet"]) {
      const other = json(["analyze", join(dir, name), "--metric", "hit5,rr", "--system", "system"]);
      expect(strip(other), name).toEqual(strip(csv));
    }
    const stdin = json(
      ["analyze", "-", "--format", "jsonl", "--metric", "hit5,rr", "--system", "system"],
      readFileSync(join(dir, "x.jsonl"), "utf8"),
    );
    expect(strip(stdin)).toEqual(strip(csv));
    expect(stdin.inputs[0].file).toBe("stdin");
    expect(stdin.inputs[0].sha256).toBe(sha256File(join(dir, "x.jsonl")));
  });

  it("re-runs from --write-aggregates (CSV and Parquet) to the same numbers, leaving the input untouched", () => {
    const before = sha256File(EXAMPLE);
    for (const name of ["agg.csv", "agg.parquet"]) {
      const target = join(dir, name);
      const first = json([
        "analyze",
        EXAMPLE,
        "--metric",
        "hit5,rr",
        "--system",
        "system",
        "--write-aggregates",
        target,
      ]);
      expect(first.aggregatesFile).toBe(target);
      const again = json(["analyze", target, "--aggregated", "--system", "system"]);
      expect(analysisOf(again, "bm25", "rr").micro.intervals["chunk-bootstrap"].available).toBe(
        false,
      );
      expect(withoutRowBootstrap(strip(again)), name).toEqual(withoutRowBootstrap(strip(first)));
    }
    expect(sha256File(EXAMPLE)).toBe(before);
  });

  it("gives the same analysis from shards as from the whole file (per-query shards and aggregate shards merged)", () => {
    const lines = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const [header, ...rows] = lines;
    // Interleave rows so documents are split across the shards.
    const a = rows.filter((_, i) => i % 3 === 0);
    const b = rows.filter((_, i) => i % 3 !== 0);
    writeFileSync(join(dir, "a.csv"), `${header}\n${a.join("\n")}\n`);
    writeFileSync(join(dir, "b.csv"), `${header}\n${b.join("\n")}\n`);
    const shards = json([
      "analyze",
      join(dir, "a.csv"),
      join(dir, "b.csv"),
      "--metric",
      "hit5,rr",
      "--system",
      "system",
    ]);
    // 0/1 sums are exact: bit-identical. Real-valued sums differ only by addition order.
    expect(analysisOf(shards, "bm25", "hit5")).toEqual(analysisOf(csv, "bm25", "hit5"));
    expect(analysisOf(shards, "tfidf", "hit5")).toEqual(analysisOf(csv, "tfidf", "hit5"));
    expectClose(strip(shards), strip(csv), 1e-13);
    json([
      "analyze",
      join(dir, "a.csv"),
      "--metric",
      "hit5,rr",
      "--system",
      "system",
      "--write-aggregates",
      join(dir, "a.agg.csv"),
    ]);
    json([
      "analyze",
      join(dir, "b.csv"),
      "--metric",
      "hit5,rr",
      "--system",
      "system",
      "--write-aggregates",
      join(dir, "b.agg.csv"),
    ]);
    const aggA = readFileSync(join(dir, "a.agg.csv"), "utf8");
    const aggB = readFileSync(join(dir, "b.agg.csv"), "utf8").split("\n").slice(1).join("\n");
    writeFileSync(join(dir, "ab.agg.csv"), aggA + aggB);
    // The concatenation lists documents twice: --aggregated refuses it, ragci merge adds it.
    const twice = ragci(["analyze", join(dir, "ab.agg.csv"), "--aggregated", "--system", "system"]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/is on 2 rows; .*use ragci merge\n$/);
    const mergeRun = ragci(["merge", join(dir, "ab.agg.csv"), "-o", join(dir, "ab.merged.csv")]);
    expect(mergeRun.code).toBe(0);
    const merged = json([
      "analyze",
      join(dir, "ab.merged.csv"),
      "--aggregated",
      "--system",
      "system",
    ]);
    expect(analysisOf(merged, "tfidf", "hit5")).toEqual(analysisOf(csv, "tfidf", "hit5"));
    expectClose(
      analysisOf(withoutRowBootstrap(merged), "bm25", "rr"),
      analysisOf(withoutRowBootstrap(strip(csv)), "bm25", "rr"),
      1e-13,
    );
  });

  it("applies --population M (fpc) and --estimand", () => {
    const fpc = one([
      "analyze",
      k5,
      "--metric",
      "score",
      "--population",
      "20",
      "--estimand",
      "macro",
    ]);
    expect(fpc.micro).toBeNull();
    expect(fpc.macro.intervals.t.se).toBeCloseTo(
      expectedK5.macro.intervals.t.se * Math.sqrt(1 - 5 / 20),
      14,
    );
    expect(fpc.design).toMatchObject({ kind: "srs", population: 20, fpc: 0.75 });
  });

  it("applies --level to every t and normal interval", () => {
    const report = json(["analyze", k5, "--metric", "score", "--level", "0.9"]);
    expect(report.level).toBe(0.9);
    const ninety = onlyAnalysis(report);
    // R: qt(0.95, 4) = 2.131846786326649
    expect(ninety.macro.intervals.t.q).toBeCloseTo(2.131846786326649, 12);
    expect(ninety.micro.intervals["wald-iid"].q).toBeCloseTo(1.6448536269514722, 12);
  });
});

describe("terminal and Markdown output", () => {
  it("leads with the recommended interval, K and ν, then contrasts, diagnostics and advice", () => {
    const result = ragci(["analyze", k5, "--metric", "score"]);
    expect(result.code).toBe(0);
    const text = result.stdout;
    expect(text).toMatch(/5 documents · 110 results · SRS of documents, no fpc/);
    expect(text).toMatch(
      /micro\s+0\.418\s+\[0\.081, 0\.855\]\s+0\.0989\s+1\.69\s+logit-cv3\s+rate of a random result/,
    );
    expect(text).toMatch(
      /macro\s+0\.471\s+\[0\.282, 0\.669\]\s+0\.0735\s+4\s+logit\s+rate of a typical document/,
    );
    expect(text).toMatch(/micro\s+cr2\s+\[0\.082, 0\.754\]\s+ν = 2\.09/);
    expect(text.indexOf("contrasts")).toBeGreaterThan(text.indexOf("macro"));
    expect(text).toMatch(/micro\s+cr1\s+\[0\.226, 0\.610\]\s+ν = 4/);
    expect(text).toMatch(/largest document holds 53% of all results/);
    expect(text).toMatch(/ICC 0\.054 · Kish DEFF 3\.05 · effective n 36 of 110/);
    expect(text).toMatch(/without d05 the micro estimate moves by \+0\.101/);
    expect(text).toMatch(
      /! K = 5: no interval guarantees the nominal coverage with so few documents\. At K = 5 ragci's studies found logit-cv3 \(micro\) at 91\.7%–96\.2% of 95%/,
    );
    expect(text.includes("\u001b[")).toBe(false);
  });

  it("writes Markdown to --output atomically", () => {
    const target = join(dir, "report.md");
    const result = ragci(["analyze", k5, "--metric", "score", "--markdown", "--output", target]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    const text = readFileSync(target, "utf8");
    expect(text).toMatch(
      /\| micro \| rate of a random result \| 0\.418 \| \*\*logit-cv3\*\* \(recommended\) \| \[0\.081, 0\.855\] \| 0\.0989 \| 1\.69 \|/,
    );
  });

  it("has --help with an example", () => {
    const result = ragci(["analyze", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /Examples:\n\s+\$ ragci analyze examples\/covidqa-retrieval\.csv/,
    );
  });
});

describe("bootstrap work budget", () => {
  const file = join(dir, "many-docs.csv");
  const lines = ["doc,n,s"];
  for (let d = 0; d < 20_000; d++) lines.push(`d${d},${1 + (d % 7)},${d % 3 === 0 ? 1 : 0}`);
  writeFileSync(file, `${lines.join("\n")}\n`);

  it("skips the bootstrap by default when B·K exceeds 10⁸ document draws, and says how to run it", () => {
    const out = one(["analyze", file, "--aggregated"]);
    expect(out.micro.intervals["bootstrap-t"]).toMatchObject({ available: false });
    expect(out.micro.intervals["bootstrap-t"].reason).toMatch(
      /B·K = 2\.0e\+8 document draws .* pass --replicates B/,
    );
    expect(out.micro.intervals.cr2.available).toBe(true);
  });

  it("runs it when --replicates is given", () => {
    const out = one(["analyze", file, "--aggregated", "--replicates", "50"]);
    expect(out.micro.intervals["bootstrap-t"]).toMatchObject({ available: true, replicates: 50 });
  });

  it("skips the chunk bootstrap (a contrast) when B·K > 2·10⁶ unless --chunk-bootstrap, and says so", () => {
    const skipped = one(["analyze", file, "--aggregated", "--replicates", "101"]);
    expect(skipped.micro.intervals["chunk-bootstrap"].available).toBe(false);
    expect(skipped.micro.intervals["chunk-bootstrap"].reason).toMatch(
      /skipped by default: B·K = 2\.0e\+6 draws of a contrast .* pass --chunk-bootstrap to run it/,
    );
    expect(skipped.micro.intervals["bootstrap-t"].available).toBe(true);
    const forced = one([
      "analyze",
      file,
      "--aggregated",
      "--replicates",
      "101",
      "--chunk-bootstrap",
    ]);
    expect(forced.micro.intervals["chunk-bootstrap"].available).toBe(true);
    const small = one(["analyze", file, "--aggregated", "--replicates", "99"]);
    expect(small.micro.intervals["chunk-bootstrap"].available).toBe(true);
  });
});

describe("shards with ids that UTF-16 and code points order differently", () => {
  it("give the single file's analysis, bootstrap included (documents in code-point order, as DuckDB orders them)", () => {
    const dir = scratchDir();
    const ids = ["z", "ｚ", "😀", "a", "中", "𝒜"]; // ｚ U+FF5A sorts before 😀 U+1F600 by code point
    const rows = ids.flatMap((id, d) =>
      [1, 2, 3, 4].map((q) => `${id},${(d * 7 + q * 3) % 5 < 2 ? 1 : 0}`),
    );
    writeFileSync(join(dir, "all.csv"), `doc_id,hit\n${rows.join("\n")}\n`);
    writeFileSync(join(dir, "s1.csv"), `doc_id,hit\n${rows.slice(0, 12).join("\n")}\n`);
    writeFileSync(join(dir, "s2.csv"), `doc_id,hit\n${rows.slice(12).join("\n")}\n`);
    const args = ["--metric", "hit", "--replicates", "999", "--json"];
    const whole = onlyAnalysis(ragciJson(["analyze", join(dir, "all.csv"), ...args]));
    const shards = onlyAnalysis(
      ragciJson(["analyze", join(dir, "s1.csv"), join(dir, "s2.csv"), ...args]),
    );
    for (const e of ["micro", "macro"])
      expect(shards[e].intervals["bootstrap-t"]).toEqual(whole[e].intervals["bootstrap-t"]);
    expect(shards.aggregatesSha256).toBe(whole.aggregatesSha256);
  });
});
