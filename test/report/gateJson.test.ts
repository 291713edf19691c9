import { describe, expect, it } from "vitest";
import type { GateCheck, GateDecision } from "../../src/core/gate.js";
import { gateJson } from "../../src/report/gateJson.js";

/** A check as decideGate builds it (hand-written: only the fields gateJson copies matter). */
function check(candidate: string, fails: boolean): GateCheck {
  return {
    metric: "hit5",
    baseline: "bm25",
    candidate,
    lowerIsBetter: false,
    test: null,
    documents: 98,
    p: 0.01,
    adjustedP: 0.02,
    verdict: fails ? "not-noninferior" : "noninferior",
    fails,
  };
}

function decision(rule: GateDecision["rule"], checks: GateCheck[]): GateDecision {
  return {
    rule,
    margin: 0.02,
    estimand: "micro",
    level: 0.95,
    alpha: 0.025,
    checks,
    failed: checks.some((c) => c.fails),
  };
}

describe("the gate's decision in compare --json", () => {
  it("names how the checks were combined: Holm, intersection–union, or none for one check", () => {
    const two = [check("tfidf", false), check("dense", false)];
    expect(gateJson(decision("fail-if-worse", two)).adjustment).toBe("holm");
    expect(gateJson(decision("noninferior", two)).adjustment).toBe("intersection-union");
    expect(gateJson(decision("fail-if-worse", two.slice(0, 1))).adjustment).toBe("none");
    expect(gateJson(decision("noninferior", two.slice(0, 1))).adjustment).toBe("none");
  });

  it("gives the exit code the gate sets, and every check's fields", () => {
    const failing = decision("noninferior", [check("tfidf", false), check("dense", true)]);
    const json = gateJson(failing);
    expect(json).toMatchObject({ rule: "noninferior", failed: true, exitCode: 1 });
    expect(json.checks).toEqual(failing.checks);
    expect(gateJson(decision("noninferior", [check("tfidf", false)])).exitCode).toBe(0);
  });
});
