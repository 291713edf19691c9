import { RagciError } from "../errors.js";
import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { type DesignGroup, type DesignGroupWords, designGroups } from "./designGroups.js";
import type { DesignEstimates } from "./designInterval.js";
import { linearizedEstimates } from "./linearizedEstimates.js";
import { srsTotalVariance } from "./srsTotalVariance.js";

export interface TwoStageDesign {
  /** The first-stage unit (e.g. document type) of each document, aligned with stats.ids. */
  readonly units: readonly string[];
  /** T: first-stage units in the population. */
  readonly firstStagePopulation: number;
  /** M_i: documents in each first-stage unit of the population. */
  readonly secondStagePopulation: Readonly<Record<string, number>>;
}

const UNITS: DesignGroupWords = {
  labels: "unit labels",
  group: "unit",
  missingGroup: "first-stage unit",
  sizes: "second_stage_population",
  size: "M_i",
};

function unitsOf(stats: DocumentStats, design: TwoStageDesign): DesignGroup[] {
  const check = (u: DesignGroup) => {
    if (u.documents.length < 2 && u.population > 1) {
      throw new RagciError(
        "invalid-design",
        `unit "${u.name}" has one sampled document of ${u.population}, which cannot give a second-stage variance; sample at least two`,
        { stratum: u.name },
      );
    }
  };
  const units = designGroups(stats, {
    labels: design.units,
    sizes: design.secondStagePopulation,
    words: UNITS,
    check,
  });
  const t = design.firstStagePopulation;
  if (units.length < 2)
    throw new RagciError(
      "invalid-design",
      `${units.length} first-stage unit sampled; a variance needs at least two`,
    );
  if (!(Number.isInteger(t) && t >= units.length)) {
    throw new RagciError(
      "invalid-design",
      `first_stage_population T = ${t} is smaller than the ${units.length} sampled units`,
    );
  }
  return units;
}

/**
 * Two-stage design (SPEC §4): m of T first-stage units by SRS, then k_i of M_i documents by
 * SRS inside each. Totals X̂ = (T/m) Σ_i (M_i/k_i) Σ_d x_d with the unbiased variance
 * T²(1 − m/T) s₁²/m + (T/m) Σ_i M_i²(1 − k_i/M_i) s₂ᵢ²/k_i (Cochran 1977 §10.2); micro and
 * macro are ratios of such totals (Σs/Σn; Σ w r_d / Σ w), linearised. ν = m − 1. Equals R's
 * survey: svyratio / svymean on svydesign(ids = ~psu + doc, fpc = ~T + M_i).
 *
 * @example // 2 of T = 5 units, 2 of M_i = 4 and 6 documents in each; R's survey gives the same
 *   twoStageEstimates(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { units: ["u", "u", "v", "v"], firstStagePopulation: 5, secondStagePopulation: { u: 4, v: 6 } }).micro
 *   // => { estimate: 0.45946, se: 0.14910, df: 1 }
 */
export function twoStageEstimates(
  stats: DocumentStats,
  design: TwoStageDesign,
  level = 0.95,
): DesignEstimates {
  const units = unitsOf(stats, design);
  const m = units.length;
  const firstWeight = design.firstStagePopulation / m;
  const secondWeight = (u: DesignGroup) => u.population / u.documents.length;
  const total = (x: (d: number) => number) =>
    firstWeight *
    compensatedSum(units.map((u) => secondWeight(u) * compensatedSum(u.documents.map(x))));
  const variance = (x: (d: number) => number) => {
    const unitTotals = units.map(
      (u) => firstWeight * secondWeight(u) * compensatedSum(u.documents.map(x)),
    );
    const first = srsTotalVariance(unitTotals, m / design.firstStagePopulation);
    const second = compensatedSum(
      units.map((u) =>
        u.documents.length < 2
          ? 0
          : firstWeight *
            srsTotalVariance(
              u.documents.map((d) => secondWeight(u) * x(d)),
              u.documents.length / u.population,
            ),
      ),
    );
    return first + second;
  };
  const documents = total(() => 1);
  return linearizedEstimates(stats, { total, variance, documents, df: m - 1 }, level);
}
