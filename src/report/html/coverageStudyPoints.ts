import { METHODS, type MethodId } from "../../core/methods.js";
import { allOrNoneBound } from "../../core/simulation/allOrNoneBound.js";
import type { StudyMethod } from "../../core/simulation/coverageStudy.js";
import type { Estimand } from "../../core/types.js";
import type { SimulationReport } from "../simulationReport.js";

export interface StudyPoint {
  readonly label: string;
  readonly method: MethodId;
  readonly column: string;
  readonly contrast: boolean;
  readonly recommended: boolean;
  readonly coverage: number;
  readonly mcse: number;
  /**
   * The bar: coverage ± 1.96 MC se, within [0, 1]; where every repetition covered (or none
   * did) the se is 0, and the bar runs from the exact one-sided 95% bound to 100% (or 0%).
   */
  readonly bar: readonly [number, number];
  readonly meanWidth: number | null;
}

function barOf(coverage: number, mcse: number, reps: number): [number, number] {
  const bound = allOrNoneBound(coverage, reps);
  if (bound !== null) return bound.side === "≥" ? [bound.bound, 1] : [0, bound.bound];
  return [Math.max(0, coverage - 1.96 * mcse), Math.min(1, coverage + 1.96 * mcse)];
}

/** A study's column: K, or m units × k documents under a two-stage design (as the terminal). */
export function studyColumnName(study: SimulationReport["studies"][number]): string {
  return study.design.kind === "two-stage"
    ? `m = ${study.design.units} × ${study.design.perUnit}`
    : `K = ${study.k}`;
}

/** One row per method × study column, methods in the report's order, contrasts marked. */
export function studyPoints(report: SimulationReport, estimand: Estimand): StudyPoint[] {
  const keys = Object.keys(report.studies[0]?.methods ?? {}).filter((k) =>
    k.startsWith(`${estimand}/`),
  ) as StudyMethod[];
  return keys.flatMap((key) => {
    const method = key.split("/")[1] as MethodId;
    return report.studies.flatMap((study, i) => {
      const score = study.methods[key];
      if (!score) return [];
      const column = studyColumnName(study);
      const contrast = METHODS[method].contrast;
      return [
        {
          label: `${method}${contrast ? " (contrast)" : ""} · ${column}`,
          method,
          column,
          contrast,
          recommended: report.recommended[i]?.[estimand]?.method === method,
          coverage: score.coverage,
          mcse: score.mcse,
          bar: barOf(score.coverage, score.mcse, study.reps),
          meanWidth: score.meanWidth,
        },
      ];
    });
  });
}
