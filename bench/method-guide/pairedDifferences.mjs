// Shared by the method guide's studies of paired differences (paired.mjs, pairedMicro.mjs,
// withheld.mjs): the censuses they read, a pair's per-document differences, and the analysis of
// one SRS sample of them.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");
const { analyzeIntervals } = await import(join(root, "dist/core/analyzeIntervals.js"));
export const { sampleIndices, sampleStats } = await import(
  join(root, "dist/core/simulation/sampleDocuments.js")
);

/**
 * Writes the generated censuses when they are missing: censuses.py's, and with `heldOut` also
 * heldout.py's (generated after the rules were chosen).
 */
export function ensureCensuses({ heldOut = false } = {}) {
  if (!existsSync(join(here, "censuses/paired-synthetic.csv")))
    execFileSync("python3", [join(here, "censuses.py"), join(here, "censuses")], {
      stdio: "inherit",
    });
  if (heldOut && !existsSync(join(here, "censuses/heldout-paired.csv")))
    execFileSync("python3", [join(here, "heldout.py"), join(here, "censuses")], {
      cwd: here,
      stdio: "inherit",
    });
}

/**
 * SRS sample i of K of a paired census's M per-document differences, and compare's analysis of
 * it (no logit intervals; the chunk bootstrap not scored), with or without the fpc; `indices`
 * are the documents drawn (to take the same ones from each system's own sums).
 */
export function pairedSample(census, { k, i, fpc, level, replicates }) {
  const M = census.ids.length;
  const indices = sampleIndices(k, M, 1, i);
  const sample = sampleStats(census, indices);
  const analysis = analyzeIntervals(sample, {
    level,
    population: fpc ? M : null,
    differences: true,
    replicates,
    seed: 1,
    spawnKeys: { documents: [i, 1], chunks: [i, 2] },
    chunkBootstrapSkipped: "not scored",
  });
  return { sample, analysis, indices };
}

/**
 * Per-document sums of b − a from a per-query CSV with doc, query, system and metric columns;
 * `systems` holds each system's own sums (s, ss) on the same documents, for the candidates that
 * combine the two systems' intervals.
 */
export function differences(file, { doc, query, system, metric, a, b }) {
  const [head, ...lines] = readFileSync(file, "utf8").trim().split(/\r?\n/);
  const col = Object.fromEntries(head.split(",").map((name, i) => [name, i]));
  const byQuery = new Map();
  for (const line of lines) {
    const f = line.split(",");
    const key = `${f[col[doc]]}\u0000${f[col[query]]}`;
    const pair = byQuery.get(key) ?? { doc: f[col[doc]] };
    pair[f[col[system]]] = Number(f[col[metric]]);
    byQuery.set(key, pair);
  }
  const docs = new Map();
  for (const pair of byQuery.values()) {
    const d = pair[b] - pair[a];
    const acc = docs.get(pair.doc) ?? { n: 0, s: 0, ss: 0, sa: 0, ssa: 0, sb: 0, ssb: 0 };
    acc.n += 1;
    acc.s += d;
    acc.ss += d * d;
    acc.sa += pair[a];
    acc.ssa += pair[a] * pair[a];
    acc.sb += pair[b];
    acc.ssb += pair[b] * pair[b];
    docs.set(pair.doc, acc);
  }
  const ids = [...docs.keys()].sort();
  const pick = (f) => Float64Array.from(ids, (id) => docs.get(id)[f]);
  const n = pick("n");
  const own = (s, ss) => ({ ids, n, s: pick(s), ss: pick(ss), binary: false, min: 0, max: 1 });
  return {
    ids,
    n,
    s: pick("s"),
    ss: pick("ss"),
    binary: false,
    min: -1,
    max: 1,
    systems: { a: own("sa", "ssa"), b: own("sb", "ssb") },
  };
}
