// Document bootstrap (macro + micro bootstrap-t and percentile, B = 9999) in-process against
// numpy doing the same draws (default_rng(1).integers(0, K, (B, K))) and the same
// studentisation in the same script; and the chunk bootstrap of a 0/1 metric with
// N = 10⁷ results in K = 10⁴ documents. Build first: npx tsc -p tsconfig.build.json
//   node bench/bootstrap.mjs            prints a table; --markdown prints it as Markdown
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { perDocument } from "./generate.mjs";

const core = await import(new URL("../dist/core/index.js", import.meta.url));
// The chunk bootstrap and its JS form (the WebAssembly kernel's oracle) are building blocks,
// in dist/core/internal.js.
const { chunkBootstrapBinary, chunkBootstrapBinaryJs, chunkBootstrapRows, chunkBootstrapRowsJs } =
  await import(new URL("../dist/core/internal.js", import.meta.url));
const markdown = process.argv.includes("--markdown");
const B = 9999;

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function timeRagci(stats, runs) {
  const times = [];
  let out;
  for (let i = 0; i < runs + 1; i++) {
    const t = performance.now();
    const macro = core.macroEstimate(stats);
    const micro = core.microEstimate(stats);
    const reps = core.documentBootstrap(stats, { micro, macro }, { replicates: B, seed: 1 });
    out = [
      core.bootstrapT({
        estimate: macro,
        se: core.macroT(stats).se,
        studentised: reps.macroT,
        degenerate: reps.degenerate,
        level: 0.95,
        seed: 1,
      }),
      core.bootstrapT({
        estimate: micro,
        se: core.cr1(stats).se,
        studentised: reps.microT,
        degenerate: reps.degenerate,
        level: 0.95,
        seed: 1,
      }),
      core.bootstrapPercentile(reps.macro, 0.95, { seed: 1, degenerate: 0 }),
      core.bootstrapPercentile(reps.micro, 0.95, { seed: 1, degenerate: 0 }),
    ];
    if (i > 0) times.push(performance.now() - t); // first run is warm-up
  }
  return { ms: median(times), out };
}

const NUMPY = `
import json, sys, time
import numpy as np
n = np.array(json.loads(sys.argv[1]), float); s = np.array(json.loads(sys.argv[2]), float)
B = int(sys.argv[3]); K = len(n)
def run():
    r = s / n; R = s.sum() / n.sum()
    idx = np.random.default_rng(1).integers(0, K, (B, K))
    rb = r[idx]; sd = rb.std(1, ddof=1); mb = rb.mean(1)
    keep = sd > 0
    t = (mb[keep] - r.mean()) / (sd[keep] / np.sqrt(K))
    se = r.std(ddof=1) / np.sqrt(K); lo, hi = np.quantile(t, [0.025, 0.975])
    macro_t = (r.mean() - hi * se, r.mean() - lo * se)
    sb = s[idx]; nb = n[idx]; Nb = nb.sum(1); Rb = sb.sum(1) / Nb
    ub = sb - Rb[:, None] * nb; seb = np.sqrt(K / (K - 1) * (ub ** 2).sum(1)) / Nb
    u = s - R * n; se = np.sqrt(K / (K - 1) * (u ** 2).sum()) / n.sum()
    keep = seb > 0; t = (Rb[keep] - R) / seb[keep]; lo, hi = np.quantile(t, [0.025, 0.975])
    micro_t = (R - hi * se, R - lo * se)
    return macro_t, micro_t, tuple(np.quantile(mb, [0.025, 0.975])), tuple(np.quantile(Rb, [0.025, 0.975]))
times = []
for i in range(4):
    t0 = time.perf_counter(); out = run(); t1 = time.perf_counter()
    if i > 0: times.append((t1 - t0) * 1000)
print(json.dumps({"ms": sorted(times)[len(times) // 2], "out": out, "numpy": np.__version__}))
`;

