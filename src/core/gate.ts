import type { DifferenceTest } from "./compare.js";
import { holmAdjust } from "./compare.js";
import type { MetricComparisons } from "./compareMetric.js";
import { optionRef, RagciError } from "./errors.js";
import { validateLevel } from "./intervals/level.js";
import { tTwoSidedPValue } from "./numeric/distributions.js";
import type { RecommendationWithheld } from "./recommendationWithheld.js";
import type { Estimand } from "./types.js";

/**
 * fail-if-worse: fail when a candidate is shown worse than the baseline by more than the margin.
 * noninferior: fail unless every candidate is shown no worse than the baseline by the margin.
 */
export type GateRule = "fail-if-worse" | "noninferior";

export interface GateOptions {
  readonly rule: GateRule;
  /** d ≥ 0, in the metric's units: "worse" means below −d (above +d when lower is better). */
  readonly margin: number;
  readonly estimand: Estimand;
  /** The baseline every candidate is compared with (the a of each pair b − a). */
  readonly baseline: string;
  /** Metrics for which a lower value is better (every other metric: higher is better). */
  readonly lowerIsBetter?: readonly string[];
}

/**
 * worse: shown worse beyond the margin (fails fail-if-worse); not-worse: not shown worse;
 * noninferior: shown no worse than the margin; not-noninferior: not shown so (fails
 * noninferior); untested: the recommended interval has no se or ν (no decision possible);
 * inconclusive: ragci withholds its recommendation for the pair's difference (fewer than 8
 * documents differ), so no interval it stands behind decides: it fails noninferior (nothing is
 * shown noninferior) and not fail-if-worse (nothing is shown worse), as untested.
 */
export type GateVerdict =
  | "worse"
  | "not-worse"
  | "noninferior"
  | "not-noninferior"
  | "untested"
  | "inconclusive";

/** One candidate against the baseline on one metric, oriented so that higher is better. */
export interface GateCheck {
  readonly metric: string;
  readonly baseline: string;
  readonly candidate: string;
  readonly lowerIsBetter: boolean;
  /** The test of candidate − baseline as compare reports it (not reoriented); null when none. */
  readonly test: DifferenceTest | null;
  /** Documents (K) of the pair. */
  readonly documents: number;
  /**
   * One-sided p of "the candidate is not worse than −d" (fail-if-worse) or of "the candidate
   * is worse than −d" (noninferior), from t = (estimate ± d)/se with the test's ν.
   */
  readonly p: number | null;
  /** fail-if-worse: Holm's adjustment of p over every check; noninferior: p itself. */
  readonly adjustedP: number | null;
  readonly verdict: GateVerdict;
  /** Why the verdict is inconclusive: the difference's withheld recommendation. */
  readonly recommendationWithheld?: RecommendationWithheld;
  /** Whether this check makes the gate fail. */
  readonly fails: boolean;
}

export interface GateDecision {
  readonly rule: GateRule;
  readonly margin: number;
  readonly estimand: Estimand;
  readonly level: number;
  /** The one-sided error rate each decision is taken at: (1 − level)/2. */
  readonly alpha: number;
  readonly checks: readonly GateCheck[];
  /** Whether the build should fail (exit 1). */
  readonly failed: boolean;
}

/**
 * P(T_ν < t): the lower tail of Student's t, from the two-sided p-value core already has.
 */
function lowerTail(t: number, df: number): number {
  const two = tTwoSidedPValue(t, df);
  return t < 0 ? two / 2 : 1 - two / 2;
}

/**
 * The one-sided p-value of a check, with the difference oriented so that higher is better
 * (δ = candidate − baseline, or baseline − candidate when lower is better):
 * - fail-if-worse tests H0 δ ≥ −d against δ < −d: p = P(T_ν < (δ̂ + d)/se);
 * - noninferior tests H0 δ ≤ −d against δ > −d: p = P(T_ν > (δ̂ + d)/se).
 * With the two-sided level-L t interval δ̂ ± t_ν·se, p < (1 − L)/2 exactly when its upper bound
 * is below −d (fail-if-worse) or its lower bound above −d (noninferior). A difference with
 * se = 0 (the same difference on every document) is decided by its point interval: p is 0 or 1.
 */
function oneSidedP(estimate: number, se: number, df: number, margin: number, rule: GateRule) {
  const shifted = estimate + margin;
  if (se === 0) {
    const below = shifted < 0;
    const above = shifted > 0;
    return rule === "fail-if-worse" ? (below ? 0 : 1) : above ? 0 : 1;
  }
  const lower = lowerTail(shifted / se, df);
  return rule === "fail-if-worse" ? lower : 1 - lower;
}

