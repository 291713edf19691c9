/**
 * The finite-population correction reaches every interval ragci recommends or contrasts with
 * them, checked against numpy/scipy computed from the formulas (not from ragci): with M known,
 * the t, cr1, cr2, logit and logit-cv3 standard errors are the infinite-population ones times
 * √(1 − K/M), and the document bootstrap is the rescaling bootstrap of Rao & Wu (1988): each
 * replicate's deviation from the estimate times √(1 − K/M) (numpy rescales the replicates
 * themselves, then takes their quantiles). At K = M every interval that can be 0 wide is.
 */
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { analyze } from "../../../src/core/analyze.js";
import type { MethodId } from "../../../src/core/methods.js";
import type { Interval } from "../../../src/core/types.js";
import { expectRelativelyClose } from "../../expectClose.js";
import { runNumpy } from "../numeric/numpyOracle.js";

const NUMPY_FPC = `
from scipy import stats as st
def fpc_case(n, s, M, B, seed, level):
    n = np.array(n, float); s = np.array(s, float); K = len(n); a = 1 - level
    c = np.sqrt(1 - K / M)
    r = s / n; N = n.sum(); R = s.sum() / N; rbar = r.mean()
    u = s - R * n; h = n / N
    q = st.t.ppf(1 - a / 2, K - 1)
    se_t = c * r.std(ddof=1) / np.sqrt(K)
    se_cr1 = c * np.sqrt(K / (K - 1) * (u ** 2).sum()) / N
    se_cr2 = c * np.sqrt((u ** 2 / (1 - h)).sum()) / N
    keep = np.ones(K, bool)
    leave = np.array([(s.sum() - s[d]) / (N - n[d]) for d in range(K)])
    se_cv3 = c * np.sqrt((K - 1) / K * ((leave - R) ** 2).sum())
    expit = lambda x: 1 / (1 + np.exp(-x)); logit = lambda p: np.log(p / (1 - p))
    out = {
        "macro/t": [rbar - q * se_t, rbar + q * se_t],
        "macro/logit": [expit(logit(rbar) - q * se_t / (rbar * (1 - rbar))), expit(logit(rbar) + q * se_t / (rbar * (1 - rbar)))],
        "micro/cr1": [R - q * se_cr1, R + q * se_cr1],
        "se/micro/cr2": se_cr2, "se/micro/logit": se_cr2, "se/micro/logit-cv3": se_cv3,
    }
    idx = np.random.default_rng(seed).integers(0, K, (B, K))
    rb = r[idx]; sb = s[idx]; nb = n[idx]
    m_raw = rb.mean(1); R_raw = sb.sum(1) / nb.sum(1)
    # the rescaling bootstrap: replicate deviations, and the replicate se, times c
    m_b = rbar + c * (m_raw - rbar); R_b = R + c * (R_raw - R)
    sd_b = c * rb.std(1, ddof=1) / np.sqrt(K)
    cr1_b = c * np.sqrt(K / (K - 1) * ((sb - R_raw[:, None] * nb) ** 2).sum(1)) / nb.sum(1)
    p = [a / 2, 1 - a / 2]
    out["macro/bootstrap-percentile"] = list(np.quantile(m_b, p))
    out["micro/bootstrap-percentile"] = list(np.quantile(R_b, p))
    keep = sd_b > 0
    lo, hi = np.quantile((m_b[keep] - rbar) / sd_b[keep], p)
    out["macro/bootstrap-t"] = [rbar - hi * se_t, rbar - lo * se_t]
    keep = cr1_b > 0
    lo, hi = np.quantile((R_b[keep] - R) / cr1_b[keep], p)
    out["micro/bootstrap-t"] = [R - hi * se_cr1, R - lo * se_cr1]
    return {k: (float(v) if np.ndim(v) == 0 else [float(x) for x in v]) for k, v in out.items()}
`;

