"""The numpy reference for `ragci simulate`'s speed target (bench/simulate.mjs): the same study
(synthetic census, SRS of K, numpy-exact streams, every interval the cross-check scores) with
each repetition vectorised over its B×K bootstrap draws, split over P processes.
Usage: python3 simulate_numpy.py K REPS B PROCESSES  → prints JSON {covered, seconds}
"""
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "test" / "fixtures" / "numpy"))
import coverage_study as cs  # noqa: E402  (the interval formulas of the numpy cross-check)

data = np.loadtxt(cs.CENSUS, delimiter=",", skiprows=1, usecols=(1, 2))
N_ALL, S_ALL = data[:, 0], data[:, 1]
TRUTH = {"micro": S_ALL.sum() / N_ALL.sum(), "macro": float(np.mean(S_ALL / N_ALL))}


def run(args):
    k, start, stop, seed = args
    covered = {}
    for i in range(start, stop):
        g0 = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i, 0))))
        idx = g0.choice(len(N_ALL), k, replace=False)
        g1 = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(i, 1))))
        for key, iv in cs.intervals(N_ALL[idx], S_ALL[idx], g1).items():
            hit = iv is not None and iv[0] <= TRUTH[key.split("/")[0]] <= iv[1]
            covered[key] = covered.get(key, 0) + int(hit)
    return covered


if __name__ == "__main__":
    k, reps, b, processes = (int(x) for x in sys.argv[1:5])
    cs.B = b
    started = time.perf_counter()
    bounds = [(k, p * reps // processes, (p + 1) * reps // processes, 1) for p in range(processes)]
    with Pool(processes) as pool:
        parts = pool.map(run, bounds)
    total = {key: sum(p.get(key, 0) for p in parts) for key in parts[0]}
    print(json.dumps({"covered": total, "seconds": time.perf_counter() - started}))
