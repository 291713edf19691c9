import { RagciError } from "../errors.js";
import { validateLevel } from "../intervals/level.js";
import { tQuantile } from "../numeric/distributions.js";
import type { FacetComponent } from "./facetCells.js";

/** A balanced design: documents, queries per document, reruns per (query, judge), judges. */
export interface FacetDesign {
  readonly documents: number;
  readonly queries: number;
  readonly trials: number;
  readonly judges: number;
}

/** Per-unit costs: a document, a query, one rerun (a generation), one judge grading one answer. */
export interface FacetCosts {
  readonly document: number;
  readonly query: number;
  readonly trial: number;
  readonly judge: number;
}

export interface FacetPlanInput {
  /** Variance components (a pilot's varianceComponents().components). */
  readonly components: Partial<Record<FacetComponent, number>>;
  readonly costs: FacetCosts;
  /** Confidence level, default 0.95. */
  readonly level?: number;
  /** Upper bounds of the search (defaults: 10⁶ documents, 50 queries, 20 reruns, 20 judges). */
  readonly limits?: Partial<FacetDesign>;
}

/** A design with its cost, variance of the mean, Satterthwaite ν and half-width. */
export interface FacetPlan extends FacetDesign {
  readonly cost: number;
  readonly variance: number;
  readonly df: number;
  readonly halfWidth: number;
}

function component(input: FacetPlanInput, k: FacetComponent): number {
  const v = input.components[k] ?? 0;
  if (!(Number.isFinite(v) && v >= 0))
    throw new RagciError(
      "invalid-option",
      `variance component ${k} = ${v} must be a finite number ≥ 0`,
    );
  return v;
}

/** Cost of a design: D c_doc + DQ c_query + DQT c_trial + DQTJ c_judge. */
export function facetDesignCost(design: FacetDesign, costs: FacetCosts): number {
  const { documents: d, queries: q, trials: t, judges: j } = design;
  return (
    d * costs.document + d * q * costs.query + d * q * t * costs.trial + d * q * t * j * costs.judge
  );
}

/**
 * The planned half-width of a balanced design with judges random: with the expected mean
 * squares of the balanced ANOVA (N = DQJT observations)
 *   M_D = σ²_e + JT σ²_Q + QT σ²_DJ + QJT σ²_D,  M_J = σ²_e + QT σ²_DJ + DQT σ²_J,
 *   M_DJ = σ²_e + QT σ²_DJ,
 * var(mean) = (M_D + M_J − M_DJ)/N and Satterthwaite's ν for that combination,
 *   ν = (M_D + M_J − M_DJ)² / (M_D²/(D−1) + M_J²/(J−1) + M_DJ²/((D−1)(J−1))),
 * which is lmerTest's ν for the intercept on a balanced design (the test checks). Without a
 * judge facet (J = 1) var(mean) = M_D/N and ν = D − 1. half-width = t(1 − α/2; ν)·√var.
 *
 * @example // M_D = 0.013 + 0.005 + 3 × 0.057, M_J = 0.018 + 20 × 0.01, M_DJ = 0.018; N = 60
 *   facetPlanHalfWidth({ components: { document: 0.057, judge: 0.01, documentJudge: 0.005, residual: 0.013 }, costs: { document: 1, query: 1, trial: 1, judge: 1 } }, { documents: 20, queries: 1, trials: 1, judges: 3 })
 *   // => { cost: 120, variance: 0.0064833, df: 5.8993, halfWidth: 0.19784 }
 */
export function facetPlanHalfWidth(input: FacetPlanInput, design: FacetDesign): FacetPlan {
  const { documents: d, queries: q, trials: t, judges: j } = design;
  const level = validateLevel(input.level ?? 0.95);
  const e = component(input, "residual");
  const sq = component(input, "query");
  const sd = component(input, "document");
  const sj = component(input, "judge");
  const sdj = component(input, "documentJudge");
  const n = d * q * j * t;
  const md = e + j * t * sq + q * t * sdj + q * j * t * sd;
  let variance: number;
  let df: number;
  if (j >= 2) {
    const mj = e + q * t * sdj + d * q * t * sj;
    const mdj = e + q * t * sdj;
    const combined = md + mj - mdj;
    variance = combined / n;
    df = combined ** 2 / (md ** 2 / (d - 1) + mj ** 2 / (j - 1) + mdj ** 2 / ((d - 1) * (j - 1)));
  } else {
    variance = md / n;
    df = d - 1;
  }
  const halfWidth = tQuantile(1 - (1 - level) / 2, df) * Math.sqrt(variance);
  return { ...design, cost: facetDesignCost(design, input.costs), variance, df, halfWidth };
}

/** The search's upper bounds (input.limits, else the defaults); one judge when judges are fixed. */
function limits(input: FacetPlanInput, judgesRandom: boolean): FacetDesign {
  const l = input.limits ?? {};
  return {
    documents: l.documents ?? 1_000_000,
    queries: l.queries ?? 50,
    trials: l.trials ?? 20,
    judges: judgesRandom ? (l.judges ?? 20) : 1,
  };
}

/**
 * The bounds the searches use for this input (checked as they check it): a plan found at one of
 * them is the best within the bounds only, and a design beyond may cost less or be narrower.
 */
export function facetSearchLimits(input: FacetPlanInput): FacetDesign {
  return limits(input, validate(input));
}

/**
 * The facets at which a plan sits on the search's bound (judges only when judges are random):
 * where "cheapest" and "narrowest" mean "within the bounds".
 */
