// Shared by the paired studies (paired.mjs, pairedMicro.mjs): a pair's per-document differences.
import { readFileSync } from "node:fs";

/** Per-document sums of b − a from a per-query CSV with doc, query, system and metric columns. */
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
    const acc = docs.get(pair.doc) ?? { n: 0, s: 0, ss: 0 };
    acc.n += 1;
    acc.s += d;
    acc.ss += d * d;
    docs.set(pair.doc, acc);
  }
  const ids = [...docs.keys()].sort();
  const pick = (f) => Float64Array.from(ids, (id) => docs.get(id)[f]);
  return { ids, n: pick("n"), s: pick("s"), ss: pick("ss"), binary: false, min: -1, max: 1 };
}
