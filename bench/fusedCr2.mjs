/**
 * cr2 se and the Imbens–Kolesár ν (the same formulas as src/core/variance) in two passes over
 * n and s, Neumaier-compensated, with no temporary arrays: a sketch of how fast the O(K) work
 * can be, timed by bench/cases/investigation.mjs (not shipped code).
 */
export function fusedCr2({ n, s }) {
  const k = n.length;
  let N = 0;
  let cN = 0;
  let S = 0;
  let cS = 0;
  for (let d = 0; d < k; d++) {
    const x = n[d];
    let t = N + x;
    cN += Math.abs(N) >= Math.abs(x) ? N - t + x : x - t + N;
    N = t;
    const y = s[d];
    t = S + y;
    cS += Math.abs(S) >= Math.abs(y) ? S - t + y : y - t + S;
    S = t;
  }
  N += cN;
  S += cS;
  const R = S / N;
  let V = 0;
  let cV = 0;
  let H = 0;
  let cH = 0;
  let X = 0;
  let cX = 0;
  let G = 0;
  let cG = 0;
  for (let d = 0; d < k; d++) {
    const nd = n[d];
    const rest = N - nd;
    const u = s[d] - R * nd;
    const v = (u * u * N) / rest;
    let t = V + v;
    cV += Math.abs(V) >= v ? V - t + v : v - t + V;
    V = t;
    const h = nd / N;
    const h2 = h * h;
    t = H + h2;
    cH += H >= h2 ? H - t + h2 : h2 - t + H;
    H = t;
    const g = (nd * nd) / (N * rest);
    const x = 2 * g * (G + cG);
    t = X + x;
    cX += X >= x ? X - t + x : x - t + X;
    X = t;
    t = G + g;
    cG += G >= g ? G - t + g : g - t + G;
    G = t;
  }
  return { se: Math.sqrt(V + cV) / N, df: 1 / (H + cH + (X + cX)) };
}
