import type { Analysis, EstimandAnalysis } from "../analyze.js";
import { levelPercent } from "../intervals/levelPercent.js";
import type { MethodId } from "../methods.js";
import { percentText } from "../percentText.js";
import type { Advice } from "../recommendMethod.js";
import type { Estimand } from "../types.js";
import { allOrNoneBound } from "./allOrNoneBound.js";
import { recommendFromStudy } from "./recommendFromStudy.js";
import type { StudyResult } from "./studySummary.js";

const everyMethod = () => true;

/** "93.1% ± 0.8% MC se"; all or none of the repetitions: the exact bound, not a se of 0. */
function coverageText(coverage: number, mcse: number, reps: number): string {
  const bound = allOrNoneBound(coverage, reps);
  return bound === null
    ? `${percentText(coverage)} ± ${percentText(mcse)} MC se`
    : `${percentText(coverage)}; the true coverage ${bound.side} ${percentText(bound.bound)} by the exact one-sided 95% bound for ${coverage === 1 ? "all" : "none"} of ${reps}`;
}

/**
 * The analysis with its recommendation taken from a coverage study on the user's own census
 * at the analysis's K (instead of the article's table or ragci's studies), and a line of
 * advice that says so and what the study found. The intervals themselves are unchanged.
 */
export function applyCensusStudy(
  analysis: Analysis,
  study: StudyResult,
  census: string,
  eligible: (method: MethodId) => boolean = everyMethod,
): Analysis {
  const notes: string[] = [];
  const pick = (e: EstimandAnalysis | null, estimand: Estimand): EstimandAnalysis | null => {
    if (e === null) return null;
    const chosen = recommendFromStudy(study, estimand, eligible);
    if (chosen === null || !e.intervals[chosen.method]?.available) return e;
    const narrower = chosen.reaching.filter((m) => m !== chosen.method);
    notes.push(
      `${estimand} ${chosen.method} (${coverageText(chosen.coverage, chosen.mcse, study.reps)}${
        !chosen.reachesNominal
          ? `; no interval${eligible === everyMethod ? "" : " that gives a test"} reached ${percentText(chosen.threshold)} (${levelPercent(study.level, 1)} less 2 MC se)`
          : chosen.robustDefault && narrower.length > 0
            ? `; the robust default: ${narrower.join(", ")} also reached ${percentText(chosen.threshold)}, not beyond Monte Carlo doubt`
            : ""
      })`,
    );
    return { ...e, recommended: chosen.method };
  };
  const micro = pick(analysis.micro, "micro");
  const macro = pick(analysis.macro, "macro");
  const advice: Advice = {
    code: "census-study",
    severity: "note",
    message: `Recommended from a coverage study on the census ${census} (${study.reps} SRS samples of K = ${study.k}, B = ${study.replicates}), not from the article's table: ${notes.join(", ") || "no recommendation could be made"}. Each interval's coverage in that study is shown next to it. The study speaks for your data if ${census} holds every document of the population: a sample given as the census is no reliable guide (docs/choosing-an-interval.md, "A sample is not a census").`,
  };
  // The study on the user's census replaces the general evidence of ragci's own studies.
  const rest = analysis.advice.filter(
    (a) => a.code !== "micro-unequal-sizes" && a.code !== "studied-conditions",
  );
  return { ...analysis, micro, macro, advice: [advice, ...rest] };
}
