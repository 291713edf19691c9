"""Held-out censuses for checking the rule that withholds a recommendation (WITHHELD.md).

The rule's threshold was chosen on the censuses of censuses.py; these were generated afterwards,
with other seeds and other size tails, only to check it. Same recipe as censuses.py (latent
rates Beta with mean and dispersion growing with size, hits binomial), M = 1300:

  lognormal-1.5   sizes exp(2.0 + 1.5 z), at most 1000: lighter than the bundled census
  lognormal-2.8   sizes exp(2.0 + 2.8 z), at most 20000: heavier than "heavier"
  pareto-1.5      sizes 1 + Pareto(α = 1.5) · 3, at most 5000: a lighter power law
  pareto-0.8      sizes 1 + Pareto(α = 0.8) · 3, at most 20000: a heavier power law

and one paired census (per query, as censuses.py's paired ones) with 50% of documents tied and
the sizes of lognormal-2.8:

  heldout-paired   paired differences on heavy sizes, fewer ties

Usage: python3 heldout.py OUTDIR
"""
import sys
from pathlib import Path

import numpy as np

from censuses import M, census, lognormal_sizes, paired


def pareto_sizes(rng, alpha, cap):
    return np.clip(np.round(1 + 3 * rng.pareto(alpha, M)), 1, cap).astype(np.int64)


def main(out):
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    specs = {
        "lognormal-1.5": lambda rng: lognormal_sizes(rng, 1.5, 1000),
        "lognormal-2.8": lambda rng: lognormal_sizes(rng, 2.8, 20000),
        "pareto-1.5": lambda rng: pareto_sizes(rng, 1.5, 5000),
        "pareto-0.8": lambda rng: pareto_sizes(rng, 0.8, 20000),
    }
    for i, (name, sizes_of) in enumerate(specs.items()):
        rng = np.random.default_rng([20261225, i])
        sizes = sizes_of(rng)
        hits = census(sizes, rng)
        rows = ["doc_id,n,s,ss"] + [f"d{d + 1:04d},{n},{s},{s}" for d, (n, s) in enumerate(zip(sizes, hits))]
        (out / f"heldout-{name}.csv").write_text("\n".join(rows) + "\n")
        top = np.sort(sizes)[::-1]
        print(f"heldout-{name}: N = {sizes.sum()}, max n = {top[0]}, largest 10% hold {top[: M // 10].sum() / sizes.sum():.1%}, micro {hits.sum() / sizes.sum():.4f}")
    rng = np.random.default_rng([20261225, 9])
    sizes = specs["lognormal-2.8"](rng)
    (out / "heldout-paired.csv").write_text("\n".join(paired(sizes, rng, tied_share=0.5)) + "\n")
    print(f"heldout-paired: N = {sizes.sum()} queries per system")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "censuses")
