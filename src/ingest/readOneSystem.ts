import { optionRef, RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { readAggregates } from "./readAggregates.js";
import { type MetricAggregates, type ResultsTable, readResults } from "./readResults.js";
import type { Selection } from "./selection.js";

/**
 * The one system × metric a read of one system works on: the selection's system, the only one
 * in the source, or an error naming what was found and how to choose. `usedBy` names what uses
 * it in messages ("plan", "strata").
 */
export function oneSystemGroup(
  table: ResultsTable,
  selection: Selection,
  source: string,
  usedBy: string,
): MetricAggregates {
  const systems = [...new Set(table.groups.map((g) => g.system))];
  const named = selection.systems?.[0];
  let groups = table.groups;
  if (named !== undefined) {
    groups = groups.filter((g) => g.system === named);
    if (groups.length === 0) {
      throw new RagciError(
        "invalid-option",
        `${source}: no system "${named}" in column ${selection.systemColumn} (found ${systems.join(", ")})`,
        { file: source, option: "system" },
      );
    }
  } else if (systems.length > 1) {
    const column = selection.systemColumn ?? table.systemColumn ?? "system";
    throw new RagciError(
      "invalid-option",
      `${source}: ${systems.length} systems in column ${column} (${systems.join(", ")}); ${usedBy} uses one: pick it with ${optionRef("system")} ${column}=${systems[0]}`,
      { file: source, option: "system" },
    );
  }
  if (groups.length > 1) {
    throw new RagciError(
      "invalid-option",
      `${source}: ${usedBy} uses one metric; name it with ${optionRef("metric")} (found ${groups.map((g) => g.metric).join(", ")})`,
      { file: source, option: "metric" },
    );
  }
  return groups[0] as MetricAggregates;
}

/** What a read of one system takes: a file, its layout, and the per-document label to carry. */
export interface OneSystemInput {
  /** Path read. */
  readonly file: string;
  /** How the file is named in messages; default `file`. */
  readonly displayName?: string;
  readonly format?: string | null | undefined;
  readonly doc?: string | null | undefined;
  readonly aggregated?: boolean | undefined;
  /** A per-document design column to read too (a two-stage study's units). */
  readonly documentLabel?: string | null | undefined;
}

/**
 * Reads a per-query or per-document file and returns the one system × metric the selection
 * (or the file) leaves, with how many systems the file held.
 */
export async function readOneSystem(
  input: OneSystemInput,
  selection: Selection,
  usedBy: string,
): Promise<{
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly systemsInFile: number;
  /** Each document's documentLabel value, aligned with stats.ids (when one was asked for). */
  readonly labels: readonly string[] | null;
}> {
  const displayName = input.displayName ?? input.file;
  const common = {
    file: input.file,
    displayName,
    format: input.format ?? null,
    doc: input.doc ?? null,
    metrics: selection.metrics ?? null,
    system: selection.systemColumn ?? null,
    documentLabel: input.documentLabel ?? null,
  };
  const table = input.aggregated
    ? await readAggregates(common)
    : await readResults({ ...common, systemIfPresent: "system" });
  const group = oneSystemGroup(table, selection, displayName, usedBy);
  return {
    stats: group.stats,
    metric: group.metric,
    systemsInFile: new Set(table.groups.map((g) => g.system)).size,
    labels: group.labels ?? null,
  };
}
