/**
 * The document bootstrap against numpy (the machine's python3, numpy 2.x): the same draws
 * `default_rng(seed).integers(0, K, (B, K))`, the same studentisation, quantiles type 7.
 */
import { describe, expect, it } from "vitest";
import { analyze, documentStats } from "../../../src/core/index.js";
import { expectRelativelyClose } from "../../expectClose.js";
import { mulberry32 } from "../../support/mulberry32.js";
import { runNumpy } from "../numeric/numpyOracle.js";

const NUMPY_BOOTSTRAP = `
def boot(n, s, B, seed, level):
    n = np.array(n, float); s = np.array(s, float); K = len(n); a = 1 - level
    r = s / n; R = s.sum() / n.sum()
    idx = np.random.default_rng(seed).integers(0, K, (B, K))
    rb = r[idx]; sd = rb.std(1, ddof=1); mb = rb.mean(1)
    se_macro = r.std(ddof=1) / np.sqrt(K)
    sb = s[idx]; nb = n[idx]; Nb = nb.sum(1); Rb = sb.sum(1) / Nb
    ub = sb - Rb[:, None] * nb; seb = np.sqrt(K / (K - 1) * (ub ** 2).sum(1)) / Nb
    u = s - R * n; se_micro = np.sqrt(K / (K - 1) * (u ** 2).sum()) / n.sum()
    out = {"numpy_zero_sd": int((sd == 0).sum())}
    keep = sd > 0
    t = (mb[keep] - r.mean()) / (sd[keep] / np.sqrt(K))
    lo, hi = np.quantile(t, [a / 2, 1 - a / 2])
    out["macro_t"] = [r.mean() - hi * se_macro, r.mean() - lo * se_macro]
    out["macro_max_abs_t"] = float(np.abs(t).max())
    keep = seb > 0
    t = (Rb[keep] - R) / seb[keep]
    lo, hi = np.quantile(t, [a / 2, 1 - a / 2])
    out["micro_t"] = [R - hi * se_micro, R - lo * se_micro]
    out["macro_pct"] = list(np.quantile(mb, [a / 2, 1 - a / 2]))
    out["micro_pct"] = list(np.quantile(Rb, [a / 2, 1 - a / 2]))
    return out
`;

interface NumpyBootstrap {
  numpy_zero_sd: number;
  macro_t: [number, number];
  micro_t: [number, number];
  macro_pct: [number, number];
  micro_pct: [number, number];
  macro_max_abs_t: number;
}

const close = (actual: number, expected: number, label: string) =>
  expectRelativelyClose(actual, expected, { rel: 1e-12, abs: 1e-15, label });

describe("document bootstrap against numpy", () => {
  const random = mulberry32(20261202);
  const sets = Array.from({ length: 8 }, (_, i) => {
    const k = [2, 3, 7, 20, 40, 150, 12, 60][i] as number;
    const n = Array.from({ length: k }, () => 1 + Math.floor(random() ** 3 * 80));
    const s = n.map((nd) => Math.floor(random() * (nd + 1)));
    return { n, s, seed: i + 1, level: i % 2 === 0 ? 0.95 : 0.9, B: i === 5 ? 2000 : 9999 };
  });
  const numpy = runNumpy<NumpyBootstrap[]>(
    `${NUMPY_BOOTSTRAP}\nprint(json.dumps([boot(d["n"], d["s"], d["B"], d["seed"], d["level"]) for d in json.loads(${JSON.stringify(JSON.stringify(sets))})]))`,
  );

  it.each(sets.map((set, i) => ({ ...set, i })))(
    "data set $i (K = $n.length, seed $seed, level $level): bootstrap-t and percentile equal numpy's to 1e-12",
    ({ n, s, seed, level, B, i }) => {
      const ref = numpy[i] as NumpyBootstrap;
      const stats = documentStats({ ids: n.map((_, d) => `d${String(d).padStart(3, "0")}`), n, s });
      const a = analyze(stats, { seed, level, replicates: B });
      const degenerate = a.macro?.intervals["bootstrap-t"]?.resampling?.degenerate ?? -1;
      // Here no replicate has equal rates whose sd rounds away from 0: the two rules agree.
      expect(Math.round(degenerate * B)).toBe(ref.numpy_zero_sd);
      for (const [estimand, method, key] of [
        ["macro", "bootstrap-t", "macro_t"],
        ["micro", "bootstrap-t", "micro_t"],
        ["macro", "bootstrap-percentile", "macro_pct"],
        ["micro", "bootstrap-percentile", "micro_pct"],
      ] as const) {
        const interval = a[estimand]?.intervals[method];
        if (!interval?.available) throw new Error(`${estimand} ${method} unavailable`);
        close(interval.lower, ref[key][0], `${estimand} ${method} lower`);
        close(interval.upper, ref[key][1], `${estimand} ${method} upper`);
      }
    },
  );

  it("drops replicates whose drawn rates are all equal even where numpy's sd == 0 misses them", () => {
    // Rates 1/10, 2/20, 3/30 are the same rational; numpy's float sd of three or six copies of
    // 0.1 is about 1.5e-17, not 0, so numpy keeps those replicates with |t*| ≈ 3e16. ragci
    // compares s_i·n_j with s_j·n_i and drops all 177 of them (numpy drops 1).
    const n = [10, 20, 30, 7, 9, 11];
    const s = [1, 2, 3, 5, 2, 7];
    const ref = runNumpy<NumpyBootstrap>(
      `${NUMPY_BOOTSTRAP}\nprint(json.dumps(boot(${JSON.stringify(n)}, ${JSON.stringify(s)}, 9999, 1, 0.95)))`,
    );
    expect(ref.numpy_zero_sd).toBe(1);
    expect(ref.macro_max_abs_t).toBeGreaterThan(1e15);
    const a = analyze(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n, s }));
    const t = a.macro?.intervals["bootstrap-t"];
    expect(t?.resampling?.replicatesUsed).toBe(9999 - 177);
    expect(t?.resampling?.degenerate).toBeCloseTo(177 / 9999, 15);
    if (!t?.available) throw new Error("bootstrap-t should be available");
    const { tLower, tUpper } = t.resampling ?? {};
    expect(Math.abs(tLower as number)).toBeLessThan(100);
    expect(Math.abs(tUpper as number)).toBeLessThan(100);
  });
});
