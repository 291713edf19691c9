import { type Analysis, type AnalyzeOptions, analyze } from "./analyze.js";
import { differingDocuments } from "./diagnostics/differingDocuments.js";
import { RagciError } from "./errors.js";
import { tTwoSidedPValue } from "./numeric/distributions.js";
import { applyCensusStudy } from "./simulation/applyCensusStudy.js";
import type { StudyResult } from "./simulation/studySummary.js";
import type { DocumentStats, Estimand } from "./types.js";

export interface SystemInput {
  readonly name: string;
  readonly stats: DocumentStats;
}

export interface ComparisonInput {
  readonly a: SystemInput;
  readonly b: SystemInput;
  /** Per-document sums of the per-query differences b − a (same documents and queries). */
  readonly difference: DocumentStats;
  /** Number of queries whose two results differ; null when it is not known (per-document input of scores). */
  readonly queriesDiffering: number | null;
}

/** The test of "no difference" for one estimand, with the recommended method's se and ν. */
export interface DifferenceTest {
  readonly estimand: Estimand;
  readonly method: string;
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  readonly se: number;
  readonly df: number;
  /** t = estimate / se; null when se = 0. */
  readonly t: number | null;
  /** Two-sided p-value from t(ν); null when se = 0. */
  readonly p: number | null;
  /** Whether the level-interval excludes 0. */
  readonly distinguishable: boolean;
}

export interface Comparison {
  readonly a: string;
  readonly b: string;
  readonly aAnalysis: Analysis;
  readonly bAnalysis: Analysis;
  /** Every interval of `analyze` applied to the per-document differences b − a. */
  readonly difference: Analysis;
  /** Fraction of documents whose summed difference is 0 (within rounding: differingDocuments). */
  readonly ties: number;
  /** Fraction of queries whose results differ; null when not known. */
  readonly queriesDiffering: number | null;
  readonly tests: Readonly<Partial<Record<Estimand, DifferenceTest>>>;
  /** compare --census: the coverage study of the differences the recommendation came from. */
  readonly censusStudy?: StudyResult;
}

function differenceTest(analysis: Analysis, estimand: Estimand): DifferenceTest | null {
  const e = analysis[estimand];
  if (!e) return null;
  const interval = e.intervals[e.recommended];
  if (!interval?.available || interval.se === null || interval.df === null) return null;
  const t = interval.se > 0 ? e.estimate / interval.se : null;
  return {
    estimand,
    method: e.recommended,
    estimate: e.estimate,
    lower: interval.lower,
    upper: interval.upper,
    se: interval.se,
    df: interval.df,
    t,
    p: t === null ? null : tTwoSidedPValue(t, interval.df),
    distinguishable: interval.lower > 0 || interval.upper < 0,
  };
}

/**
 * Paired comparison of systems A and B on the same queries (SPEC §1, §3): each system's own
 * analysis, and the analysis of the per-document sums of the per-query differences b − a,
 * whose recommended intervals (micro cr2, macro t) give the test of no difference.
 *
 * @example compareSystems({ a: { name: "a", stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [1, 1, 0] }) }, b: { name: "b", stats: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [2, 1, 1] }) }, difference: documentStats({ ids: ["x", "y", "z"], n: [2, 2, 2], s: [1, 0, 1], ss: [1, 0, 1], min: 0, max: 1 }), queriesDiffering: 2 }, { replicates: 0 }).difference.micro?.estimate
 *   // => 0.33333
 */
export function compareSystems(input: ComparisonInput, options: AnalyzeOptions = {}): Comparison {
  checkPairedSums(input);
  const difference = analyze(input.difference, { ...options, differences: true });
  // Each system's own interval is context; the bootstraps are spent on the difference.
  const quiet = {
    ...options,
    replicates: 0,
    resamplingSkipped:
      "not run for each system on its own: ragci compare resamples the per-document differences",
  };
  const k = input.difference.s.length;
  // The same count as t-differing's D, so that the ties shown and ν = D − 1 agree.
  const tied = k - differingDocuments(input.difference);
  const tests: Partial<Record<Estimand, DifferenceTest>> = {};
  for (const estimand of ["micro", "macro"] as const) {
    const test = differenceTest(difference, estimand);
    if (test) tests[estimand] = test;
  }
  return {
    a: input.a.name,
    b: input.b.name,
    aAnalysis: analyze(input.a.stats, quiet),
    bAnalysis: analyze(input.b.stats, quiet),
    difference,
    ties: tied / k,
    queriesDiffering:
      input.queriesDiffering === null ? null : input.queriesDiffering / difference.results,
    tests,
  };
}