function timeNumpy(stats) {
  const env = { ...process.env };
  delete env.OPENBLAS_CORETYPE;
  delete env.OPENBLAS_L2_SIZE;
  const r = spawnSync(
    "python3",
    ["-c", NUMPY, JSON.stringify([...stats.n]), JSON.stringify([...stats.s]), String(B)],
    {
      encoding: "utf8",
      env,
      maxBuffer: 1 << 26,
    },
  );
  if (r.status !== 0) throw new Error(`numpy reference failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const rows = [];
for (const k of [20, 2000]) {
  const stats = core.documentStats(perDocument(k, 7));
  const mine = timeRagci(stats, k > 100 ? 3 : 10);
  const ref = timeNumpy(stats);
  const agree = mine.out.every((interval, i) => {
    const [lo, hi] = ref.out[i];
    return (
      interval.available &&
      Math.abs(interval.lower - lo) <= 1e-12 * Math.abs(lo) &&
      Math.abs(interval.upper - hi) <= 1e-12 * Math.abs(hi)
    );
  });
  rows.push([
    `bootstrap-t + percentile, macro + micro, K = ${k}, B = ${B}`,
    `${mine.ms.toFixed(1)} ms`,
    `${ref.ms.toFixed(1)} ms (numpy ${ref.numpy})`,
    `${(ref.ms / mine.ms).toFixed(2)}×`,
    agree ? "equal to 1e-12" : "DIFFER",
  ]);
}

// Chunk bootstrap, 0/1 metric: N = 10⁷ results in K = 10⁴ documents (sizes ∝ a lognormal).
{
  const k = 10_000;
  const base = perDocument(k, 11);
  const totalBase = base.n.reduce((a, b) => a + b, 0);
  const n = base.n.map((x) => Math.max(1, Math.round((x * 1e7) / totalBase)));
  const s = n.map((x, d) => Math.min(x, Math.round((x * base.s[d]) / base.n[d])));
  const stats = core.documentStats({ ids: base.ids, n, s });
  const total = n.reduce((a, b) => a + b, 0);
  // The kernel, then its JS form on the same data and seed: the same replicates, in turns.
  const timed = (run) => {
    const t = performance.now();
    const out = run(stats, { replicates: B, seed: 1 });
    return { ms: performance.now() - t, out };
  };
  const wasm = timed(chunkBootstrapBinary);
  const js = timed(chunkBootstrapBinaryJs);
  const same = wasm.out.micro.every((x, b) => Object.is(x, js.out.micro[b]));
  rows.push([
    `chunk-bootstrap (0/1), N = ${total.toLocaleString("en")}, K = ${k}, B = ${B}`,
    `${(wasm.ms / 1000).toFixed(1)} s`,
    `${(js.ms / 1000).toFixed(1)} s (its JS form)`,
    `${(js.ms / wasm.ms).toFixed(2)}×`,
    `${same ? "the same replicates" : "DIFFER"}; ${((B * k) / (wasm.ms / 1000) / 1e6).toFixed(1)}M document-draws/s`,
  ]);
}

// The start-up cases of bench/startup.mjs (the example's first 20 documents by id), each
// form's first call in a fresh process (where a small analyze or compare meets it: before V8 has
// optimised anything), 7 processes each in turns, B = 10,000 as the commands use:
// - analyze: BM25's hit@5, the 0/1 chunk bootstrap;
// - compare: TF-IDF − BM25 on hit@5 per query, the row-level chunk bootstrap of the differences.
{
  const csv = readFileSync(new URL("../examples/covidqa-retrieval.csv", import.meta.url), "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split(","));
  const bm25 = csv.filter((f) => f[2] === "bm25");
  const ids = [...new Set(bm25.map((f) => f[0]))].sort().slice(0, 20);
  const n = ids.map((id) => bm25.filter((f) => f[0] === id).length);
  const s = ids.map((id) => bm25.filter((f) => f[0] === id && f[5] === "1").length);
  // Per document, its queries' differences tfidf − bm25 (documents in id order, as read).
  const hit = new Map(csv.map((f) => [`${f[2]} ${f[1]}`, Number(f[5])]));
  const differences = ids.map((id) =>
    bm25.filter((f) => f[0] === id).map((f) => hit.get(`tfidf ${f[1]}`) - hit.get(`bm25 ${f[1]}`)),
  );
  const offsets = [0];
  for (const d of differences) offsets.push(offsets.at(-1) + d.length);
  const internal = JSON.stringify(new URL("../dist/core/internal.js", import.meta.url).href);
  const cases = {
    [`0/1 (analyze): K = 20, N = ${n.reduce((a, b) => a + b, 0)}`]: {
      setup: `const s = Float64Array.from(${JSON.stringify(s)});
        const data = { ids: ${JSON.stringify(ids)}, n: Float64Array.from(${JSON.stringify(n)}), s, ss: s, binary: true, min: 0, max: 1 };`,
      forms: ["chunkBootstrapBinary", "chunkBootstrapBinaryJs"],
    },
    [`rows (compare's differences): K = 20, N = ${offsets.at(-1)}`]: {
      setup: `const data = { values: Float64Array.from(${JSON.stringify(differences.flat())}), offsets: Uint32Array.from(${JSON.stringify(offsets)}) };`,
      forms: ["chunkBootstrapRows", "chunkBootstrapRowsJs"],
    },
  };
  for (const [name, { setup, forms }] of Object.entries(cases)) {
    const child = (form) => `
      const internal = await import(${internal});
      ${setup}
      const t = performance.now();
      internal.${form}(data, { replicates: 10000, seed: 1 });
      console.log(performance.now() - t);`;
    const cold = Object.fromEntries(forms.map((form) => [form, []]));
    for (let i = 0; i < 7; i++)
      for (const form of forms) {
        const run = spawnSync(process.execPath, ["--input-type=module", "-e", child(form)], {
          encoding: "utf8",
        });
        if (run.status !== 0) throw new Error(run.stderr);
        cold[form].push(Number(run.stdout));
      }
    const [wasm, js] = forms.map((form) => median(cold[form]));
    rows.push([
      `chunk-bootstrap ${name}, B = 10,000, first call in a fresh process`,
      `${wasm.toFixed(1)} ms`,
      `${js.toFixed(1)} ms (its JS form)`,
      `${(js / wasm).toFixed(2)}×`,
      "median of 7 processes each",
    ]);
  }
}

