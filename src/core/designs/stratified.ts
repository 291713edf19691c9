import { optionRef, RagciError } from "../errors.js";
import { compensatedSum } from "../numeric/compensatedSum.js";
import type { DocumentStats } from "../types.js";
import { type DesignGroup, type DesignGroupWords, designGroups } from "./designGroups.js";
import type { DesignEstimates } from "./designInterval.js";
import { linearizedEstimates } from "./linearizedEstimates.js";
import {
  averagedVariance,
  isLonelyPsu,
  LONELY_PSU_RULES,
  type LonelyPsu,
  lonelyStratumVariance,
} from "./lonelyPsu.js";
import { srsTotalVariance } from "./srsTotalVariance.js";

export interface StratifiedDesign {
  /** The stratum of each document, aligned with stats.ids. */
  readonly strata: readonly string[];
  /** M_h: documents in each stratum of the population. */
  readonly populationSizes: Readonly<Record<string, number>>;
  /** A stratum with one sampled document of M_h > 1: R survey's lonely-PSU rule; default "fail". */
  readonly lonelyPsu?: LonelyPsu;
}

const STRATA: DesignGroupWords = {
  labels: "strata labels",
  group: "stratum",
  missingGroup: "stratum",
  sizes: "population sizes",
  size: "M_h",
};

function strataOf(stats: DocumentStats, design: StratifiedDesign): DesignGroup[] {
  if (design.lonelyPsu !== undefined && !isLonelyPsu(design.lonelyPsu)) {
    throw new RagciError(
      "invalid-option",
      `lonely-PSU rule ${JSON.stringify(design.lonelyPsu)} must be one of ${LONELY_PSU_RULES.join(", ")}`,
    );
  }
  const check = (h: DesignGroup) => {
    if (h.documents.length === 1 && h.population > 1 && (design.lonelyPsu ?? "fail") === "fail") {
      throw new RagciError(
        "invalid-design",
        `stratum "${h.name}" has one sampled document of M_h = ${h.population}, which cannot give a variance; sample at least two, merge it with a neighbouring stratum, or choose a lonely-PSU rule (${optionRef("lonelyPsu")} or "lonely_psu" in the design: remove, adjust, average or certainty)`,
        { stratum: h.name },
      );
    }
  };
  return designGroups(stats, {
    labels: design.strata,
    sizes: design.populationSizes,
    words: STRATA,
    check,
  });
}

/**
 * Design-based intervals under stratified SRS of documents (SPEC §4). Micro: the combined
 * ratio estimator R_c = Σ_h (M_h/K_h) Σ s_d / Σ_h (M_h/K_h) Σ n_d, variance from the
 * linearisation z_d = (s_d − R_c n_d)/X̂ with each stratum's fpc (Cochran 1977 §6.11).
 * Macro: Σ_h W_h r̄_h (W_h = M_h/M) with Σ_h W_h²(1 − f_h) s_h²/K_h. ν = K − H. A stratum with
 * one sampled document follows design.lonelyPsu (see lonelyPsu.ts). Equals R's survey:
 * svyratio(~s, ~n) and svymean(~r) on svydesign(ids = ~1, strata =, fpc =) with
 * options(survey.lonely.psu =) set to the same rule.
 *
 * @throws RagciError "invalid-design" for a stratum with one sampled document of M_h > 1 under
 *   "fail", and when every stratum has one document (ν = K − H = 0)
 * @example // R: svyratio(~s, ~n, svydesign(ids = ~1, strata = ~h, fpc = ~M)), confint(df = 2)
 *   stratifiedEstimates(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { strata: ["x", "x", "y", "y"], populationSizes: { x: 10, y: 30 } }).micro
 *   // => { estimate: 0.40625, se: 0.069831, df: 2, lower: 0.10579, upper: 0.70671 }
 */
export function stratifiedEstimates(
  stats: DocumentStats,
  design: StratifiedDesign,
  level = 0.95,
): DesignEstimates {
  const strata = strataOf(stats, design);
  const df = stats.ids.length - strata.length;
  if (df < 1) {
    throw new RagciError(
      "invalid-design",
      `every stratum has one sampled document, so ν = K − H = 0 and there is no t interval; sample at least two documents in some stratum`,
    );
  }
  const rule = design.lonelyPsu ?? "fail";
  const weight = (h: DesignGroup) => h.population / h.documents.length;
  const total = (x: (d: number) => number) =>
    compensatedSum(strata.map((h) => weight(h) * compensatedSum(h.documents.map(x))));
  // Linearised residuals, weighted, per stratum; variance of their total. A census stratum
  // (M_h = K_h, also K_h = 1) adds 0; a lonely one (K_h = 1 < M_h) follows the rule.
  const stratumVariance = (h: DesignGroup, z: (d: number) => number): number | null => {
    const totals = h.documents.map((d) => weight(h) * z(d));
    if (h.documents.length === h.population) return 0;
    // K_h = 1 < M_h: strataOf has already thrown under "fail".
    if (h.documents.length === 1) {
      const lonely = rule as Exclude<LonelyPsu, "fail">;
      return lonelyStratumVariance(totals[0] as number, h.population, lonely);
    }
    return srsTotalVariance(totals, h.documents.length / h.population);
  };
  const variance = (z: (d: number) => number) =>
    averagedVariance(strata.map((h) => stratumVariance(h, z)));
  const documents = compensatedSum(strata.map((h) => h.population));
  return linearizedEstimates(stats, { total, variance, documents, df }, level);
}
