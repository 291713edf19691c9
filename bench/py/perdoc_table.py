"""A per-document table doc,n,s of K documents: n = 1 + floor(lognormal(1, 1)), s ~ Binomial(n, 0.5).
Usage: python3 bench/py/perdoc_table.py OUT.csv K SEED
"""
import sys

import numpy as np

path, K, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = np.random.default_rng(seed)
n = 1 + np.floor(rng.lognormal(1, 1, K)).astype(int)
s = rng.binomial(n, 0.5)
with open(path, "w") as f:
    f.write("doc,n,s\n" + "".join(f"d{i},{a},{b}\n" for i, (a, b) in enumerate(zip(n, s))))
