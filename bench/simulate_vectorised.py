"""A vectorised numpy/scipy coverage study: the reference of issue 12's simulate speed target
(bench/simulateVectorised.mjs runs it against `ragci simulate` in the same script).

Census: examples/synthetic-census.csv (doc_id,n,s,ss; a 0/1 metric), documents in code-point
order of their ids. Repetition i draws SRS of K documents with
    Generator(PCG64(SeedSequence(seed, spawn_key=(i, 0)))).choice(M, K, replace=False)
and its B document-bootstrap replicates with
    Generator(PCG64(SeedSequence(seed, spawn_key=(i, 1)))).integers(0, K, (B, K))
(row b = replicate b; micro and macro from the same rows) -- the streams of `ragci simulate`.
Every interval ragci's study scores by default (docs/methods.md; no fpc):
    micro: cr2 (Imbens-Kolesar nu in O(K)), logit-cv3, logit, bootstrap-t, bootstrap-percentile,
           cr1, wald-iid, wald-effective-n
    macro: t, logit, bootstrap-t, bootstrap-percentile, wald-iid, wald-effective-n
An unavailable interval counts as a miss. Quantiles are type 7 (numpy's default).

Only the streams are drawn per repetition (numpy has no batched SeedSequence); everything else
is computed for a block of repetitions at once: (block, K) arrays for the analytic intervals,
(block, B, K) for the bootstrap, so the Python loop never runs over replicates or documents.
The repetitions are split over P processes in contiguous ranges.

Usage: python3 bench/simulate_vectorised.py [--processes 2] [--k 20] [--reps 5000]
         [--replicates 999] [--seed 1] [--level 0.95] [--block 10] [--json]
"""
import argparse
import csv
import json
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from scipy.special import ndtri, stdtrit  # normal and Student t quantiles (what stats.t.ppf calls)

CENSUS = Path(__file__).resolve().parents[1] / "examples" / "synthetic-census.csv"
METHODS = [
    "micro/cr2",
    "micro/logit-cv3",
    "micro/logit",
    "micro/bootstrap-t",
    "micro/bootstrap-percentile",
    "micro/cr1",
    "micro/wald-iid",
    "micro/wald-effective-n",
    "macro/t",
    "macro/logit",
    "macro/bootstrap-t",
    "macro/bootstrap-percentile",
    "macro/wald-iid",
    "macro/wald-effective-n",
]


def load_census(path):
    with open(path, newline="") as f:
        rows = sorted(csv.DictReader(f), key=lambda r: r["doc_id"])  # code-point order
    n = np.array([float(r["n"]) for r in rows])
    s = np.array([float(r["s"]) for r in rows])
    ss = np.array([float(r["ss"]) for r in rows])
    if not (np.all(ss == s) and np.all((0 <= s) & (s <= n))):
        raise SystemExit(f"{path}: expected a 0/1 metric (ss = s, 0 <= s <= n)")
    return n, s


N_ALL, S_ALL = load_census(CENSUS)
TRUTH = {"micro": S_ALL.sum() / N_ALL.sum(), "macro": np.mean(S_ALL / N_ALL)}
# ragci decides "same rate" exactly (s_i n_j == s_j n_i). On this census that is the same as
# comparing the rates s/n as doubles, so the bootstrap compares the drawn rates directly.
_cross = S_ALL[:, None] * N_ALL[None, :] == S_ALL[None, :] * N_ALL[:, None]
RATES_EXACT = bool(np.array_equal(_cross, (S_ALL / N_ALL)[:, None] == (S_ALL / N_ALL)[None, :]))
if not RATES_EXACT:
    raise SystemExit(f"{CENSUS}: two different rates s/n round to the same double")
del _cross


def expit(x):
    return 1 / (1 + np.exp(-x))


