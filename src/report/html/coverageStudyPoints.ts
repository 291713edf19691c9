import { METHODS, type MethodId } from "../../core/methods.js";
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
  readonly meanWidth: number | null;
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
          meanWidth: score.meanWidth,
        },
      ];
    });
  });
}
