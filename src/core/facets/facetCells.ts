/**
 * The sufficient statistics of a faceted evaluation: one cell per (document, query, judge,
 * variant), its trials (reruns, epochs) summed. Cells are the input of the variance-component
 * fit and of the interval that counts judges and wordings; ingest produces them in one pass
 * (DuckDB or a warehouse), so the fit never sees a per-trial row.
 *
 * Indices are 0-based codes: document in [0, documents), query in [0, queries) numbered across
 * all documents (a query belongs to exactly one document), judge in [0, judges) and variant in
 * [0, variants). A facet that the input does not have is null; trials are always present (a
 * cell without reruns has n = 1 and within-cell sum of squares 0).
 */
export interface FacetCells {
  readonly document: Int32Array;
  readonly query: Int32Array;
  /** Judge of each cell, or null when the input has no judge facet. */
  readonly judge: Int32Array | null;
  /** Prompt wording of each cell, or null when the input has no variant facet. */
  readonly variant: Int32Array | null;
  /** Trials in the cell (≥ 1). */
  readonly n: Float64Array;
  /** Sum of the cell's trial values. */
  readonly sum: Float64Array;
  /** Sum of squared deviations of the cell's trial values from the cell mean (exact, ≥ 0). */
  readonly withinSumOfSquares: Float64Array;
  /**
   * Degrees of freedom of withinSumOfSquares; absent means n − 1 (trials of one system).
   * Difference cells (differenceCells) pool two systems' trials: n_A + n_B − 2.
   */
  readonly withinDegreesOfFreedom?: Float64Array;
  /** Labels behind the codes, for the report. */
  readonly labels: {
    readonly documents: readonly string[];
    readonly judges: readonly string[] | null;
    readonly variants: readonly string[] | null;
  };
}

/** The facets a variance decomposition can name, in the order ragci reports them. */
export type FacetComponent =
  | "document"
  | "query"
  | "judge"
  | "documentJudge"
  | "variant"
  | "residual";

/** Components on the metric's scale, one per facet (absent = 0). */
export type FacetComponents = Partial<Record<FacetComponent, number>>;

/** The order of the components, and the names the reports and notes give them. */
export const FACET_COMPONENT_NAMES: readonly (readonly [FacetComponent, string])[] = [
  ["document", "document"],
  ["query", "query within document"],
  ["judge", "judge"],
  ["documentJudge", "document × judge"],
  ["variant", "variant"],
  ["residual", "residual"],
];

/** The name a report or note gives component `k` ("document × judge" for documentJudge). */
export function facetComponentName(k: FacetComponent): string {
  return FACET_COMPONENT_NAMES.find(([key]) => key === k)?.[1] ?? k;
}
