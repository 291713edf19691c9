/**
 * The census pick accounts for Monte Carlo error: methods that reach the level within 2 MC se
 * and whose coverage cannot be told apart from the narrowest's are one group, in which the
 * robust default is preferred; a method distinguishably wider loses to the narrowest; and when
 * none reaches the level the pick says so. On the bundled census at K = 20 two seeds pick the
 * same method.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { documentStats } from "../../../src/core/aggregate/documentStats.js";
import { runRepetitions, type StudyOptions } from "../../../src/core/simulation/coverageStudy.js";
import {
  coverageLowerBound,
  monteCarloSe,
  reachingThreshold,
  recommendFromStudy,
} from "../../../src/core/simulation/recommendFromStudy.js";
import { type StudyResult, summarizeStudy } from "../../../src/core/simulation/studySummary.js";
import type { DocumentStats } from "../../../src/core/types.js";

const root = join(import.meta.dirname, "../../..");

/** examples/synthetic-census.csv (doc_id,n,s,ss), ids in code-point order as ragci reads them. */
function bundledCensus(): DocumentStats {
  const [, ...lines] = readFileSync(join(root, "examples/synthetic-census.csv"), "utf8")
    .trim()
    .split(/\r?\n/);
  const rows = lines
    .map((l) => l.split(","))
    .sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
  return documentStats({
    ids: rows.map((r) => r[0] as string),
    n: rows.map((r) => Number(r[1])),
    s: rows.map((r) => Number(r[2])),
  });
}

function study(census: DocumentStats, seed: number, reps: number): StudyResult {
  const options: StudyOptions = {
    documents: 20,
    repetitions: reps,
    replicates: 199,
    seed,
    level: 0.95,
    fpc: false,
  };
  return summarizeStudy(census, options, runRepetitions(census, options, 0, reps));
}

/** A study's scores with chosen coverages and widths (the rest of the study unchanged). */
function withScores(
  base: StudyResult,
  scores: Record<string, { coverage: number; meanWidth: number }>,
  reps: number,
): StudyResult {
  const methods = { ...base.methods };
  for (const [key, score] of Object.entries(scores)) {
    const k = key as keyof typeof methods;
    methods[k] = { ...methods[k], ...score };
  }
  return { ...base, reps, methods };
}