/**
 * The gate's decision from compare's results (SPEC §1, §3: the recommended interval of each
 * pair's per-document differences, candidate − baseline, for the chosen estimand).
 *
 * Multiplicity, over every metric × candidate pair (m checks):
 * - fail-if-worse fails when any check is shown worse, so a false failure is a familywise
 *   error: Holm's step-down adjustment of the one-sided p-values (valid under any dependence
 *   between metrics and pairs) keeps it ≤ (1 − L)/2. With one check it is the rule itself:
 *   the level-L interval lies entirely below −d.
 * - noninferior passes only when every check is shown noninferior: an intersection–union test
 *   (Berger 1982), whose false pass rate is ≤ (1 − L)/2 without adjustment, since passing needs
 *   each one-sided test to pass at that rate. Each check: the level-L interval's lower bound is
 *   above −d.
 * A check without a test (no se or ν) is "untested": it cannot fail fail-if-worse (nothing is
 * shown), and it fails noninferior (nothing is shown either). A check whose difference has its
 * recommendation withheld (recommendationWithheld.ts) is "inconclusive", decided the same way:
 * its p is still computed and counted in Holm's family, but no verdict is drawn from it.
 *
 * @throws RagciError when a metric to orient is not compared, or the margin is not ≥ 0
 * @example // compare's results cut to the fields read; p = P(T₁₀ < (−0.05 + 0.02)/0.01) = R's pt(-3, 10)
 *   decideGate([{ metric: "hit", comparisons: [{ a: "base", b: "new", tests: { micro: { estimate: -0.05, se: 0.01, df: 10 } }, difference: { documents: 40 } }] }], 0.95, { rule: "fail-if-worse", margin: 0.02, estimand: "micro", baseline: "base" })
 *   // => { alpha: 0.02500, checks: [{ candidate: "new", p: 0.006672, adjustedP: 0.006672, verdict: "worse", fails: true }], failed: true }
 */
export function decideGate(
  results: readonly MetricComparisons[],
  level: number,
  options: GateOptions,
): GateDecision {
  validateLevel(level);
  const { rule, margin, estimand } = options;
  if (!(Number.isFinite(margin) && margin >= 0)) {
    throw new RagciError(
      "invalid-option",
      `margin ${margin}: give the largest loss accepted, a number ≥ 0 in the metric's units (e.g. 0.02)`,
    );
  }
  const lowerIsBetter = new Set(options.lowerIsBetter ?? []);
  for (const metric of lowerIsBetter) {
    if (!results.some((r) => r.metric === metric)) {
      throw new RagciError(
        "invalid-option",
        `${metric} is named as lower-is-better but is not compared: name the metrics as the report does (${results.map((r) => r.metric).join(", ")}; ${optionRef("metric")})`,
      );
    }
  }
  const alpha = (1 - level) / 2;
  const pending = results.flatMap((r) =>
    r.comparisons.map((c) => {
      if (c.a !== options.baseline) {
        throw new RagciError(
          "invalid-option",
          `the gate's baseline is ${options.baseline}, but ${r.metric}'s pair ${c.b} − ${c.a} is against ${c.a}: compare each candidate against the baseline (comparisonPairs with { baseline })`,
        );
      }
      const test = c.tests[estimand] ?? null;
      const flip = lowerIsBetter.has(r.metric);
      const p =
        test === null
          ? null
          : oneSidedP(flip ? -test.estimate : test.estimate, test.se, test.df, margin, rule);
      const withheld = c.difference[estimand]?.recommendationWithheld;
      return {
        metric: r.metric,
        baseline: c.a,
        candidate: c.b,
        lowerIsBetter: flip,
        test,
        documents: c.difference.documents,
        p,
        ...(withheld ? { recommendationWithheld: withheld } : {}),
      };
    }),
  );
  const tested = pending.flatMap((c, i) => (c.p === null ? [] : [{ i, p: c.p }]));
  const adjusted = new Map<number, number>();
  if (rule === "fail-if-worse") {
    holmAdjust(tested.map((t) => t.p)).forEach((p, j) => {
      adjusted.set((tested[j] as { i: number }).i, p);
    });
  } else {
    for (const t of tested) adjusted.set(t.i, t.p);
  }
  const checks: GateCheck[] = pending.map((c, i) => {
    const adjustedP = adjusted.get(i) ?? null;
    const shown = adjustedP !== null && adjustedP < alpha;
    const verdict: GateVerdict = c.recommendationWithheld
      ? "inconclusive"
      : adjustedP === null
        ? "untested"
        : rule === "fail-if-worse"
          ? shown
            ? "worse"
            : "not-worse"
          : shown
            ? "noninferior"
            : "not-noninferior";
    const fails =
      rule === "fail-if-worse"
        ? verdict === "worse"
        : verdict === "not-noninferior" || verdict === "untested" || verdict === "inconclusive";
    return { ...c, adjustedP, verdict, fails };
  });
  return {
    rule,
    margin,
    estimand,
    level,
    alpha,
    checks,
    failed: checks.some((c) => c.fails),
  };
}
