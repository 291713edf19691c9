"""Censuses for the method guide's coverage studies (docs/choosing-an-interval.md).

The recipe of examples/DATA.md's synthetic census (sizes log-normal, latent rates Beta with a
mean and dispersion that grow with size, hits binomial), with heavier size tails than it and
one with nearly even sizes, so that a recommendation is not tuned to one census:

  even        sizes exp(2.0 + 0.35 z), at most 500: every document about as large
  synthetic   sizes exp(2.0 + 1.86 z), at most 500 (the bundled census's own parameters)
  heavy       sizes exp(2.0 + 2.2 z), at most 2000
  heavier     sizes exp(2.0 + 2.5 z), at most 5000
  pareto      sizes 1 + Pareto(α = 1.1) · 3, at most 5000: a power-law tail

Each has M = 1300 documents, 0/1 results (ss = s), and is written as doc_id,n,s,ss.

Two paired censuses (two systems' 0/1 results on the same queries, written per query as
doc_id,query_id,system,hit) for the paired studies, tie-heavy as retrieval comparisons are:
system a as above, and system b the same result on every query of 65% of the documents (tied);
on the others b loses a hit with probability u_d ~ Beta(1, 3) and gains one with probability
v_d ~ Beta(1, 8), so that the per-document differences are mostly 0 with a long negative tail.

  paired-synthetic   the synthetic census's sizes
  paired-pareto      the power-law sizes

Usage: python3 censuses.py OUTDIR
"""
import sys
from pathlib import Path

import numpy as np

M = 1300


def expit(x):
    return 1.0 / (1.0 + np.exp(-x))


def census(sizes, rng):
    x = np.log(sizes) - np.median(np.log(sizes))
    m = expit(-1.6950 + 0.1241 * x)
    phi = np.exp(1.7524 - 0.3246 * x)
    p = rng.beta(m * phi, (1 - m) * phi)
    return rng.binomial(sizes, p)


def lognormal_sizes(rng, sigma, cap):
    z = rng.standard_normal(M)
    return np.clip(np.round(np.exp(2.0 + sigma * z)), 1, cap).astype(np.int64)


def paired(sizes, rng, tied_share=0.65):
    """Per-query hits of systems a and b on the same queries (see the module's docstring)."""
    x = np.log(sizes) - np.median(np.log(sizes))
    m = expit(-1.6950 + 0.1241 * x)
    phi = np.exp(1.7524 - 0.3246 * x)
    p = rng.beta(m * phi, (1 - m) * phi)
    tied = rng.random(M) < tied_share
    lose = rng.beta(1, 3, M)
    gain = rng.beta(1, 8, M)
    rows = ["doc_id,query_id,system,hit"]
    for d, n in enumerate(sizes):
        a = rng.random(n) < p[d]
        if tied[d]:
            b = a.copy()
        else:
            flip = rng.random(n)
            b = np.where(a, flip >= lose[d], flip < gain[d])
        for q in range(n):
            rows.append(f"d{d + 1:04d},d{d + 1:04d}q{q + 1},a,{int(a[q])}")
            rows.append(f"d{d + 1:04d},d{d + 1:04d}q{q + 1},b,{int(b[q])}")
    return rows


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    specs = {
        "even": lambda rng: lognormal_sizes(rng, 0.35, 500),
        "synthetic-like": lambda rng: lognormal_sizes(rng, 1.86, 500),
        "heavy": lambda rng: lognormal_sizes(rng, 2.2, 2000),
        "heavier": lambda rng: lognormal_sizes(rng, 2.5, 5000),
        "pareto": lambda rng: np.clip(np.round(1 + 3 * rng.pareto(1.1, M)), 1, 5000).astype(np.int64),
    }
    for i, (name, sizes_of) in enumerate(specs.items()):
        rng = np.random.default_rng([20261203, i])
        sizes = sizes_of(rng)
        hits = census(sizes, rng)
        rows = ["doc_id,n,s,ss"] + [f"d{d + 1:04d},{n},{s},{s}" for d, (n, s) in enumerate(zip(sizes, hits))]
        (out / f"{name}.csv").write_text("\n".join(rows) + "\n")
        top = np.sort(sizes)[::-1]
        print(f"{name}: N = {sizes.sum()}, max n = {top[0]}, largest 10% hold {top[: M // 10].sum() / sizes.sum():.1%}, micro {hits.sum() / sizes.sum():.4f}")
    for i, name in enumerate(["synthetic", "pareto"]):
        rng = np.random.default_rng([20261206, i])
        sizes = specs["synthetic-like" if name == "synthetic" else name](rng)
        (out / f"paired-{name}.csv").write_text("\n".join(paired(sizes, rng)) + "\n")
        print(f"paired-{name}: N = {sizes.sum()} queries per system")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "censuses")
