/**
 * Sufficient statistics per document: n_d results, their sum s_d and sum of squares ss_d.
 * Additive across shards (see mergeDocumentStats). `min`/`max` are the smallest and largest
 * single result seen, or null when unknown (pre-aggregated input without those columns).
 */
export interface DocumentStats {
  readonly ids: readonly string[];
  readonly n: Float64Array;
  readonly s: Float64Array;
  readonly ss: Float64Array;
  /** Every result is 0 or 1 (then ss_d = s_d). */
  readonly binary: boolean;
  readonly min: number | null;
  readonly max: number | null;
}

/** Per-query values grouped by document: values of document d are values[offsets[d]..offsets[d+1]). */
export interface ResultValues {
  readonly offsets: Uint32Array;
  readonly values: Float64Array;
}

export type Estimand = "micro" | "macro";

/** A standard error with the degrees of freedom of its reference t distribution (null: normal). */
export interface StandardError {
  readonly se: number;
  readonly df: number | null;
}

/** What a resampling interval used: replicates drawn, kept, and the seed of the stream. */
export interface ResamplingDetail {
  readonly replicates: number;
  /** Replicates that entered the quantiles (bootstrap-t drops zero-SE replicates). */
  readonly replicatesUsed: number;
  /** Fraction of replicates whose standard error is exactly 0 (every drawn rate equal). */
  readonly degenerate: number;
  readonly seed: number;
  /** bootstrap-t: the quantiles t*_lo and t*_hi of the studentised replicates. */
  readonly tLower?: number;
  readonly tUpper?: number;
}

export interface AvailableInterval {
  readonly available: true;
  readonly lower: number;
  readonly upper: number;
  /** Standard error of the estimate, on the estimate's scale (null where none). */
  readonly se: number | null;
  /** Logit intervals: the se on the logit scale the interval is built on, se / (θ(1 − θ)). */
  readonly seLogit?: number;
  readonly df: number | null;
  /** The quantile multiplying the se (t or normal), when the interval is estimate ± q·se. */
  readonly q: number | null;
  readonly resampling?: ResamplingDetail;
}

export interface UnavailableInterval {
  readonly available: false;
  readonly reason: string;
  readonly resampling?: ResamplingDetail;
}

export type Interval = AvailableInterval | UnavailableInterval;
