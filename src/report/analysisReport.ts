import type { Analysis } from "../core/analyze.js";
import type { StudyResult } from "../core/simulation/studySummary.js";

/** What the report layer needs besides the Analysis: where the numbers came from. */
export interface InputDescription {
  readonly file: string;
  readonly sha256: string;
  readonly format: string;
  readonly rows: number;
  readonly kind: "per-query" | "per-document";
}

export interface AnalysisEntry {
  readonly metric: string;
  readonly system: string | null;
  readonly analysis: Analysis;
  /** SHA-256 of this metric's per-document aggregates (canonical CSV). */
  readonly aggregatesSha256: string;
  /** --census: the coverage study at this K on the user's census (the recommendation's source). */
  readonly censusStudy?: { readonly file: string; readonly study: StudyResult };
}

export interface AnalysisReport {
  readonly command: string;
  readonly version: string;
  readonly inputs: readonly InputDescription[];
  readonly entries: readonly AnalysisEntry[];
  readonly aggregatesFile: string | null;
  readonly summation: "exact" | "double-single-thread";
  /** Warnings about the inputs themselves (near-0/1 columns, spaced ids, repeated queries). */
  readonly notices: readonly string[];
}
