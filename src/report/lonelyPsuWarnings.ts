import type { DesignSummary } from "../core/analyze.js";

/** " · lonely PSU: adjust" for the design line when a rule other than "fail" was chosen. */
export function lonelyPsuNote(design: DesignSummary): string {
  const rule = design.lonelyPsu?.rule;
  return rule === undefined || rule === "fail" ? "" : ` · lonely PSU: ${rule}`;
}

/**
 * One plain sentence per stratum whose single sampled document the lonely-PSU rule treated
 * (census strata, M_h = 1, need no rule and get none). The numbers follow lonelyPsu.ts.
 */
export function lonelyPsuWarnings(design: DesignSummary): string[] {
  const summary = design.lonelyPsu;
  if (!summary) return [];
  const detail = design.detail && "strata" in design.detail ? design.detail.strata : {};
  const treated = Object.entries(summary.strata).filter(([, t]) => t !== "census");
  const strata = Object.keys(detail).length;
  const withVariance = strata - treated.length;
  return treated.map(([h, treatment]) => {
    const population = detail[h]?.population;
    const head = `stratum "${h}" has one sampled document${population === undefined ? "" : ` of M_h = ${population}`}`;
    switch (treatment) {
      case "adjust":
        return `${head}; its variance was taken about the overall mean, as it has no spread of its own: (1 − 1/M_h)·(M_h·z_d)², usually conservative (--lonely-psu adjust)`;
      case "average":
        return `${head}; its variance was replaced by the average contribution of the ${withVariance} strata that have one (their sum × ${strata}/${withVariance}) (--lonely-psu average)`;
      case "remove":
        return `${head}; it was left out of the variance (adds 0), so the se omits that stratum's sampling error (--lonely-psu remove)`;
      default:
        return `${head}; it was taken as sampled with certainty and adds 0 to the variance, which is right only if that document was bound to be drawn (--lonely-psu certainty)`;
    }
  });
}