def logit_bounds(est, se, q):
    """expit(logit est -/+ q se/(est(1-est))); NaN (unavailable) where est is 0 or 1."""
    ok = (est > 0) & (est < 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        centre = np.log(est / (1 - est))
        half = q * se / (est * (1 - est))
    return np.where(ok, expit(centre - half), np.nan), np.where(ok, expit(centre + half), np.nan)


def type7(sorted_rows, used, p):
    """Type-7 quantile p of the first `used` values of each sorted row (numpy's own formula:
    h = (n-1)p, x[floor h] + g (x[floor h + 1] - x[floor h]), the other form for g >= 0.5)."""
    h = (used - 1) * p
    lo = np.floor(h).astype(np.intp)
    hi = np.minimum(lo + 1, used - 1)
    g = h - lo
    a = np.take_along_axis(sorted_rows, lo[:, None], 1)[:, 0]
    b = np.take_along_axis(sorted_rows, hi[:, None], 1)[:, 0]
    diff = b - a
    return np.where(g >= 0.5, b - diff * (1 - g), a + diff * g)


def intervals(n, s, boot, level):
    """Bounds (lower, upper) of every method for a block of repetitions: n, s (C, K) samples,
    boot (C, B, K) bootstrap indices into each sample. NaN bounds: unavailable."""
    C, K = n.shape
    B = boot.shape[1]
    alpha = 1 - level
    probs = [alpha / 2, 1 - alpha / 2]
    z = ndtri(1 - alpha / 2)
    q_k1 = stdtrit(K - 1, 1 - alpha / 2)
    out = {}

    # ---- micro: R = S/N, u_d = s_d - R n_d, h_d = n_d/N
    N = n.sum(1)
    R = s.sum(1) / N
    u = s - R[:, None] * n
    h = n / N[:, None]
    rest = N[:, None] - n  # N - n_d, exact for counts
    se_cr2 = np.sqrt((u * u * N[:, None] / rest).sum(1)) / N
    # nu = 1 / (sum h^2 + sum_{i != j} g_i g_j), g = h^2/(1-h), the cross term as 2 sum_j g_j sum_{i<j} g_i
    g = n * n / (N[:, None] * rest)
    nu_cr2 = 1 / ((h * h).sum(1) + 2 * (g * (np.cumsum(g, 1) - g)).sum(1))
    q_cr2 = stdtrit(nu_cr2, 1 - alpha / 2)
    out["micro/cr2"] = (R - q_cr2 * se_cr2, R + q_cr2 * se_cr2)
    out["micro/logit"] = logit_bounds(R, se_cr2, q_cr2)
    se_cr1 = np.sqrt(K / (K - 1) * (u * u).sum(1)) / N
    out["micro/cr1"] = (R - q_k1 * se_cr1, R + q_k1 * se_cr1)
    # logit-cv3: V3 = (K-1)/K sum (u_d/(N-n_d))^2, exactly 0 when every rate is equal
    same_rate = (s * n[:, :1] == s[:, :1] * n).all(1)
    v3 = np.where(same_rate, 0.0, (K - 1) / K * ((u / rest) ** 2).sum(1))
    kk = n / rest
    k2 = kk * kk
    nu_cv3 = kk.sum(1) ** 2 / (k2.sum(1) + 2 * (k2 * (np.cumsum(k2, 1) - k2)).sum(1))
    lo, hi = logit_bounds(R, np.sqrt(v3), stdtrit(nu_cv3, 1 - alpha / 2))
    out["micro/logit-cv3"] = (np.where(v3 > 0, lo, np.nan), np.where(v3 > 0, hi, np.nan))

    # ---- macro: r_d = s_d/n_d, t interval on the K rates
    r = s / n
    m = r.mean(1)
    se_t = r.std(1, ddof=1) / np.sqrt(K)
    out["macro/t"] = (m - q_k1 * se_t, m + q_k1 * se_t)
    out["macro/logit"] = logit_bounds(m, se_t, q_k1)

    # ---- contrasts: every result independent (0/1: sqrt(R(1-R)/N)), and n = N/DEFF
    se_iid = np.sqrt(R * (1 - R) / N)
    sum_n2 = (n * n).sum(1)
    msb = (n * (r - R[:, None]) ** 2).sum(1) / (K - 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        msw = np.maximum(s - s * s / n, 0).sum(1) / (N - K)
        n0 = (N - sum_n2 / N) / (K - 1)
        denominator = msb + (n0 - 1) * msw
        icc = np.where((N - K > 0) & (denominator > 0), (msb - msw) / denominator, 0.0)
    deff = 1 + (sum_n2 / N - 1) * np.maximum(icc, 0)
    se_eff = se_iid * np.sqrt(deff)
    for name, est in (("micro", R), ("macro", m)):
        out[f"{name}/wald-iid"] = (est - z * se_iid, est + z * se_iid)
        out[f"{name}/wald-effective-n"] = (est - z * se_eff, est + z * se_eff)

    # ---- document bootstrap: one (B, K) index matrix per repetition, shared by micro and macro
    flat = boot + (np.arange(C) * K)[:, None, None]
    nb, sb, rb = n.take(flat), s.take(flat), r.take(flat)
    Nb = np.einsum("cbk->cb", nb)
    Rb = np.einsum("cbk->cb", sb) / Nb
    mb = np.einsum("cbk->cb", rb) / K
    # degenerate: every drawn rate equal (rates compare exactly, see RATES_EXACT)
    degenerate = (rb == rb[:, :, :1]).all(2)
    used = B - np.count_nonzero(degenerate, axis=1)
    gap = rb - mb[:, :, None]
    resid = sb - Rb[:, :, None] * nb
    with np.errstate(divide="ignore", invalid="ignore"):
        t_macro = (mb - m[:, None]) / (np.sqrt(np.einsum("cbk,cbk->cb", gap, gap) / (K - 1)) / np.sqrt(K))
        t_micro = (Rb - R[:, None]) / (np.sqrt(K / (K - 1) * np.einsum("cbk,cbk->cb", resid, resid)) / Nb)
    every = np.full(C, B)
    for name, est, se, reps, stud in (
        ("micro", R, se_cr1, Rb, t_micro),
        ("macro", m, se_t, mb, t_macro),
    ):
        reps = np.sort(reps, axis=1)
        out[f"{name}/bootstrap-percentile"] = tuple(type7(reps, every, p) for p in probs)
        # degenerate replicates dropped: sorted to the end as +inf, quantiles of the first `used`
        kept = np.sort(np.where(degenerate, np.inf, stud), axis=1)
        ok = used > 0
        with np.errstate(invalid="ignore"):  # rows with no replicate left give NaN, masked below
            t_lo, t_hi = (type7(kept, np.maximum(used, 1), p) for p in probs)
        out[f"{name}/bootstrap-t"] = (
            np.where(ok, est - t_hi * se, np.nan),
            np.where(ok, est - t_lo * se, np.nan),
        )
    return out


def run(task):
    """Repetitions start..stop-1, in blocks: the covered count of every method."""
    start, stop, k, replicates, seed, level, block = task
    M = len(N_ALL)
    covered = dict.fromkeys(METHODS, 0)
    for first in range(start, stop, block):
        reps = range(first, min(first + block, stop))
        idx = np.empty((len(reps), k), dtype=np.intp)
        boot = np.empty((len(reps), replicates, k), dtype=np.intp)
        for j, i in enumerate(reps):
            sample = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i, 0))))
            idx[j] = sample.choice(M, k, replace=False)
            resample = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i, 1))))
            boot[j] = resample.integers(0, k, (replicates, k))
        bounds = intervals(N_ALL[idx], S_ALL[idx], boot, level)
        for key in METHODS:
            lo, hi = bounds[key]
            truth = TRUTH[key.split("/")[0]]
            covered[key] += int(np.count_nonzero((lo <= truth) & (truth <= hi)))  # NaN: miss
    return covered


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--k", type=int, default=20)
    parser.add_argument("--reps", type=int, default=5000)
    parser.add_argument("--replicates", type=int, default=999)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", type=float, default=0.95)
    parser.add_argument("--block", type=int, default=10, help="repetitions per vectorised block")
    parser.add_argument("--json", action="store_true", help="one JSON line instead of a table")
    a = parser.parse_args()
    started = time.perf_counter()
    P = a.processes
    tasks = [
        (p * a.reps // P, (p + 1) * a.reps // P, a.k, a.replicates, a.seed, a.level, a.block)
        for p in range(P)
    ]
    if P == 1:
        parts = [run(tasks[0])]
    else:
        with Pool(P) as pool:
            parts = pool.map(run, tasks)
    covered = {key: sum(part[key] for part in parts) for key in METHODS}
    seconds = time.perf_counter() - started
    if a.json:
        print(json.dumps({"k": a.k, "reps": a.reps, "replicates": a.replicates, "seed": a.seed,
                          "level": a.level, "processes": P, "covered": covered, "seconds": seconds}))
        return
    print(f"numpy coverage study: {CENSUS.name}, M = {len(N_ALL)}, K = {a.k}, {a.reps} repetitions, "
          f"B = {a.replicates}, seed {a.seed}, level {a.level}, {P} processes")
    print(f"census values: micro {TRUTH['micro']:.6f}, macro {TRUTH['macro']:.6f}")
    print(f"{'method':<28} {'covered':>8} {'coverage':>9}")
    for key in METHODS:
        print(f"{key:<28} {covered[key]:>8} {covered[key] / a.reps:>9.4f}")
    print(f"study time (after imports): {seconds:.2f} s")


if __name__ == "__main__":
    main()
