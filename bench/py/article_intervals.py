"""The article's deterministic intervals on per-document n and s (numpy arrays): the micro CR2
interval with the K x K Bell-McCaffrey nu and scipy's t quantile, and the macro t interval with
K - 1, as the article's code computes them (the K x K matrix built, as written: kxk_cr2.py)."""
import numpy as np
from kxk_cr2 import kxk_cr2
from scipy import stats


def article_intervals(n, s):
    K = len(n)
    R, u, se_micro, df_micro = kxk_cr2(n, s)
    ci_micro = R + np.array([-1, 1]) * stats.t.ppf(0.975, df_micro) * se_micro
    r = s / n
    se_macro = r.std(ddof=1) / np.sqrt(K)
    ci_macro = r.mean() + np.array([-1, 1]) * stats.t.ppf(0.975, K - 1) * se_macro
    return {
        "R": R,
        "u": u,
        "r": r,
        "se_micro": se_micro,
        "df_micro": df_micro,
        "ci_micro": ci_micro,
        "se_macro": se_macro,
        "ci_macro": ci_macro,
    }
