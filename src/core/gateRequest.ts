import type { MetricComparisons } from "./compareMetric.js";
import { optionRef, RagciError } from "./errors.js";
import { decideGate, type GateDecision, type GateOptions } from "./gate.js";
import type { Estimand } from "./types.js";

/** A regression gate as asked for: one rule, its margin, the baseline, the metrics' directions. */
export interface GateRequest {
  readonly failIfWorse?: boolean;
  readonly requireNoninferior?: boolean;
  readonly margin?: number;
  readonly lowerIsBetter?: string[];
  readonly baseline?: string;
  readonly estimand?: Estimand;
  /** The metrics as they were asked for (lowerIsBetter names them so). */
  readonly metric?: string[];
}

/** The gate's options, with the metrics as they were asked for (for lowerIsBetter). */
export interface RequestedGate extends GateOptions {
  readonly requestedMetrics: readonly string[];
}

/**
 * The gate's estimand when none is asked for: micro, the rate of a random result (a query),
 * which is the number evaluation tools report (a pass rate, an accuracy, a mean hit@k over the
 * queries), so the gate guards the number people read. macro (the rate of a typical document)
 * is asked for when every document should weigh the same.
 */
export const GATE_DEFAULT_ESTIMAND: Estimand = "micro";

/**
 * The gate asked for, or null; checked before any file is read.
 *
 * @throws RagciError for a gate without a baseline, both rules, a margin or lowerIsBetter
 *   without a rule, or requireNoninferior without a margin
 */
export function gateOfRequest(request: GateRequest): RequestedGate | null {
  const [failIfWorse, requireNoninferior, margin] = (
    ["failIfWorse", "requireNoninferior", "margin"] as const
  ).map(optionRef);
  const rule = request.failIfWorse
    ? request.requireNoninferior
      ? null
      : "fail-if-worse"
    : request.requireNoninferior
      ? "noninferior"
      : undefined;
  if (rule === null) {
    throw new RagciError(
      "invalid-option",
      `choose one of ${failIfWorse} and ${requireNoninferior} (a noninferior candidate is never worse beyond the margin)`,
      { option: "requireNoninferior" },
    );
  }
  if (rule === undefined) {
    if (request.margin !== undefined || request.lowerIsBetter !== undefined) {
      const given = request.margin !== undefined ? "margin" : "lowerIsBetter";
      throw new RagciError(
        "invalid-option",
        `${optionRef(given)} belongs to the gate: add ${failIfWorse} or ${requireNoninferior}`,
        { option: given },
      );
    }
    return null;
  }
  const asked = rule === "fail-if-worse" ? failIfWorse : requireNoninferior;
  if (request.baseline === undefined) {
    throw new RagciError(
      "invalid-option",
      `${asked} needs the system the others are compared with: add ${optionRef("baseline")} SYSTEM (e.g. the main branch's run)`,
      { option: "baseline" },
    );
  }
  if (rule === "noninferior" && request.margin === undefined) {
    throw new RagciError(
      "invalid-option",
      `${requireNoninferior} needs ${margin} d, the largest loss accepted in the metric's units (e.g. ${margin} 0.02; ${margin} 0 asks the candidate to be shown better)`,
      { option: "margin" },
    );
  }
  return {
    rule,
    margin: request.margin ?? 0,
    estimand: request.estimand ?? GATE_DEFAULT_ESTIMAND,
    baseline: request.baseline,
    lowerIsBetter: request.lowerIsBetter ?? [],
    requestedMetrics: request.metric ?? [],
  };
}

/**
 * The requested gate's decision on a comparison's results: lowerIsBetter names the metrics as
 * they were asked for (hit@5), the results as the report names them (hit5).
 */
export function decideRequestedGate(
  results: readonly MetricComparisons[],
  level: number,
  gate: RequestedGate,
): GateDecision {
  const asReported = (name: string) => {
    const i = gate.requestedMetrics.indexOf(name);
    const sameOrder = results.length === gate.requestedMetrics.length;
    return i >= 0 && sameOrder ? (results[i] as MetricComparisons).metric : name;
  };
  const { requestedMetrics: _, ...options } = gate;
  return decideGate(results, level, {
    ...options,
    lowerIsBetter: (gate.lowerIsBetter ?? []).map(asReported),
  });
}
