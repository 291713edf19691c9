import { RagciError } from "../errors.js";
import type { FacetCells, FacetComponent } from "../facets/facetCells.js";
import { type VarianceComponents, varianceComponents } from "../facets/varianceComponents.js";
import { expit, logit } from "../numeric/distributions.js";

/** The random effects of a generating model (the residual is trial noise, or Bernoulli's). */
export type FacetEffect = Exclude<FacetComponent, "residual">;

const EFFECTS: readonly FacetEffect[] = [
  "document",
  "query",
  "judge",
  "documentJudge",
  "variant",
] as const;

/**
 * Gaussian on the metric's scale: y = μ + a_document + b_query + c_judge + e_document×judge
 * + f_variant + ε_trial, each effect N(0, its variance): lme4's model itself, so the fitted
 * components estimate exactly these variances.
 */
export interface GaussianFacetModel {
  readonly kind: "gaussian";
  readonly mean: number;
  /** Variance of each effect and of the trial noise (`residual`); absent = 0. */
  readonly variances: Partial<Record<FacetComponent, number>>;
}

/**
 * Logit-normal for 0/1 metrics: each trial is Bernoulli(p) with
 * logit p = α + a_document + b_query + c_judge + e_document×judge + f_variant, the effects
 * N(0, sd²) on the logit scale. The residual is Bernoulli's own.
 */
export interface LogitNormalFacetModel {
  readonly kind: "logit-normal";
  /** α on the logit scale. */
  readonly intercept: number;
  /** Standard deviation of each effect on the logit scale; absent = 0. */
  readonly sds: Partial<Record<FacetEffect, number>>;
}

export type FacetModel = GaussianFacetModel | LogitNormalFacetModel;

/** The largest logit-scale sd the calibration gives an effect (logitNormalFromComponents). */
export const MAX_LOGIT_SD = 10;

// A standard normal on a grid of step 0.1 over [−8, 8]: the trapezoid rule on a Gaussian
// integrand is accurate far beyond what a coverage study needs.
const NODES = Float64Array.from({ length: 161 }, (_, i) => -8 + 0.1 * i);
const WEIGHTS = (() => {
  const w = NODES.map((z) => Math.exp((-z * z) / 2));
  const total = w.reduce((a, b) => a + b, 0);
  return w.map((x) => x / total);
})();

/** E[expit(x + r Z)], Z ~ N(0, 1). */
export function meanExpit(x: number, r: number): number {
  if (r === 0) return expit(x);
  let total = 0;
  for (let i = 0; i < NODES.length; i++)
    total += (WEIGHTS[i] as number) * expit(x + r * (NODES[i] as number));
  return total;
}

/** Var_W[E[expit(α + s W + r Z) | W]], W, Z ~ N(0, 1): the variance an effect of sd s explains. */
function explained(alpha: number, s: number, r: number): number {
  if (s === 0) return 0;
  let m1 = 0;
  let m2 = 0;
  for (let i = 0; i < NODES.length; i++) {
    const g = meanExpit(alpha + s * (NODES[i] as number), r);
    m1 += (WEIGHTS[i] as number) * g;
    m2 += (WEIGHTS[i] as number) * g * g;
  }
  return Math.max(0, m2 - m1 * m1);
}

/**
 * The mean of the generating model over every population it draws from — documents, queries,
 * judges, document × judge pairs, wordings and trials: the estimand of the population interval
 * (judges and wordings drawn from a population). μ for the Gaussian model; E[expit(α + S Z)]
 * with S² the sum of the logit-scale variances for the logit-normal one.
 *
 * @example facetModelTruth({ kind: "logit-normal", intercept: 1, sds: { document: 1 } })
 *   // => 0.69673
 */
export function facetModelTruth(model: FacetModel): number {
  if (model.kind === "gaussian") return model.mean;
  return meanExpit(model.intercept, Math.sqrt(totalLogitVariance(model.sds)));
}

function totalLogitVariance(sds: Partial<Record<FacetEffect, number>>): number {
  let total = 0;
  for (const k of EFFECTS) total += (sds[k] ?? 0) ** 2;
  return total;
}

/**
 * The components on the metric's scale that a model implies: the Gaussian model's variances;
 * for the logit-normal one the variance each effect explains of the 0/1 outcome (a main effect:
 * Var E[y | effect]; query and document × judge: what they add to the document's and the
 * judge's), and the residual the rest of p(1 − p), the Bernoulli noise and the nonlinearity's
 * interactions. These are what a large balanced evaluation's REML fit estimates.
 *
 * @example facetModelComponents({ kind: "logit-normal", intercept: 0, sds: { document: 0.5, judge: 0.5 } }).judge
 *   // => 0.012632
 */
