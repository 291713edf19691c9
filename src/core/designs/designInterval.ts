import { tInterval } from "../intervals/tInterval.js";

export interface DesignInterval {
  readonly estimate: number;
  readonly se: number;
  readonly df: number;
  readonly lower: number;
  readonly upper: number;
}

/** A design's micro and macro intervals (stratifiedEstimates, twoStageEstimates). */
export interface DesignEstimates {
  readonly micro: DesignInterval;
  readonly macro: DesignInterval;
}

/**
 * A design's t interval: estimate ± t(1 − α/2; ν)·√variance (a negative variance counts as 0).
 *
 * @example designInterval(0.5, 0.0025, 4, 0.95) // R: 0.5 + c(-1, 1) * qt(0.975, 4) * 0.05
 *   // => { estimate: 0.5000, se: 0.05000, df: 4, lower: 0.36118, upper: 0.63882 }
 */
export function designInterval(
  estimate: number,
  variance: number,
  df: number,
  level: number,
): DesignInterval {
  const se = Math.sqrt(Math.max(variance, 0));
  const i = tInterval(estimate, { se, df }, level);
  return { estimate, se, df, lower: i.lower, upper: i.upper };
}
