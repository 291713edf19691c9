// Micro-benchmark: default_rng(seed).integers(0, K, (B, K)) in TypeScript vs numpy.
// Build first: npx tsc -p tsconfig.build.json && node bench/rng.mjs [B] [K] [seed]
import { execFileSync } from "node:child_process";
import { documentResampleIndices } from "../dist/core/numeric/boundedIntegers.js";

const B = Number(process.argv[2] ?? 9999);
const K = Number(process.argv[3] ?? 2000);
const seed = Number(process.argv[4] ?? 1);
const REPEATS = 7;

function sum(values) {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s;
}

// Warm up so the JIT has optimised the hot loop before timing.
documentResampleIndices(seed, K, Math.max(1, Math.floor(B / 10)));
const tsTimes = [];
let tsSum = 0;
for (let r = 0; r < REPEATS; r++) {
  const t0 = process.hrtime.bigint();
  const indices = documentResampleIndices(seed, K, B);
  tsTimes.push(Number(process.hrtime.bigint() - t0) / 1e9);
  tsSum = sum(indices);
}

const script = `
import json, timeit
import numpy as np
B, K, seed = ${B}, ${K}, ${seed}
stmt = lambda: np.random.default_rng(seed).integers(0, K, (B, K))
times = timeit.repeat(stmt, number=1, repeat=${REPEATS})
print(json.dumps({"times": times, "sum": int(stmt().sum()), "version": np.__version__}))
`;
const np = JSON.parse(execFileSync("python3", ["-c", script], { encoding: "utf8" }));

const tsBest = Math.min(...tsTimes);
const npBest = Math.min(...np.times);
const n = B * K;
const fmt = (t) => `${(t * 1000).toFixed(1)} ms (${(n / t / 1e6).toFixed(1)} M indices/s)`;
console.log(
  `default_rng(${seed}).integers(0, ${K}, (${B}, ${K})): ${n} indices, best of ${REPEATS}`,
);
console.log(`  TypeScript (Node ${process.version}): ${fmt(tsBest)}`);
console.log(`  numpy ${np.version}:               ${fmt(npBest)}`);
console.log(`  ratio TS / numpy: ${(tsBest / npBest).toFixed(2)}x`);
console.log(`  checksums ${tsSum === np.sum ? "agree" : "DIFFER"} (${tsSum} vs ${np.sum})`);
