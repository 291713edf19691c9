"""The K x K cr2 kernel alone (no scipy, no intervals), on a per-document CSV doc,n,s.

nu = tr(M)^2 / ||M||_F^2 with M = diag(a^2 n) - (a n)(a n)'/N, a = 1/sqrt(1 - h): the
article's construction, O(K^2) memory. Prints one JSON line: import, load and compute times
(perf_counter), se and nu.
"""
import json
import sys
import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402

t1 = time.perf_counter()
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
n = np.ascontiguousarray(data[:, 0])
s = np.ascontiguousarray(data[:, 1])
t2 = time.perf_counter()
N = n.sum()
R = s.sum() / N
u = s - R * n
h = n / N
se = np.sqrt(np.sum(u**2 / (1 - h))) / N
a = 1 / np.sqrt(1 - h)
M = -np.outer(a * n, a * n) / N
M[np.diag_indices_from(M)] += a**2 * n
df = np.trace(M) ** 2 / np.sum(M * M)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "compute": t3 - t2, "se": float(se), "df": float(df)}))
