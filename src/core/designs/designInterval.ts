import { tInterval } from "../intervals/tInterval.js";

export interface DesignInterval {
  readonly estimate: number;
  readonly se: number;
  readonly df: number;
  readonly lower: number;
  readonly upper: number;
}

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
