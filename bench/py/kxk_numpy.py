"""The K x K cr2 kernel alone (kxk_cr2.py: no scipy, no intervals), on a per-document CSV
doc,n,s. Prints one JSON line: import, load and compute times (perf_counter), se and nu.
"""
import json
import sys
import time

t0 = time.perf_counter()
import numpy as np  # noqa: E402
from kxk_cr2 import kxk_cr2  # noqa: E402

t1 = time.perf_counter()
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
n = np.ascontiguousarray(data[:, 0])
s = np.ascontiguousarray(data[:, 1])
t2 = time.perf_counter()
_, _, se, df = kxk_cr2(n, s)
t3 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "load": t2 - t1, "compute": t3 - t2, "se": float(se), "df": float(df)}))