// The row-level chunk bootstrap in-process: N = 10⁶ values in K = 10³ documents, B = 99.
{
  const k = 1000;
  const values = Float64Array.from({ length: 1e6 }, (_, i) => ((i * 7919) % 1000) / 999);
  const offsets = Uint32Array.from({ length: k + 1 }, (_, d) => Math.round((d * 1e6) / k));
  const timed = (run) => {
    const t = performance.now();
    const out = run({ values, offsets }, { replicates: 99, seed: 1 });
    return { ms: performance.now() - t, out };
  };
  const wasm = timed(chunkBootstrapRows);
  const js = timed(chunkBootstrapRowsJs);
  const same = wasm.out.macro.every((x, b) => Object.is(x, js.out.macro[b]));
  rows.push([
    "chunk-bootstrap rows, N = 10⁶, K = 1000, B = 99",
    `${(wasm.ms / 1000).toFixed(2)} s`,
    `${(js.ms / 1000).toFixed(2)} s (its JS form)`,
    `${(js.ms / wasm.ms).toFixed(2)}×`,
    same ? "the same replicates" : "DIFFER",
  ]);
}

const header = ["case", "ragci (in-process)", "reference", "speed-up", "check"];
if (markdown) {
  console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
} else {
  for (const r of [header, ...rows]) console.log(r.join("  ·  "));
}
