"""The article's K x K construction of the micro CR2 standard error and its Bell-McCaffrey nu,
on per-document n and s (numpy arrays), with numpy alone: nu = tr(M)^2 / ||M||_F^2 with
M = diag(a^2 n) - (a n)(a n)'/N, a = 1/sqrt(1 - h), built as written (O(K^2) memory).
kxk_numpy.py times it alone; article_intervals.py adds scipy's quantiles."""
import numpy as np


def kxk_cr2(n, s):
    N = n.sum()
    R = s.sum() / N
    u = s - R * n
    h = n / N
    se = np.sqrt(np.sum(u**2 / (1 - h))) / N
    a = 1 / np.sqrt(1 - h)
    M = -np.outer(a * n, a * n) / N
    M[np.diag_indices_from(M)] += a**2 * n
    df = np.trace(M) ** 2 / np.sum(M * M)
    return R, u, se, df
