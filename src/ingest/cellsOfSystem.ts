import { RagciError } from "../core/errors.js";
import type { FacetCells } from "../core/facets/facetCells.js";
import type { SystemFacetCells } from "./readFacetCells.js";

/**
 * The cells of one system × metric among the reads' cells (readSource with facets); null when
 * no read has them. Cells are coded per file, so one system's cells come from one file.
 *
 * @throws RagciError when two inputs hold cells of the same system × metric (shards)
 */
export function cellsOfSystem(
  reads: readonly { readonly cells?: readonly SystemFacetCells[] | undefined }[],
  system: string | null,
  metric: string,
): FacetCells | null {
  const found = reads.flatMap((r) =>
    (r.cells ?? []).filter((c) => c.system === system && c.metric === metric),
  );
  if (found.length > 1)
    throw new RagciError(
      "invalid-option",
      `${found.length} inputs hold results of ${system === null ? "the system" : `system ${system}`}, metric ${metric}; with facets (trial, judge, variant) give each system's results in one file`,
    );
  return found[0]?.cells ?? null;
}
