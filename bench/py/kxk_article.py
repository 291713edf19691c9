"""The article's code as written, deterministic part, on a per-document CSV doc,n,s.

It imports scipy for the t quantile and reports both intervals (micro cr2 with the K x K nu,
macro t with K - 1); its pandas groupby is replaced by loading the per-document table, and its
bootstrap is left out, as ragci runs beside it with --replicates 0. Prints one JSON line:
import, load and compute times, se, nu and the two intervals.
"""
import json
import sys
import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

t1 = time.perf_counter()
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
n = np.ascontiguousarray(data[:, 0])
s = np.ascontiguousarray(data[:, 1])
t2 = time.perf_counter()
K, N = len(n), n.sum()
R = s.sum() / N
u = s - R * n
h = n / N
se_micro = np.sqrt(np.sum(u**2 / (1 - h))) / N
a = 1 / np.sqrt(1 - h)
M = -np.outer(a * n, a * n) / N
M[np.diag_indices(K)] += a**2 * n
df_micro = np.trace(M) ** 2 / np.sum(M * M)
ci_micro = R + np.array([-1, 1]) * stats.t.ppf(0.975, df_micro) * se_micro
r = s / n
se_macro = r.std(ddof=1) / np.sqrt(K)
ci_macro = r.mean() + np.array([-1, 1]) * stats.t.ppf(0.975, K - 1) * se_macro
t3 = time.perf_counter()
print(
    json.dumps(
        {
            "import": t1 - t0,
            "load": t2 - t1,
            "compute": t3 - t2,
            "se": float(se_micro),
            "df": float(df_micro),
            "ci_micro": ci_micro.tolist(),
            "ci_macro": ci_macro.tolist(),
        }
    )
)
