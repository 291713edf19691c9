import { optionRef, RagciError } from "../core/errors.js";
import type { FacetCells } from "../core/facets/facetCells.js";
import {
  type PlanStart,
  type PlanStartInput,
  planStartFromPilot,
  planStartFromSd,
} from "../core/planning/planStart.js";
import type { SystemFacetCells } from "./readFacetCells.js";
import { readSource } from "./readSource.js";
import type { Selection } from "./selection.js";
import { isDatabaseSource, type ReadProgress, type Source } from "./source.js";

/**
 * Where a plan's S and M come from: a pilot or census source (files, or a database, where the
 * rows are aggregated), or S given (`sd`, `sdMacro`, `sdMicro`) when `source` is null.
 *
 * With facets (trial, judge), a one-system pilot's cells come back as `facetCells`, and every
 * system's (a pair's two) as `facetSystems`.
 *
 * @param system the system selection as the user wrote it (a paired plan's note names it)
 * @throws RagciError when S is given as well as a source to estimate it from
 */
export async function readPlanStart(
  source: Source | null,
  selection: Selection,
  input: PlanStartInput & { readonly system?: string | undefined },
  progress?: ReadProgress,
): Promise<
  PlanStart & {
    readonly facetCells: FacetCells | null;
    readonly facetSystems: readonly SystemFacetCells[] | null;
  }
> {
  if (source === null) return { ...planStartFromSd(input), facetCells: null, facetSystems: null };
  const database = isDatabaseSource(source);
  if (input.sd !== undefined || input.sdMacro !== undefined || input.sdMicro !== undefined) {
    const given = database ? optionRef("url") : "a file";
    throw new RagciError("invalid-option", `give either ${given} or ${optionRef("sd")}, not both`, {
      option: "sd",
    });
  }
  const pilot = await readSource(source, selection, {
    read: "one",
    usedBy: "plan",
    ...(progress ? { progress } : {}),
  });
  const { file, sha256 } = pilot.description;
  // A faceted pilot of one system: its cells, for a plan across facets (judges, reruns).
  const facetCells = pilot.cells?.length === 1 ? (pilot.cells[0]?.cells ?? null) : null;
  const start = planStartFromPilot(
    {
      ...pilot,
      system: input.system ?? null,
      file,
      // How the message names the source: "the file", or the database's table.
      named: database ? file : "the file",
      sha256: sha256 as string,
    },
    input,
  );
  // A pair's: each system's cells, for a plan of their difference.
  return { ...start, facetCells, facetSystems: pilot.cells ?? null };
}
