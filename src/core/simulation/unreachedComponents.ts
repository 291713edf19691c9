import { type FacetComponent, facetComponentName } from "../facets/facetCells.js";
import { type FacetEffect, type LogitNormalFacetModel, MAX_LOGIT_SD } from "./facetModel.js";

/** A pilot's component that its calibrated logit-normal model does not reach. */
export interface UnreachedComponent {
  readonly component: FacetEffect;
  /** The pilot's REML component. */
  readonly pilot: number;
  /** The model's component on the metric's scale (facetModelComponents). */
  readonly model: number;
  /** The model's logit-scale sd of that effect (0 when absent). */
  readonly sd: number;
}

/**
 * How far a model's component may sit from the pilot's before a note says so: 10% of the
 * pilot's, a 5% gap in sd and in interval width, about the sampling error of the pilot's own
 * components (a variance from n units has a relative standard error of at least √(2/n): 14% for
 * the COVID-QA pilot's 98 documents, 8% for its 294 document × judge pairs), and above the 2–3%
 * BM25's components fall short there with its query sd held at the cap; and at least 1e-6 (an sd
 * of 0.001 on the 0/1 scale), for components at or near 0, where a relative gap means nothing.
 */
export const UNREACHED_TOLERANCE = { relative: 0.1, absolute: 1e-6 } as const;

const EFFECTS: readonly FacetEffect[] = ["document", "query", "judge", "documentJudge", "variant"];

/**
 * The effects whose model component differs from the pilot's by more than UNREACHED_TOLERANCE
 * (both the relative and the absolute gap): the ones a logit-normal calibration
 * (logitNormalFromComponents) could not reach. Components the pilot has no facet for are skipped;
 * the residual is Bernoulli's and never matched.
 */
export function unreachedComponents(
  pilot: Partial<Record<FacetComponent, number>>,
  modelComponents: Partial<Record<FacetComponent, number>>,
  model: LogitNormalFacetModel,
): UnreachedComponent[] {
  const out: UnreachedComponent[] = [];
  for (const k of EFFECTS) {
    const target = pilot[k];
    if (target === undefined) continue;
    const have = modelComponents[k] ?? 0;
    const gap = Math.abs(have - target);
    if (gap > UNREACHED_TOLERANCE.relative * target && gap > UNREACHED_TOLERANCE.absolute)
      out.push({ component: k, pilot: target, model: have, sd: model.sds[k] ?? 0 });
  }
  return out;
}

/** A value as the notes print it: three significant digits. */
export const noteNumber = (x: number): string =>
  x !== 0 && Math.abs(x) < 1e-4 ? x.toExponential(2) : x.toPrecision(3);

/**
 * Why the model's component is not the pilot's, in words: above it, the logistic curve's
 * interaction (the other effects alone give that much on the 0/1 scale, its own sd calibrated
 * toward 0); below it, the sd cap, or else the calibration's rounds ending short.
 */
function reason(u: UnreachedComponent): string {
  if (u.model > u.pilot)
    return `on the 0/1 scale the logistic curve makes the effects interact, so the model's other effects give it that much even with its own logit-scale sd calibrated down to ${noteNumber(u.sd)}`;
  if (u.sd >= MAX_LOGIT_SD)
    return `its logit-scale sd is at the calibration's limit of ${MAX_LOGIT_SD}`;
  return "the logistic curve ties the effects' components together and the calibration ends short of it";
}

/** How a note names the model and the fit, and what the gap means for the study. */
export interface UnreachedWording {
  readonly model: string;
  readonly pilot: string;
  readonly consequence: string;
}

// One system's study: the study simulates the model, so its fits face the model's component,
// and its mean, the estimand, is still the pilot's.
const ONE_SYSTEM: UnreachedWording = {
  model: "the logit-normal model",
  pilot: "the pilot's REML",
  consequence:
    "the study draws its evaluations from the model, with the model's component (see the components table), and its estimand is the model's mean, which is the pilot's",
};

/** The note for one unreached component: which, the pilot's and the model's value, and why. */
export function unreachedNote(u: UnreachedComponent, wording = ONE_SYSTEM): string {
  return `the ${facetComponentName(u.component)} component of ${wording.model} is ${noteNumber(u.model)} where ${wording.pilot} gives ${noteNumber(u.pilot)} (more than ${100 * UNREACHED_TOLERANCE.relative}% apart): ${reason(u)}; ${wording.consequence}`;
}