export function facetModelComponents(model: FacetModel): Partial<Record<FacetComponent, number>> {
  if (model.kind === "gaussian") return { ...model.variances };
  const { intercept: alpha, sds } = model;
  const v = (k: FacetEffect) => (sds[k] ?? 0) ** 2;
  const total = totalLogitVariance(sds);
  const rest = (inside: number) => Math.sqrt(Math.max(0, total - inside));
  const part = (inside: number) => explained(alpha, Math.sqrt(inside), rest(inside));
  const document = part(v("document"));
  const judge = part(v("judge"));
  const out: Partial<Record<FacetComponent, number>> = {
    document,
    query: Math.max(0, part(v("document") + v("query")) - document),
    judge,
    documentJudge: Math.max(
      0,
      part(v("document") + v("judge") + v("documentJudge")) - document - judge,
    ),
    variant: part(v("variant")),
  };
  const m = facetModelTruth(model);
  let explainedTotal = 0;
  for (const k of EFFECTS) explainedTotal += out[k] as number;
  out.residual = Math.max(0, m * (1 - m) - explainedTotal);
  return out;
}

/**
 * The logit-normal model whose mean and metric-scale components (facetModelComponents) match
 * given ones: started from the delta method (sd_logit = sd / (m(1 − m))), then each sd scaled
 * by √(target / implied) and α moved to the mean (60 rounds), then α solved for the mean alone.
 * The mean is matched exactly; the components as closely as 60 rounds and logit sds ≤ 10 allow
 * (a pilot whose queries are almost all-or-nothing needs a large query sd); the residual is
 * Bernoulli's and not matched. Effects given as 0 or absent stay 0.
 */
export function logitNormalFromComponents(
  mean: number,
  components: Partial<Record<FacetComponent, number>>,
): LogitNormalFacetModel {
  const m = mean;
  const slope = m * (1 - m);
  const sds: Partial<Record<FacetEffect, number>> = {};
  for (const k of EFFECTS) {
    const target = components[k];
    if (target !== undefined && target > 0)
      sds[k] = Math.min(MAX_LOGIT_SD, Math.sqrt(target) / slope);
  }
  let model: LogitNormalFacetModel = { kind: "logit-normal", intercept: logit(m), sds };
  for (let round = 0; round < 60; round++) {
    const implied = facetModelComponents(model);
    const next: Partial<Record<FacetEffect, number>> = {};
    for (const k of EFFECTS) {
      const sd = model.sds[k];
      if (sd === undefined) continue;
      const have = implied[k] as number;
      const target = components[k] as number;
      next[k] = Math.min(MAX_LOGIT_SD, have > 0 ? sd * Math.sqrt(target / have) : 2 * sd);
    }
    const shifted = logit(m) - logit(facetModelTruth({ ...model, sds: next }));
    model = { kind: "logit-normal", intercept: model.intercept + shifted, sds: next };
  }
  // Last, α alone (the mean rises with α): the model's mean is the pilot's to 1e-12.
  const { sds: fitted } = model;
  const truth = (alpha: number) =>
    facetModelTruth({ kind: "logit-normal", intercept: alpha, sds: fitted });
  let low = model.intercept - 30;
  let high = model.intercept + 30;
  for (let i = 0; i < 100 && high - low > 1e-12; i++) {
    const middle = (low + high) / 2;
    if (truth(middle) < m) low = middle;
    else high = middle;
  }
  return { kind: "logit-normal", intercept: (low + high) / 2, sds: fitted };
}

/** Whether every cell's trials are 0/1: integer sums in [0, n] with W = s − s²/n. */
export function binaryCells(cells: FacetCells): boolean {
  for (let c = 0; c < cells.n.length; c++) {
    const n = cells.n[c] as number;
    const s = cells.sum[c] as number;
    if (!Number.isInteger(s) || s < 0 || s > n) return false;
    if (Math.abs((cells.withinSumOfSquares[c] as number) - (s - (s * s) / n)) > 1e-9 * n)
      return false;
  }
  return true;
}

/** A pilot's generating model: the model, the pilot's fit, and why this model. */
export interface PilotFacetModel {
  readonly model: FacetModel;
  /** The pilot's REML components and mean (varianceComponents). */
  readonly pilot: VarianceComponents;
}

/**
 * The generating model of a faceted pilot: its REML components and intercept, as a Gaussian
 * model on the metric's scale, or — the default for a 0/1 metric — a logit-normal model
 * calibrated to the same mean and components (logitNormalFromComponents).
 *
 * @throws RagciError "invalid-value" for a 0/1 pilot whose mean is 0 or 1 under the
 *   logit-normal model (no logit to start from); as varianceComponents otherwise
 */
export function facetModelFromPilot(
  cells: FacetCells,
  options: { readonly kind?: FacetModel["kind"] | undefined } = {},
): PilotFacetModel {
  const pilot = varianceComponents(cells);
  const kind = options.kind ?? (binaryCells(cells) ? "logit-normal" : "gaussian");
  if (kind === "gaussian")
    return { model: { kind, mean: pilot.mean, variances: { ...pilot.components } }, pilot };
  if (!(pilot.mean > 0 && pilot.mean < 1))
    throw new RagciError(
      "invalid-value",
      `the pilot's mean is ${pilot.mean}: a logit-normal model needs a 0/1 metric with some 0s and some 1s; simulate with the Gaussian model instead`,
    );
  return { model: logitNormalFromComponents(pilot.mean, pilot.components), pilot };
}