// 14 documents of unequal sizes and rates, none at 0 or 1 overall (hand-written), M = 40.
const n = [3, 12, 5, 1, 30, 7, 2, 9, 4, 16, 6, 8, 2, 11];
const s = [1, 9, 0, 1, 12, 7, 1, 3, 2, 10, 3, 2, 2, 4];
const M = 40;
const B = 1999;
const seed = 3;
const level = 0.95;
const stats = documentStats({ ids: n.map((_, d) => `d${String(d).padStart(2, "0")}`), n, s });

type Numpy = Record<string, [number, number] | number>;
const numpy = runNumpy<Numpy>(
  `${NUMPY_FPC}\nprint(json.dumps(fpc_case(${JSON.stringify(n)}, ${JSON.stringify(s)}, ${M}, ${B}, ${seed}, ${level})))`,
);

const withM = analyze(stats, { population: M, replicates: B, seed, level });
const withoutM = analyze(stats, { replicates: B, seed, level });
const factor = Math.sqrt(1 - n.length / M);

function interval(a: typeof withM, key: string): Interval & { available: true } {
  const [estimand, method] = key.split("/") as ["micro" | "macro", MethodId];
  const found = a[estimand]?.intervals[method];
  if (!found?.available) throw new Error(`${key} unavailable`);
  return found as Interval & { available: true };
}

describe("fpc reaches every interval (numpy/scipy reference)", () => {
  it.each([
    "macro/t",
    "macro/logit",
    "micro/cr1",
    "macro/bootstrap-percentile",
    "micro/bootstrap-percentile",
    "macro/bootstrap-t",
    "micro/bootstrap-t",
  ])("%s with M = 40 equals numpy's bounds", (key) => {
    const got = interval(withM, key);
    const [lower, upper] = numpy[key] as [number, number];
    expectRelativelyClose(got.lower, lower, { rel: 1e-10, label: `${key} lower` });
    expectRelativelyClose(got.upper, upper, { rel: 1e-10, label: `${key} upper` });
  });

  it.each(["micro/cr2", "micro/logit", "micro/logit-cv3"])(
    "%s with M = 40: its se equals numpy's √(1 − K/M)·se",
    (key) => {
      expectRelativelyClose(interval(withM, key).se as number, numpy[`se/${key}`] as number, {
        rel: 1e-10,
        label: key,
      });
    },
  );

  it.each([
    ["macro/t", "linear"],
    ["micro/cr1", "linear"],
    ["micro/cr2", "linear"],
    ["macro/bootstrap-t", "linear"],
    ["micro/bootstrap-t", "linear"],
    ["macro/bootstrap-percentile", "linear"],
    ["micro/bootstrap-percentile", "linear"],
    ["macro/logit", "logit"],
    ["micro/logit", "logit"],
    ["micro/logit-cv3", "logit"],
  ] as const)(
    "%s: each half-width shrinks by √(1 − K/M) = 0.806 (on the %s scale)",
    (key, scale) => {
      const on = (x: number, centre: number) =>
        scale === "linear" ? x - centre : Math.log(x / (1 - x)) - Math.log(centre / (1 - centre));
      const estimand = key.split("/")[0] as "micro" | "macro";
      const centreWith = withM[estimand]?.estimate as number;
      const a = interval(withM, key);
      const b = interval(withoutM, key);
      for (const side of ["lower", "upper"] as const) {
        expectRelativelyClose(on(a[side], centreWith), factor * on(b[side], centreWith), {
          rel: 1e-9,
          label: `${key} ${side}`,
        });
      }
    },
  );

  it("K = M: a census has no sampling error, every linear and bootstrap interval is 0 wide", () => {
    const census = analyze(stats, { population: n.length, replicates: 199, seed, level });
    for (const key of [
      "macro/t",
      "micro/cr1",
      "micro/cr2",
      "macro/logit",
      "micro/logit",
      "macro/bootstrap-t",
      "micro/bootstrap-t",
      "macro/bootstrap-percentile",
      "micro/bootstrap-percentile",
    ]) {
      const got = interval(census, key);
      expect(got.upper - got.lower, key).toBe(0);
    }
    const cv3 = census.micro?.intervals["logit-cv3"];
    expect(cv3?.available).toBe(false);
    expect(cv3 && !cv3.available && cv3.reason).toMatch(/census \(K = M\)/);
  });
});
