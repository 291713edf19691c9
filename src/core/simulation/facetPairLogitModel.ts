import type { FacetComponents } from "../facets/facetCells.js";
import { expit } from "../numeric/distributions.js";
import {
  type FacetEffect,
  type LogitNormalFacetModel,
  logitNormalFromComponents,
  meanExpit,
} from "./facetModel.js";

/**
 * The paired logit-normal model for a 0/1 metric: each system's trial is 1 with probability
 * expit(α_s + a_document + b_query + c_judge + e_document×judge + f_variant), each system's
 * model calibrated to its own REML components (logitNormalFromComponents), and each effect a
 * pair (a, b) on the logit scale with a correlation — the same documents, queries, judges and
 * wordings for both systems. A trial pair shares its uniform with probability `sharedTrial`
 * (y_a = 1{U < p_a}, y_b = 1{U < p_b}), else draws two: the residual's pairing, for cells of
 * one trial; reruns are independent (0).
 */
export interface LogitNormalPairFacetModel {
  readonly kind: "paired-logit-normal";
  readonly a: LogitNormalFacetModel;
  readonly b: LogitNormalFacetModel;
  /** Correlation of each effect's pair on the logit scale; absent = 0. */
  readonly correlations: Partial<Record<FacetEffect, number>>;
  readonly sharedTrial: number;
}

// A standard bivariate grid: step 0.2 over [−8, 8] in each coordinate (81 × 81 nodes).
const NODES = Float64Array.from({ length: 81 }, (_, i) => -8 + 0.2 * i);
const WEIGHTS = (() => {
  const w = NODES.map((z) => Math.exp((-z * z) / 2));
  const total = w.reduce((x, y) => x + y, 0);
  return w.map((x) => x / total);
})();

/** Tabulated conditional means by (α, rest, sd): a calibration asks for the same ones often. */
type Tables = Map<string, (x: number) => number>;

/** x ↦ E[expit(α + x + rest·Z)] tabulated over ±12 sd (1,201 points), linearly interpolated. */
function tabulated(
  alpha: number,
  rest: number,
  sd: number,
  tables?: Tables,
): (x: number) => number {
  const key = `${alpha}/${rest}/${sd}`;
  const known = tables?.get(key);
  if (known) return known;
  const made = tabulate(alpha, rest, sd);
  tables?.set(key, made);
  return made;
}

function tabulate(alpha: number, rest: number, sd: number): (x: number) => number {
  if (sd === 0) {
    const value = meanExpit(alpha, rest);
    return () => value;
  }
  const points = 1201;
  const low = -12 * sd;
  const step = (24 * sd) / (points - 1);
  const table = Float64Array.from({ length: points }, (_, i) =>
    meanExpit(alpha + low + step * i, rest),
  );
  return (x) => {
    const at = Math.min(points - 1.000001, Math.max(0, (x - low) / step));
    const i = Math.floor(at);
    const f = at - i;
    return (table[i] as number) * (1 - f) + (table[i + 1] as number) * f;
  };
}

/** E[f(sa Z₁, sb(ρ Z₁ + √(1 − ρ²) Z₂))] on the grid. */
function bivariateMean(
  f: (x: number, y: number) => number,
  sa: number,
  sb: number,
  rho: number,
): number {
  const r = Math.sqrt(Math.max(0, 1 - rho * rho));
  let total = 0;
  for (let i = 0; i < NODES.length; i++) {
    const z1 = NODES[i] as number;
    const x = sa * z1;
    let inner = 0;
    for (let j = 0; j < NODES.length; j++)
      inner += (WEIGHTS[j] as number) * f(x, sb * (rho * z1 + r * (NODES[j] as number)));
    total += (WEIGHTS[i] as number) * inner;
  }
  return total;
}

/** Mean and variance of g(sd Z) on the grid. */
function moments(g: (x: number) => number, sd: number): { mean: number; variance: number } {
  let m1 = 0;
  let m2 = 0;
  for (let i = 0; i < NODES.length; i++) {
    const v = g(sd * (NODES[i] as number));
    m1 += (WEIGHTS[i] as number) * v;
    m2 += (WEIGHTS[i] as number) * v * v;
  }
  return { mean: m1, variance: Math.max(0, m2 - m1 * m1) };
}

