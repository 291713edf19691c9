"""The article's code with its bootstrap: on a per-document CSV doc,n,s, the micro CR2 interval
with the K x K nu and scipy's t quantile, the macro t interval, and both document bootstrap-t
intervals as the article describes them (macro studentised by each replicate's sd/sqrt(K),
micro by its CR1), B replicates from default_rng(1).
Usage: python3 bench/py/article_bootstrap.py PERDOC.csv B
"""
import sys
import numpy as np
from scipy import stats
data = np.loadtxt(sys.argv[1], delimiter=",", skiprows=1, usecols=(1, 2))
B = int(sys.argv[2])
n, s = data[:, 0], data[:, 1]
K, N = len(n), n.sum()
R = s.sum() / N
u = s - R * n
h = n / N
se_micro = np.sqrt(np.sum(u**2 / (1 - h))) / N
a = 1 / np.sqrt(1 - h)
M = -np.outer(a * n, a * n) / N
M[np.diag_indices(K)] += a**2 * n
df_micro = np.trace(M)**2 / np.sum(M * M)
ci_micro = R + np.array([-1, 1]) * stats.t.ppf(0.975, df_micro) * se_micro
r = s / n
se_macro = r.std(ddof=1) / np.sqrt(K)
ci_macro = r.mean() + np.array([-1, 1]) * stats.t.ppf(0.975, K - 1) * se_macro
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