describe("recommendFromStudy with Monte Carlo error", () => {
  const census = bundledCensus();
  const base = study(census, 1, 20);
  // Every micro method but the four below made unavailable-looking: coverage 0.
  const zeroed = Object.fromEntries(
    Object.keys(base.methods)
      .filter((k) => k.startsWith("micro/"))
      .map((k) => [k, { coverage: 0, meanWidth: 1 }]),
  );

  it("the threshold is the level less 2 MC se at the level, never less tolerant than 1 point", () => {
    expect(reachingThreshold(0.95, 1000)).toBeCloseTo(
      0.95 - 2 * Math.sqrt((0.95 * 0.05) / 1000),
      12,
    );
    expect(reachingThreshold(0.95, 100000)).toBeCloseTo(0.94, 12);
    expect(monteCarloSe(0.9, 400)).toBeCloseTo(0.015, 12);
  });

  it("keeps the robust default when a narrower method reaches the level only within MC error", () => {
    // R = 1000: logit 94.8% ± 0.7 (width 0.10) reaches 93.6%, but 94.8 − 2·0.7 < 94.
    const s = withScores(
      base,
      {
        ...zeroed,
        "micro/logit": { coverage: 0.948, meanWidth: 0.1 },
        "micro/logit-cv3": { coverage: 0.972, meanWidth: 0.121 },
        "micro/cr2": { coverage: 0.93, meanWidth: 0.095 },
      },
      1000,
    );
    const pick = recommendFromStudy(s, "micro");
    expect(pick?.method).toBe("logit-cv3");
    expect(pick?.robustDefault).toBe(true);
    expect(pick?.reachesNominal).toBe(true);
    expect(pick?.reaching).toEqual(["logit", "logit-cv3"]);
    expect(pick?.mcse).toBeCloseTo(Math.sqrt((0.972 * 0.028) / 1000), 12);
  });

  it("takes a narrower method that reaches the level beyond MC doubt", () => {
    // R = 5000: logit 95.3% ± 0.3, 95.3 − 0.6 ≥ 94: narrower than logit-cv3, and surely reaching.
    const s = withScores(
      base,
      {
        ...zeroed,
        "micro/logit": { coverage: 0.953, meanWidth: 0.1 },
        "micro/logit-cv3": { coverage: 0.972, meanWidth: 0.121 },
      },
      5000,
    );
    const pick = recommendFromStudy(s, "micro");
    expect(pick?.method).toBe("logit");
    expect(pick?.robustDefault).toBe(false);
  });

  it("does not call 20 of 20 covered beyond MC doubt: √(p(1 − p)/R) is 0 at p = 1", () => {
    // Wilson's score bound at z = 2, written out: (p + 2/R − 2√(p(1 − p)/R + 1/R²)) / (1 + 4/R).
    const wilson = (p: number, r: number) =>
      (p + 2 / r - 2 * Math.sqrt((p * (1 - p)) / r + 1 / r ** 2)) / (1 + 4 / r);
    expect(coverageLowerBound(1, 20)).toBeCloseTo(wilson(1, 20), 12);
    expect(coverageLowerBound(1, 20)).toBeCloseTo(1 / 1.2, 12);
    expect(coverageLowerBound(0.953, 5000)).toBeCloseTo(wilson(0.953, 5000), 12);
    for (const reps of [1, 20, 50]) {
      const s = withScores(
        base,
        {
          ...zeroed,
          "micro/logit": { coverage: 1, meanWidth: 0.1 },
          "micro/logit-cv3": { coverage: 1, meanWidth: 0.121 },
        },
        reps,
      );
      const pick = recommendFromStudy(s, "micro");
      expect(pick?.method, `R = ${reps}`).toBe("logit-cv3");
      expect(pick?.robustDefault, `R = ${reps}`).toBe(true);
    }
    // 2000 of 2000 is beyond doubt: the bound (0.998) clears 94%.
    const sure = withScores(
      base,
      {
        ...zeroed,
        "micro/logit": { coverage: 1, meanWidth: 0.1 },
        "micro/logit-cv3": { coverage: 1, meanWidth: 0.121 },
      },
      2000,
    );
    expect(recommendFromStudy(sure, "micro")?.method).toBe("logit");
  });

  it("takes the narrowest reaching method when the default does not reach the level", () => {
    const s = withScores(
      base,
      {
        ...zeroed,
        "micro/logit": { coverage: 0.941, meanWidth: 0.1 },
        "micro/cr2": { coverage: 0.95, meanWidth: 0.12 },
        "micro/logit-cv3": { coverage: 0.92, meanWidth: 0.09 },
      },
      1000,
    );
    expect(recommendFromStudy(s, "micro")?.method).toBe("logit");
  });

  it("says when no method reaches the level, and gives the one covering most", () => {
    const s = withScores(
      base,
      {
        ...zeroed,
        "micro/logit": { coverage: 0.9, meanWidth: 0.1 },
        "micro/cr2": { coverage: 0.91, meanWidth: 0.09 },
      },
      1000,
    );
    const pick = recommendFromStudy(s, "micro");
    expect(pick?.reachesNominal).toBe(false);
    expect(pick?.method).toBe("cr2");
    expect(pick?.reaching).toEqual([]);
  });

  it("the bundled census at K = 20: the same pick for seeds 1 and 2", () => {
    const reps = 300;
    const one = study(census, 1, reps);
    const two = study(census, 2, reps);
    for (const estimand of ["micro", "macro"] as const) {
      const a = recommendFromStudy(one, estimand);
      const b = recommendFromStudy(two, estimand);
      expect(a?.method, estimand).toBe(b?.method);
      expect(a?.reachesNominal, estimand).toBe(true);
    }
  });
});