const sdOf = (m: LogitNormalFacetModel, k: FacetEffect) => m.sds[k] ?? 0;
const EFFECTS: readonly FacetEffect[] = ["document", "query", "judge", "documentJudge", "variant"];
const totalVariance = (m: LogitNormalFacetModel) =>
  EFFECTS.reduce((t, k) => t + sdOf(m, k) ** 2, 0);

/**
 * Var(E[y_b − y_a | the effects in `inside`]): both systems' conditional means g_s of the sum of
 * their effects in `inside` (the rest integrated out), their variances and covariance.
 */
function differenceExplained(
  model: Omit<LogitNormalPairFacetModel, "kind" | "sharedTrial">,
  inside: readonly FacetEffect[],
  tables?: Tables,
): number {
  const va = inside.reduce((t, k) => t + sdOf(model.a, k) ** 2, 0);
  const vb = inside.reduce((t, k) => t + sdOf(model.b, k) ** 2, 0);
  if (va === 0 && vb === 0) return 0;
  const c = inside.reduce(
    (t, k) => t + (model.correlations[k] ?? 0) * sdOf(model.a, k) * sdOf(model.b, k),
    0,
  );
  const sa = Math.sqrt(va);
  const sb = Math.sqrt(vb);
  const rest = (m: LogitNormalFacetModel, v: number) =>
    Math.sqrt(Math.max(0, totalVariance(m) - v));
  const ga = tabulated(model.a.intercept, rest(model.a, va), sa, tables);
  const gb = tabulated(model.b.intercept, rest(model.b, vb), sb, tables);
  const rho = sa > 0 && sb > 0 ? Math.max(-1, Math.min(1, c / (sa * sb))) : 0;
  const a = moments(ga, sa);
  const b = moments(gb, sb);
  const cov = bivariateMean((x, y) => ga(x) * gb(y), sa, sb, rho) - a.mean * b.mean;
  return Math.max(0, a.variance + b.variance - 2 * cov);
}

/** The difference's component each effect explains, as facetModelComponents splits one system's. */
function differenceEffects(
  model: Omit<LogitNormalPairFacetModel, "kind" | "sharedTrial">,
  tables?: Tables,
): Partial<Record<FacetEffect, number>> {
  const explained = (inside: readonly FacetEffect[]) => differenceExplained(model, inside, tables);
  const document = explained(["document"]);
  const judge = explained(["judge"]);
  return {
    document,
    query: Math.max(0, explained(["document", "query"]) - document),
    judge,
    documentJudge: Math.max(
      0,
      explained(["document", "judge", "documentJudge"]) - document - judge,
    ),
    variant: explained(["variant"]),
  };
}

/** Pieces of Var(y_b − y_a) for the residual: Var y_a + Var y_b − 2 Cov(p_a, p_b), and E[min − p_a p_b]. */
function trialPieces(model: Omit<LogitNormalPairFacetModel, "kind" | "sharedTrial">) {
  const ta = totalVariance(model.a);
  const tb = totalVariance(model.b);
  const sa = Math.sqrt(ta);
  const sb = Math.sqrt(tb);
  const c = EFFECTS.reduce(
    (t, k) => t + (model.correlations[k] ?? 0) * sdOf(model.a, k) * sdOf(model.b, k),
    0,
  );
  const rho = sa > 0 && sb > 0 ? Math.max(-1, Math.min(1, c / (sa * sb))) : 0;
  const pa = (x: number) => expit(model.a.intercept + x);
  const pb = (y: number) => expit(model.b.intercept + y);
  const ma = meanExpit(model.a.intercept, sa);
  const mb = meanExpit(model.b.intercept, sb);
  const product = bivariateMean((x, y) => pa(x) * pb(y), sa, sb, rho);
  const shared = bivariateMean((x, y) => Math.min(pa(x), pb(y)), sa, sb, rho) - product;
  return {
    independent: ma * (1 - ma) + mb * (1 - mb) - 2 * (product - ma * mb),
    shared,
  };
}

