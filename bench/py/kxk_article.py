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
from article_intervals import article_intervals  # noqa: E402  (imports scipy)

t1 = time.perf_counter()
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
n = np.ascontiguousarray(data[:, 0])
s = np.ascontiguousarray(data[:, 1])
t2 = time.perf_counter()
a = article_intervals(n, s)
se_micro, df_micro, ci_micro, ci_macro = a["se_micro"], a["df_micro"], a["ci_micro"], a["ci_macro"]
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
