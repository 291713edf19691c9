import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { expectClose } from "../expectClose.js";
import { sha256File } from "../support/sha256File.js";
import { analysisOf as analysisIn, EXAMPLE, ragci, ragciJson, scratchDir } from "./runCli.js";

const dir = scratchDir();

/** Everything but the inputs' names and the aggregates file: the analysis itself. */
function analysisOf(o: Record<string, any>): Record<string, any> {
  const { inputs, command, aggregatesFile, ...rest } = o;
  // Per-document input cannot resample single results: the chunk bootstrap (a contrast)
  // of a real-valued metric needs them, so it is left out of the comparison.
  for (const analysis of rest.analyses.filter((a: any) => a.metric === "rr")) {
    for (const estimand of ["micro", "macro"])
      delete analysis[estimand].intervals["chunk-bootstrap"];
  }
  return JSON.parse(JSON.stringify(rest));
}

describe("ragci aggregate and ragci merge", () => {
  const [header, ...rows] = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
  // Three shards with every document split across them (rows dealt round-robin).
  const shards = [0, 1, 2].map((k) => {
    const path = join(dir, `shard${k}.csv`);
    writeFileSync(path, `${header}\n${rows.filter((_, i) => i % 3 === k).join("\n")}\n`);
    return path;
  });
  const metricArgs = ["--metric", "hit5,rr", "--system", "system"];
  const whole = ragciJson(["analyze", EXAMPLE, ...metricArgs, "--replicates", "999"]);

  it("shards → aggregate each (Parquet) → merge → analyze --aggregated is the one-pass analysis", () => {
    const before = shards.map(sha256File);
    const parts = shards.map((shard, k) => {
      const out = join(dir, `part${k}.parquet`);
      const r = ragci(["aggregate", shard, ...metricArgs, "-o", out]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(
        /^wrote .*part\d\.parquet: 2 systems × 2 metrics, \d+ documents, \d+ results \(sums exact\)\n$/,
      );
      return out;
    });
    const all = join(dir, "all.parquet");
    const merged = ragci(["merge", ...parts, "-o", all]);
    expect(merged.stderr).toBe("");
    expect(merged.code).toBe(0);
    expect(merged.stdout).toMatch(/2 systems × 2 metrics, 98 documents, 2760 results/);
    const again = ragciJson([
      "analyze",
      all,
      "--aggregated",
      "--system",
      "system",
      "--replicates",
      "999",
    ]);
    // 0/1 sums are whole numbers: bit for bit the same analysis.
    expect(analysisIn(again, "bm25", "hit5")).toEqual(analysisIn(whole, "bm25", "hit5"));
    expect(analysisIn(again, "tfidf", "hit5")).toEqual(analysisIn(whole, "tfidf", "hit5"));
    // RR sums are exact per shard, then three doubles are added: equal to rounding.
    expectClose(analysisOf(again), analysisOf(whole), 1e-13);
    expect(shards.map(sha256File)).toEqual(before);
  });

  it("aggregate of all shards at once (CSV) equals aggregate of the whole file, row for row", () => {
    const out = join(dir, "together.csv");
    expect(ragci(["aggregate", ...shards, ...metricArgs, "-o", out]).code).toBe(0);
    const one = ragci(["aggregate", EXAMPLE, ...metricArgs]);
    expect(one.code).toBe(0);
    const parse = (text: string) =>
      text
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(","));
    const a = parse(readFileSync(out, "utf8"));
    const b = parse(one.stdout);
    expect(a.map((r) => r.slice(0, 4))).toEqual(b.map((r) => r.slice(0, 4)));
    a.forEach((r, i) => {
      for (const c of [4, 5, 6, 7]) {
        const x = Number(r[c]);
        const y = Number((b[i] as string[])[c]);
        expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-13 * Math.max(1, Math.abs(y)));
      }
    });
    // hit5's sums are whole numbers: identical text.
    expect(a.filter((r) => r[1] === "hit5")).toEqual(b.filter((r) => r[1] === "hit5"));
  });

  it("refuses a metric that is 0/1 in one shard and a score in another (one line, exit 2, nothing written)", () => {
    const binary = join(dir, "k1.csv");
    const score = join(dir, "k2.csv");
    writeFileSync(binary, "doc,m\na,1\na,0\nb,1\n");
    writeFileSync(score, "doc,m\na,0.5\nc,0.25\nc,1\n");
    const out = join(dir, "kinds.parquet");
    for (const args of [
      ["aggregate", binary, score, "--metric", "m", "-o", out],
      [
        "merge",
        ...[binary, score].map((f) => {
          const agg = f.replace(/\.csv$/, ".agg.csv");
          expect(ragci(["aggregate", f, "--metric", "m", "-o", agg]).code).toBe(0);
          return agg;
        }),
        "-o",
        out,
      ],
    ]) {
      const r = ragci(args);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(
        /^ragci: metric m is 0\/1 in .*k1(\.agg)?\.csv but a score in .*k2(\.agg)?\.csv; shards must hold the same metric/,
      );
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
    }
  });

  it("merge adds a document's rows within one table (shards concatenated), which --aggregated refuses", () => {
    const concatenated = join(dir, "concatenated.csv");
    const lines = ["doc,n,s", "a,3,2", "b,2,1", "c,4,4", "a,3,1"];
    writeFileSync(concatenated, `${lines.join("\n")}\n`);
    const merged = ragci(["merge", concatenated]);
    expect(merged.stderr).toBe("");
    expect(merged.code).toBe(0);
    // Document a's two rows added: n = 3 + 3, s = 2 + 1.
    const a = merged.stdout.split("\n").find((l) => l.split(",")[2] === "a");
    expect(a?.split(",").slice(2, 6)).toEqual(["a", "6", "3", "3"]);
    const refused = ragci(["analyze", concatenated, "--aggregated"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/document "a" is on 2 rows; .* use ragci merge\n$/);
  });

  it("writes each document's own min and max, merge combines them, and the table re-reads to the same analysis", () => {
    // Scores (rr) of both systems, dealt into two shards so documents are split across them.
    const perQuery = rows.map((r) => r.split(","));
    const at = (name: string) => (header as string).split(",").indexOf(name);
    const range = new Map<string, [number, number]>();
    for (const f of perQuery) {
      const key = `${f[at("system")]},rr,${f[at("doc_id")]}`;
      const x = Number(f[at("rr")]);
      const [lo, hi] = range.get(key) ?? [x, x];
      range.set(key, [Math.min(lo, x), Math.max(hi, x)]);
    }
    const written = (csv: string) =>
      new Map(
        csv
          .trim()
          .split("\n")
          .slice(1)
          .map((l) => l.split(","))
          .map((f) => [`${f[0]},${f[1]},${f[2]}`, [Number(f[6]), Number(f[7])]] as const),
      );
    const args = ["--metric", "rr", "--system", "system"];
    const whole = written(ragci(["aggregate", EXAMPLE, ...args]).stdout);
    expect(whole).toEqual(range);
    // Not the table's range on every row (the file's rr runs from 0 to 1).
    expect(new Set([...whole.values()].map((r) => r.join())).size).toBeGreaterThan(2);
    const parts = [0, 1].map((k) => {
      const shard = join(dir, `rr${k}.csv`);
      writeFileSync(shard, `${header}\n${rows.filter((_, i) => i % 2 === k).join("\n")}\n`);
      const out = join(dir, `rr${k}.agg.csv`);
      expect(ragci(["aggregate", shard, ...args, "-o", out]).code).toBe(0);
      return out;
    });
    const merged = join(dir, "rr.merged.csv");
    expect(ragci(["merge", ...parts, "-o", merged]).code).toBe(0);
    expect(written(readFileSync(merged, "utf8"))).toEqual(range);
    const direct = ragciJson([
      "analyze",
      EXAMPLE,
      ...args,
      "--write-aggregates",
      join(dir, "rr.w.csv"),
    ]);
    expect(written(readFileSync(join(dir, "rr.w.csv"), "utf8"))).toEqual(range);
    const again = ragciJson([
      "analyze",
      join(dir, "rr.w.csv"),
      "--aggregated",
      "--system",
      "system",
    ]);
    expect(analysisOf(again)).toEqual(analysisOf(direct));
    // The observed range is the least and greatest over documents: the table's, as before.
    for (const a of again.analyses) {
      const mins = [...range].filter(([k]) => k.startsWith(`${a.system},`)).map(([, r]) => r[0]);
      expect(a.observedRange.min).toBe(Math.min(...mins));
      const maxs = [...range].filter(([k]) => k.startsWith(`${a.system},`)).map(([, r]) => r[1]);
      expect(a.observedRange.max).toBe(Math.max(...maxs));
    }
  });

  it("refuses -o onto an input, or without a .csv/.parquet name, before reading anything", () => {
    const onto = ragci(["merge", join(dir, "part0.parquet"), "-o", `${dir}/./part0.parquet`]);
    expect(onto.code).toBe(2);
    expect(onto.stderr).toMatch(/^ragci: -o .*part0\.parquet: is the same file as the input/);
    const named = ragci(["aggregate", EXAMPLE, "--metric", "hit5", "-o", join(dir, "x.txt")]);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/-o .*x\.txt: the name must end in \.csv or \.parquet/);
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("has --help with an example", () => {
    for (const command of ["aggregate", "merge"]) {
      const r = ragci([command, "--help"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`\\$ ragci ${command} `));
    }
  });
});

describe("aggregate on an evaluation tool's output says what its reader did", () => {
  // promptfoo 0.123.1's own file: tfidf errored on 4 of 34 items (failureReason 2).
  const errors = join(import.meta.dirname, "../fixtures/realTools/promptfoo/results-errors.json");
  const results = (csv: string, system: string) =>
    csv
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => l.split(","))
      .filter((f) => f[0] === system)
      .reduce((t, f) => t + Number(f[3]), 0);

  it("provider errors are left out with a note on stderr, or kept with --errors-as-failures", () => {
    const apart = ragci(["aggregate", errors, "--doc", "vars.doc", "--metric", "hit5"]);
    expect(apart.code).toBe(0);
    expect(apart.stderr).toMatch(
      /^! promptfoo: 4 of 34 items of system tfidf were provider errors .*left out; --errors-as-failures keeps them/m,
    );
    expect(results(apart.stdout, "tfidf")).toBe(30);
    expect(results(apart.stdout, "bm25")).toBe(34);
    const kept = ragci([
      "aggregate",
      errors,
      "--doc",
      "vars.doc",
      "--metric",
      "hit5",
      "--errors-as-failures",
    ]);
    expect(kept.code).toBe(0);
    expect(kept.stderr).toMatch(/kept as failures \(--errors-as-failures\)/);
    expect(results(kept.stdout, "tfidf")).toBe(34);
  });
});