/**
 * The components of b − a on the metric's scale that a paired logit-normal model implies: each
 * effect's Var E[y_b − y_a | effect] (query and document × judge: what they add, as for one
 * system), and the residual the rest of Var(y_b − y_a), Bernoulli's and the trial pairing's.
 */
export function logitPairDifferenceComponents(model: LogitNormalPairFacetModel): FacetComponents {
  const effects = differenceEffects(model);
  const out: FacetComponents = {};
  let explained = 0;
  for (const k of EFFECTS)
    if (model.a.sds[k] !== undefined || model.b.sds[k] !== undefined) {
      out[k] = effects[k] as number;
      explained += effects[k] as number;
    }
  const { independent, shared } = trialPieces(model);
  out.residual = Math.max(0, independent - 2 * model.sharedTrial * shared - explained);
  return out;
}

/** μ_b − μ_a: each system's mean over every population the model draws from. */
export function logitPairTruth(model: LogitNormalPairFacetModel): number {
  return (
    meanExpit(model.b.intercept, Math.sqrt(totalVariance(model.b))) -
    meanExpit(model.a.intercept, Math.sqrt(totalVariance(model.a)))
  );
}

/**
 * The paired logit-normal model of a 0/1 pilot: a's model calibrated to a's REML mean and
 * components, b's to a's mean + the difference's REML mean and b's components
 * (logitNormalFromComponents), then per effect the correlation (bisection on [−1, 1]; the
 * difference's component falls as it rises) that gives the difference's REML component —
 * document, judge and wording first, then query and document × judge given them — and last
 * the trial pairing that gives the difference's residual (one-trial cells; 0 with reruns).
 * Targets out of reach are clipped to ±1 (or 0 and 1) and returned to be said in a note.
 */
export function logitNormalPairModel(
  a: { readonly mean: number; readonly components: FacetComponents },
  b: { readonly components: FacetComponents },
  difference: { readonly mean: number; readonly components: FacetComponents },
  options: { readonly independentResidual: boolean },
): { readonly model: LogitNormalPairFacetModel; readonly clipped: readonly string[] } {
  const ma = logitNormalFromComponents(a.mean, a.components);
  const mb = logitNormalFromComponents(a.mean + difference.mean, b.components);
  const correlations: Partial<Record<FacetEffect, number>> = {};
  const clipped: string[] = [];
  const tables: Tables = new Map();
  // Main effects first, then query and document × judge, which are what they add to them.
  for (const k of ["document", "judge", "variant", "query", "documentJudge"] as const) {
    const target = difference.components[k] ?? 0;
    const implied = (rho: number) =>
      differenceEffects({ a: ma, b: mb, correlations: { ...correlations, [k]: rho } }, tables)[
        k
      ] as number;
    if (sdOf(ma, k) === 0 || sdOf(mb, k) === 0) {
      // No pair to correlate: the difference's component is the other system's alone.
      if (Math.abs(implied(0) - target) > 1e-9 + 1e-6 * target) clipped.push(k);
      continue;
    }
    if (implied(1) > target || implied(-1) < target) {
      correlations[k] = implied(1) > target ? 1 : -1;
      clipped.push(k);
      continue;
    }
    let low = -1;
    let high = 1;
    // 32 halvings: the correlation to 5e-10.
    for (let i = 0; i < 32; i++) {
      const middle = (low + high) / 2;
      if (implied(middle) > target) low = middle;
      else high = middle;
    }
    correlations[k] = (low + high) / 2;
  }
  let sharedTrial = 0;
  if (!options.independentResidual) {
    const effects = differenceEffects({ a: ma, b: mb, correlations }, tables);
    let explained = 0;
    for (const v of Object.values(effects)) explained += v as number;
    const { independent, shared } = trialPieces({ a: ma, b: mb, correlations });
    const wanted =
      shared > 0
        ? (independent - explained - (difference.components.residual ?? 0)) / (2 * shared)
        : 0;
    sharedTrial = Math.min(1, Math.max(0, wanted));
    if (Math.abs(sharedTrial - wanted) > 1e-9) clipped.push("residual");
  }
  return {
    model: { kind: "paired-logit-normal", a: ma, b: mb, correlations, sharedTrial },
    clipped,
  };
}
