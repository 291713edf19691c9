"""The article's code with its bootstrap: on a per-document CSV doc,n,s, the micro CR2 interval
with the K x K nu and scipy's t quantile, the macro t interval, and both document bootstrap-t
intervals as the article describes them (macro studentised by each replicate's sd/sqrt(K),
micro by its CR1), B replicates from default_rng(1).
Usage: python3 bench/py/article_bootstrap.py PERDOC.csv B
"""
import sys

import numpy as np
from article_intervals import article_intervals

data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
B = int(sys.argv[2])
n, s = data[:, 0], data[:, 1]
K, N = len(n), n.sum()
a = article_intervals(n, s)
R, u, r, se_macro = a["R"], a["u"], a["r"], a["se_macro"]
ci_micro, ci_macro = a["ci_micro"], a["ci_macro"]
rng = np.random.default_rng(1)
idx = rng.integers(0, K, (B, K))
rb = r[idx]
sd = rb.std(1, ddof=1)
tb = (rb.mean(1)[sd > 0] - r.mean()) / (sd[sd > 0] / np.sqrt(K))
lo, hi = np.quantile(tb, [0.025, 0.975])
boot_macro = (r.mean() - hi * se_macro, r.mean() - lo * se_macro)
nb, sb = n[idx], s[idx]
Rb = sb.sum(1) / nb.sum(1)
ub = sb - Rb[:, None] * nb
cr1 = np.sqrt(K / (K - 1) * (ub**2).sum(1)) / nb.sum(1)
ok = cr1 > 0
tm = (Rb[ok] - R) / cr1[ok]
lo, hi = np.quantile(tm, [0.025, 0.975])
se_cr1 = np.sqrt(K / (K - 1) * np.sum(u**2)) / N
boot_micro = (R - hi * se_cr1, R - lo * se_cr1)
print(ci_micro, ci_macro, boot_macro, boot_micro)
