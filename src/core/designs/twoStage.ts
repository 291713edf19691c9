import { RagciError } from "../errors.js";
import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { designInterval } from "./designInterval.js";
import { groupIndices } from "./groupIndices.js";
import { srsTotalVariance } from "./srsTotalVariance.js";
import type { DesignEstimates } from "./stratified.js";

export interface TwoStageDesign {
  /** The first-stage unit (e.g. document type) of each document, aligned with stats.ids. */
  readonly units: readonly string[];
  /** T: first-stage units in the population. */
  readonly firstStagePopulation: number;
  /** M_i: documents in each first-stage unit of the population. */
  readonly secondStagePopulation: Readonly<Record<string, number>>;
}

interface Unit {
  readonly name: string;
  readonly documents: number[];
  readonly population: number;
}

function unitsOf(stats: DocumentStats, design: TwoStageDesign): Unit[] {
  if (design.units.length !== stats.ids.length) {
    throw new RagciError(
      "invalid-design",
      `the design gives ${design.units.length} unit labels for ${stats.ids.length} documents`,
    );
  }
  const byName = groupIndices(design.units);
  const units = [...byName].map(([name, documents]) => {
    const population = design.secondStagePopulation[name];
    if (population === undefined) {
      throw new RagciError(
        "invalid-design",
        `first-stage unit "${name}" is in the data but not in the design's second_stage_population`,
        { stratum: name },
      );
    }
    if (!(Number.isInteger(population) && population >= documents.length)) {
      throw new RagciError(
        "invalid-design",
        `unit "${name}" has ${documents.length} sampled documents but M_i = ${population} in the design`,
        { stratum: name },
      );
    }
    if (documents.length < 2 && population > 1) {
      throw new RagciError(
        "invalid-design",
        `unit "${name}" has one sampled document of ${population}, which cannot give a second-stage variance; sample at least two`,
        { stratum: name },
      );
    }
    return { name, documents, population };
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
 */
export function twoStageEstimates(
  stats: DocumentStats,
  design: TwoStageDesign,
  level = 0.95,
): DesignEstimates {
  const units = unitsOf(stats, design);
  const m = units.length;
  const firstWeight = design.firstStagePopulation / m;
  const secondWeight = (u: Unit) => u.population / u.documents.length;
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
  const n = (d: number) => stats.n[d] as number;
  const s = (d: number) => stats.s[d] as number;
  const r = (d: number) => s(d) / n(d);
  const totalN = total(n);
  const ratio = total(s) / totalN;
  const documents = total(() => 1);
  const mean = total(r) / documents;
  const df = m - 1;
  return {
    micro: designInterval(
      ratio,
      variance((d) => (s(d) - ratio * n(d)) / totalN),
      df,
      level,
    ),
    macro: designInterval(
      mean,
      variance((d) => (r(d) - mean) / documents),
      df,
      level,
    ),
  };
}
