import { optionRef, RagciError } from "../errors.js";
import type { FacetCells } from "../facets/facetCells.js";
import { type FacetPairPlan, facetPairPlan } from "../facets/facetPairPlan.js";
import { type FacetPilotPlan, facetPilotPlan } from "../facets/facetPilotPlan.js";
import type { FacetCosts } from "../facets/facetPlan.js";

/** What a plan is asked for: a target, and what to plan beside it (size strata, facets). */
export interface PlanRequest {
  readonly halfWidth?: number;
  readonly difference?: number;
  readonly level: number;
  /** A census and a size cutoff: also a size-stratified plan. */
  readonly census?: boolean;
  readonly cutoff?: number;
  /** Each unit's price: plan across reruns and judges (with trial and/or judge). */
  readonly cost?: FacetCosts;
  readonly budget?: number;
  /** A pair's plan to detect `difference`: the power wanted. */
  readonly power?: number;
  readonly trial?: string;
  readonly judge?: string;
}

const refuse = (message: string, option: Parameters<typeof optionRef>[0]) =>
  new RagciError("invalid-option", message, { option });

/**
 * A plan's request checked before its pilot or census is read (`read`: whether one is given):
 * a target (a half-width, or a non-zero difference for a pair, with a power of at least ½); a
 * cutoff only with a census and a half-width; a budget only with costs; costs only with a
 * faceted pilot.
 *
 * @throws RagciError naming the option to give
 */
export function checkPlanRequest(request: PlanRequest, read: boolean): void {
  const [halfWidth, difference, cutoff, census, url, cost] = (
    ["halfWidth", "difference", "cutoff", "census", "url", "cost"] as const
  ).map(optionRef);
  if (request.halfWidth === undefined && request.difference === undefined)
    throw refuse(`give ${halfWidth} w (or ${difference} d for a paired plan)`, "halfWidth");
  // No sample size detects a difference of 0, and below power ½ the test's own critical value
  // would have to shrink (requiredDocumentsToDetect refuses both too, after the reading).
  if (
    request.difference !== undefined &&
    !(request.difference !== 0 && Number.isFinite(request.difference))
  )
    throw refuse(
      `${difference} ${request.difference}: give a non-zero number, e.g. 0.03`,
      "difference",
    );
  if (request.power !== undefined && !(request.power >= 0.5 && request.power < 1))
    throw refuse(
      `${optionRef("power")} ${request.power}: give a power between 0.5 and 1, e.g. 0.8 or 80%`,
      "power",
    );
  if (request.cutoff !== undefined && !(read && request.census))
    throw refuse(
      `${cutoff} plans a stratified sample from a census: give the census file and ${census} (or ${url} and ${census})`,
      "census",
    );
  if (request.cutoff !== undefined && request.halfWidth === undefined)
    throw refuse(`${cutoff} needs the target ${halfWidth} w`, "halfWidth");
  if (request.budget !== undefined && request.cost === undefined)
    throw refuse(`${optionRef("budget")} is spent at ${cost}'s prices: give ${cost} too`, "cost");
  if (request.cost === undefined) return;
  if (!read) throw refuse(`${cost} plans from a faceted pilot: give the pilot file`, "cost");
  if (request.trial === undefined && request.judge === undefined)
    throw refuse(
      `${cost} plans across reruns and judges: name them with ${optionRef("trial")} and/or ${optionRef("judge")}`,
      "judge",
    );
}

const FACET_UNITS = ["document", "query", "trial", "judge"] as const;

/**
 * Each unit's price as FacetCosts: all four units, each a number ≥ 0 (`text` is how the prices
 * were written, for the message).
 *
 * @throws RagciError for an unknown unit, a price that is not a number ≥ 0, or a unit left out
 */
export function facetCosts(prices: readonly (readonly [string, number])[], text: string) {
  const cost = optionRef("cost");
  const costs: Record<string, number> = {};
  for (const [unit, price] of prices) {
    if (
      !FACET_UNITS.includes(unit as (typeof FACET_UNITS)[number]) ||
      !(price >= 0 && Number.isFinite(price))
    )
      throw refuse(
        `${cost} ${text}: give each unit's price as document=…,query=…,trial=…,judge=… (numbers ≥ 0)`,
        "cost",
      );
    // Two prices of one unit: which one was meant is not ours to guess.
    if (costs[unit] !== undefined)
      throw refuse(`${cost} ${text}: ${unit} is priced twice; give each unit once`, "cost");
    costs[unit] = price;
  }
  const missing = FACET_UNITS.filter((k) => costs[k] === undefined);
  if (missing.length)
    throw refuse(`${cost} ${text}: give ${missing.join(", ")} too (0 if free)`, "cost");
  return costs as unknown as FacetCosts;
}

/** One system × metric's facet cells from a pilot. */
export interface PilotFacetCells {
  /** null: the input has no system column. */
  readonly system: string | null;
  readonly metric: string;
  readonly cells: FacetCells;
}

/**
 * The faceted pilot's plan for a request with costs: one system's cells (judges drawn from a
 * population), or a pair's paired difference (facetPairPlan.ts), whose cells both systems give.
 *
 * @throws RagciError when the pilot gave no one system's cells, or not both of a pair's, or a
 *   single system is asked for a difference
 */
export function facetPlanOfPilot(
  pilot: { readonly cells: FacetCells | null; readonly systems: readonly PilotFacetCells[] },
  pair: { readonly a: string; readonly b: string; readonly metric: string } | null,
  request: PlanRequest & { readonly cost: FacetCosts },
): FacetPilotPlan | FacetPairPlan {
  const cost = optionRef("cost");
  if (pair) {
    const find = (system: string) =>
      pilot.systems.find((s) => s.system === system && s.metric === pair.metric);
    const a = find(pair.a);
    const b = find(pair.b);
    if (!a || !b)
      throw refuse(
        `${cost} on a pair plans from both systems' faceted cells: ${pair.a} and ${pair.b} in ${pair.metric} were not both read with ${optionRef("trial")} or ${optionRef("judge")}`,
        "judge",
      );
    const { level, halfWidth, difference, power, budget } = request;
    return facetPairPlan(
      { system: pair.a, cells: a.cells },
      { system: pair.b, cells: b.cells },
      { costs: request.cost, level, halfWidth, difference, power, budget },
    );
  }
  if (!pilot.cells)
    throw refuse(
      `${cost} plans from a faceted pilot of one system (${optionRef("system")} COL=ONE) or of a pair (${optionRef("system")} COL=A,B)`,
      "system",
    );
  if (request.halfWidth === undefined)
    throw refuse(
      `${cost} on one system plans for a half-width: give ${optionRef("halfWidth")} w (${optionRef("difference")} is for a pair)`,
      "halfWidth",
    );
  return facetPilotPlan(pilot.cells, {
    costs: request.cost,
    level: request.level,
    halfWidth: request.halfWidth,
    budget: request.budget,
  });
}