export function facetsAtLimit(
  plan: FacetDesign,
  bound: FacetDesign,
): ("documents" | "queries" | "trials" | "judges")[] {
  return (["documents", "queries", "trials", "judges"] as const).filter(
    (k) => plan[k] >= bound[k] && !(k === "judges" && bound.judges === 1),
  );
}

/** Refuses wordings and bad prices; whether judges are random (a judge component). */
function validate(input: FacetPlanInput): boolean {
  if ((input.components.variant ?? 0) > 0)
    throw new RagciError(
      "invalid-option",
      "planning across prompt wordings is not supported; plan on a fit without the variant facet",
    );
  for (const [k, v] of Object.entries(input.costs))
    if (!(Number.isFinite(v) && v >= 0))
      throw new RagciError("invalid-option", `cost of a ${k} = ${v} must be a finite number ≥ 0`);
  return input.components.judge !== undefined || input.components.documentJudge !== undefined;
}

/** Every (queries, trials, judges) within the limits, judges from 2 when judges are random. */
function* shapes(bound: FacetDesign, judgesRandom: boolean): Generator<[number, number, number]> {
  for (let j = judgesRandom ? 2 : 1; j <= bound.judges; j++)
    for (let q = 1; q <= bound.queries; q++)
      for (let t = 1; t <= bound.trials; t++) yield [q, t, j];
}

/**
 * The cheapest balanced design whose planned half-width is at most `target`, or null when none
 * within the limits reaches it. For each (queries, trials, judges) the half-width falls as
 * documents grow (var(mean) falls, ν grows), so the fewest documents is found by bisection.
 *
 * @example // searched up to 3 queries and 3 reruns (20 judges); a search of every design costing at
 *   // most 546 with the default limits (R, every D, no bisection) finds the same
 *   cheapestFacetPlan({ components: { document: 0.057, judge: 0.01, documentJudge: 0.005, residual: 0.013 }, costs: { document: 1, query: 1, trial: 1, judge: 1 }, limits: { queries: 3, trials: 3 } }, 0.1)
 *   // => { documents: 39, queries: 1, trials: 1, judges: 11, cost: 546, halfWidth: 0.09937 }
 */
export function cheapestFacetPlan(input: FacetPlanInput, target: number): FacetPlan | null {
  return cheapestShape(
    input,
    (design) => facetPlanHalfWidth(input, design),
    (plan) => plan.halfWidth <= target,
    (plan) => plan.halfWidth,
  );
}

/**
 * The cheapest balanced design whose plan `reaches` its target (ties in cost: the smaller
 * `margin`), or null when none within the limits does. A plan that reaches it at D documents
 * reaches it at every larger D, so for each (queries, trials, judges) the fewest documents is
 * found by bisection; a shape that cannot reach it at the best cost found so far cannot beat it,
 * so it costs one evaluation, at the most documents that cost buys.
 */
export function cheapestShape<P extends FacetPlan>(
  input: FacetPlanInput,
  planAt: (design: FacetDesign) => P,
  reaches: (plan: P) => boolean,
  margin: (plan: P) => number,
): P | null {
  const judgesRandom = validate(input);
  const bound = limits(input, judgesRandom);
  let best: P | null = null;
  for (const [q, t, j] of shapes(bound, judgesRandom)) {
    const at = (d: number) => planAt({ documents: d, queries: q, trials: t, judges: j });
    if (best !== null) {
      const perDocument = facetDesignCost(
        { documents: 1, queries: q, trials: t, judges: j },
        input.costs,
      );
      // (1 + 1e-12): a cost that divides exactly must not round one document down.
      const affordable =
        perDocument > 0 ? Math.floor((best.cost / perDocument) * (1 + 1e-12)) : bound.documents;
      if (affordable < 2 || !reaches(at(Math.min(affordable, bound.documents)))) continue;
    }
    if (!reaches(at(bound.documents))) continue;
    let lo = 2;
    let hi = bound.documents;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (reaches(at(mid))) hi = mid;
      else lo = mid + 1;
    }
    const plan = at(lo);
    if (
      best === null ||
      plan.cost < best.cost ||
      (plan.cost === best.cost && margin(plan) < margin(best))
    )
      best = plan;
  }
  return best;
}

/**
 * The narrowest balanced design whose cost is at most `budget`, or null when no design within
 * the limits (two documents at least) is affordable. For each (queries, trials, judges) the
 * most documents the budget buys is the narrowest.
 *
 * @example // a search of every design costing at most 200 (R, every D) finds the same
 *   narrowestFacetPlan({ components: { document: 0.057, judge: 0.01, documentJudge: 0.005, residual: 0.013 }, costs: { document: 1, query: 1, trial: 1, judge: 1 } }, 200)
 *   // => { documents: 20, queries: 1, trials: 1, judges: 7, cost: 200, halfWidth: 0.13757 }
 */
export function narrowestFacetPlan(input: FacetPlanInput, budget: number): FacetPlan | null {
  const judgesRandom = validate(input);
  const bound = limits(input, judgesRandom);
  let best: FacetPlan | null = null;
  for (const [q, t, j] of shapes(bound, judgesRandom)) {
    const perDocument = facetDesignCost(
      { documents: 1, queries: q, trials: t, judges: j },
      input.costs,
    );
    const d = Math.min(
      bound.documents,
      perDocument > 0 ? Math.floor(budget / perDocument) : bound.documents,
    );
    if (d < 2) continue;
    const plan = facetPlanHalfWidth(input, { documents: d, queries: q, trials: t, judges: j });
    if (
      best === null ||
      plan.halfWidth < best.halfWidth ||
      (plan.halfWidth === best.halfWidth && plan.cost < best.cost)
    )
      best = plan;
  }
  return best;
}