/**
 * The comparison with the difference's recommendation taken from a coverage study on the
 * user's census of paired results (`compare --census`), and the tests redone with it.
 */
export function withCensusStudy(
  comparison: Comparison,
  study: StudyResult,
  census: string,
): Comparison {
  // The test of no difference needs an se and a ν: the bootstraps give neither.
  const difference = applyCensusStudy(
    comparison.difference,
    study,
    census,
    (method) => method !== "bootstrap-t" && method !== "bootstrap-percentile",
  );
  const tests: Partial<Record<Estimand, DifferenceTest>> = {};
  for (const estimand of ["micro", "macro"] as const) {
    const test = differenceTest(difference, estimand);
    if (test) tests[estimand] = test;
  }
  return { ...comparison, difference, tests, censusStudy: study };
}

/**
 * Holm's step-down adjustment (Holm 1979): sort p ascending, p̃_(i) = max_{j≤i} min(1,
 * (m − j + 1)·p_(j)). Returns adjusted values in the input order.
 *
 * @example holmAdjust([0.01, 0.04, 0.03])
 *   // => [0.03, 0.06, 0.06]
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/**
 * Groups of systems that cannot be told apart: systems sorted by estimate (best first); each
 * group is a maximal run in which no pair differs. Overlapping groups, as in a compact letter
 * display (a, ab, b).
 */
export function indistinguishableGroups(
  ranked: readonly string[],
  differ: (a: string, b: string) => boolean,
): string[][] {
  const groups: string[][] = [];
  let lastEnd = -1;
  for (let i = 0; i < ranked.length; i++) {
    let end = i;
    while (
      end + 1 < ranked.length &&
      ranked.slice(i, end + 1).every((s) => !differ(s, ranked[end + 1] as string))
    ) {
      end++;
    }
    if (end > lastEnd) {
      groups.push(ranked.slice(i, end + 1));
      lastEnd = end;
    }
  }
  return groups;
}

/**
 * The difference table must be b − a of the two systems' tables: the same documents, the same
 * n (each query paired), and per document Σ(b − a) = Σb − Σa up to rounding. A table of a − b,
 * or of other documents, would otherwise give a test that contradicts the two analyses.
 *
 * @throws RagciError "invalid-document-stats" naming the first document that disagrees
 */
function checkPairedSums(input: ComparisonInput): void {
  const { a, b, difference } = input;
  const at = (stats: DocumentStats) => new Map(stats.ids.map((id, d) => [id, d]));
  const inA = at(a.stats);
  const inB = at(b.stats);
  const pair = `${b.name} − ${a.name}`;
  if (inA.size !== difference.ids.length || inB.size !== difference.ids.length) {
    throw new RagciError(
      "invalid-document-stats",
      `the difference ${pair} has ${difference.ids.length} documents, ${a.name} ${inA.size} and ${b.name} ${inB.size}: a paired comparison needs one set of documents`,
    );
  }
  difference.ids.forEach((id, d) => {
    const i = inA.get(id);
    const j = inB.get(id);
    const n = difference.n[d] as number;
    if (i === undefined || j === undefined || a.stats.n[i] !== n || b.stats.n[j] !== n) {
      throw new RagciError(
        "invalid-document-stats",
        `document "${id}" of the difference ${pair} is not in both systems' tables with its ${n} results: a paired comparison pairs each query of both systems`,
        { document: id },
      );
    }
    const sa = a.stats.s[i] as number;
    const sb = b.stats.s[j] as number;
    const sd = difference.s[d] as number;
    if (Math.abs(sd - (sb - sa)) > 1e-9 * (1 + Math.abs(sa) + Math.abs(sb))) {
      throw new RagciError(
        "invalid-document-stats",
        `document "${id}": the difference ${pair} sums to ${sd}, but ${b.name}'s sum minus ${a.name}'s is ${sb - sa}: give the per-document sums of b − a`,
        { document: id },
      );
    }
  });
}
