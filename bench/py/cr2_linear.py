"""cr2 se and the Imbens-Kolesar nu in O(K), the formulas of src/core/variance, timed in-process.

Usage: python3 cr2_linear.py N.f64 S.f64  (the per-document n and s as raw float64)
Prints one JSON line: the 9 timings after 3 warm-up runs, and se and nu.
"""
import json
import sys
import timeit

import numpy as np

n = np.fromfile(sys.argv[1])
s = np.fromfile(sys.argv[2])


def cr2():
    N = n.sum()
    R = s.sum() / N
    u = s - R * n
    h = n / N
    se = np.sqrt(np.sum(u**2 / (1 - h))) / N
    g = n * n / (N * (N - n))
    df = 1 / (np.sum(h * h) + np.sum(g) ** 2 - np.sum(g * g))
    return se, df


timeit.repeat(cr2, number=1, repeat=3)
times = timeit.repeat(cr2, number=1, repeat=9)
se, df = cr2()
print(json.dumps({"times": times, "se": float(se), "df": float(df)}))
