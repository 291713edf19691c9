import type { Analysis } from "../core/analyze.js";
import type { FacetInterval } from "../core/facets/facetInterval.js";
import type { StudyResult } from "../core/simulation/studySummary.js";
import type { InputDescription } from "../ingest/inputDescription.js";

/** Where the numbers came from: ingest's readers describe each input they read. */
export type { InputDescription };

export interface AnalysisEntry {
  readonly metric: string;
  readonly system: string | null;
  readonly analysis: Analysis;
  /** SHA-256 of this metric's per-document aggregates (canonical CSV). */
  readonly aggregatesSha256: string;
  /** --census: the coverage study at this K on the user's census (the recommendation's source). */
  readonly censusStudy?: { readonly file: string; readonly study: StudyResult };
  /** With facets (trial, judge, variant): its variance components and the interval for a population of judges and wordings. */
  readonly facets?: FacetInterval;
}

export interface AnalysisReport {
  /** The JSON's `command`: "ragci analyze" (the schema's constant), or "ragci compare" inside one. */
  readonly command: string;
  readonly version: string;
  readonly inputs: readonly InputDescription[];
  readonly entries: readonly AnalysisEntry[];
  readonly aggregatesFile: string | null;
  readonly summation: "exact" | "double-single-thread";
  /** Warnings about the inputs themselves (near-0/1 columns, spaced ids, repeated queries). */
  readonly notices: readonly string[];
}
