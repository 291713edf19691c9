import type { GateDecision } from "../core/gate.js";

/**
 * How the checks' p-values were combined: Holm's step-down adjustment (--fail-if-worse with
 * several checks), an intersection–union test needing no adjustment (--require-noninferior with
 * several), or none (one check).
 */
export function gateAdjustment(decision: GateDecision): "holm" | "intersection-union" | "none" {
  if (decision.checks.length < 2) return "none";
  return decision.rule === "fail-if-worse" ? "holm" : "intersection-union";
}

/**
 * The regression gate's decision in compare's JSON: the rule, how its checks were adjusted,
 * one check (verdict, p and adjusted p, the test of candidate − baseline) per metric ×
 * candidate, and the exit code it gives the command (1: the build fails).
 */
export function gateJson(decision: GateDecision): Record<string, unknown> {
  return {
    rule: decision.rule,
    margin: decision.margin,
    estimand: decision.estimand,
    level: decision.level,
    alpha: decision.alpha,
    adjustment: gateAdjustment(decision),
    failed: decision.failed,
    exitCode: decision.failed ? 1 : 0,
    checks: decision.checks.map((c) => ({
      metric: c.metric,
      baseline: c.baseline,
      candidate: c.candidate,
      lowerIsBetter: c.lowerIsBetter,
      documents: c.documents,
      test: c.test,
      p: c.p,
      adjustedP: c.adjustedP,
      verdict: c.verdict,
      ...(c.recommendationWithheld ? { recommendationWithheld: c.recommendationWithheld } : {}),
      fails: c.fails,
    })),
  };
}
