import { hasFacets } from "../facetRequest.js";
import type { DatabaseSource } from "../source.js";
import type { DatabaseFacetRead, readDatabaseFacetCells } from "./readDatabaseFacetCells.js";

/** What readDatabaseFacetCells takes, less the facet columns, which come from the source. */
export type FacetCellsRequest = Omit<
  Parameters<typeof readDatabaseFacetCells>[0],
  "query" | "trial" | "judge" | "variant"
>;

/**
 * A database source's facet cells and averaged rows (readDatabaseFacetCells, whose module loads
 * only then), or null when the source names no facet: how each database reader starts.
 */
export async function databaseFacetCellsIfAsked(
  source: DatabaseSource,
  request: FacetCellsRequest,
): Promise<DatabaseFacetRead | null> {
  if (!hasFacets(source)) return null;
  const m = await import("./readDatabaseFacetCells.js");
  return m.readDatabaseFacetCells({ ...request, ...m.facetColumnsOf(source) });
}
