/** The facets of per-query results: which column holds each (library options trial, judge, variant). */
export interface FacetRequest {
  readonly trial?: string | null | undefined;
  readonly judge?: string | null | undefined;
  readonly variant?: string | null | undefined;
}

/** Whether any facet is asked for (a trial, judge or variant column named). */
export function hasFacets(request: FacetRequest): boolean {
  return Boolean(request.trial || request.judge || request.variant);
}
