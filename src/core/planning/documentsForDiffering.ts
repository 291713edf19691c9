import { RagciError } from "../errors.js";

const product = (n: number, factor: (i: number) => number) => {
  let p = 1;
  for (let i = 0; i < n; i++) p *= factor(i);
  return p;
};

/** log C(n, r), as a sum of r logs (exact enough for the few terms a tail needs). */
function logChoose(n: number, r: number): number {
  let s = 0;
  for (let i = 1; i <= r; i++) s += Math.log((n - r + i) / i);
  return s;
}

/** Where the documents that differ between two systems come from. */
export type DifferingPopulation =
  /** M documents of which `differing` differ: a sample of K has a hypergeometric count. */
  | { readonly population: number; readonly differing: number }
  /** An unbounded population where a share `share` differ: binomial(K, share). */
  | { readonly population: null; readonly share: number };

/**
 * P(at least `fewest` of K sampled documents differ): hypergeometric without replacement from
 * M, binomial without M. The lower tail's terms by the pmf's ratio recurrence, from
 * pmf(0) = Π (M − D − i)/(M − i) (or (1 − p)^K), so nothing is summed that can overflow.
 */
export function probabilityEnoughDiffer(
  from: DifferingPopulation,
  documents: number,
  fewest: number,
): number {
  const k = documents;
  let pmf: number;
  let ratio: (x: number) => number;
  if (from.population !== null) {
    const m = from.population;
    const d = from.differing;
    if (k > m) return Number.NaN;
    // The smallest count possible: K beyond the M − D tied documents must differ.
    const first = Math.max(0, k - (m - d));
    if (first >= fewest) return 1;
    pmf =
      first === 0
        ? product(k, (i) => (m - d - i) / (m - i))
        : Math.exp(logChoose(d, first) - logChoose(m, k));
    ratio = (x) => ((d - x) * (k - x)) / ((x + 1) * (m - d - k + x + 1));
    let below = 0;
    for (let x = first; x < fewest && x <= Math.min(k, d); x++) {
      below += pmf;
      pmf *= ratio(x);
    }
    return Math.min(1, Math.max(0, 1 - below));
  } else {
    const p = from.share;
    if (p >= 1) return k >= fewest ? 1 : 0;
    pmf = (1 - p) ** k;
    ratio = (x) => ((k - x) / (x + 1)) * (p / (1 - p));
  }
  let below = 0;
  for (let x = 0; x < fewest && x <= k; x++) {
    below += pmf;
    pmf *= ratio(x);
  }
  return Math.min(1, Math.max(0, 1 - below));
}

/**
 * Smallest K for which at least `fewest` sampled documents differ with probability
 * `probability`; null when no K can (fewer than `fewest` differ in all M, or none differ).
 * The probability grows with K, so the answer is found by doubling and bisection.
 *
 * @throws RagciError for a probability outside (0, 1) or a share outside [0, 1]
 */
export function documentsForDiffering(
  from: DifferingPopulation,
  fewest: number,
  probability: number,
): number | null {
  if (!(probability > 0 && probability < 1))
    throw new RagciError("invalid-option", `probability ${probability} must be between 0 and 1`);
  if (from.population === null ? !(from.share >= 0 && from.share <= 1) : from.differing < 0)
    throw new RagciError("invalid-option", "the share of differing documents must be in [0, 1]");
  const most = from.population ?? 1e9;
  if ((from.population !== null ? from.differing : from.share * most) < fewest) return null;
  const fits = (k: number) => probabilityEnoughDiffer(from, k, fewest) >= probability;
  let hi = fewest;
  while (hi < most && !fits(hi)) hi = Math.min(most, hi * 2);
  if (!fits(hi)) return null;
  let lo = Math.max(fewest - 1, Math.floor(hi / 2));
  if (fits(lo)) return lo;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
