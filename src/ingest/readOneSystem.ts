import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { readAggregates } from "./readAggregates.js";
import { type MetricAggregates, type ResultsTable, readResults } from "./readResults.js";

/** `--system COLUMN=VALUE` of plan and strata: the rows of one system. */
export interface SystemFilter {
  readonly column: string;
  readonly value: string;
}

/**
 * The one system × metric a planning command works on: the filter's system, the only one in
 * the file, or an error naming what was found and how to choose.
 */
export function oneSystemGroup(
  table: ResultsTable,
  filter: SystemFilter | null,
  file: string,
  command: string,
): MetricAggregates {
  const systems = [...new Set(table.groups.map((g) => g.system))];
  let groups = table.groups;
  if (filter && filter.value !== "") {
    groups = groups.filter((g) => g.system === filter.value);
    if (groups.length === 0) {
      throw new RagciError(
        "invalid-option",
        `${file}: no system "${filter.value}" in column ${filter.column} (found ${systems.join(", ")})`,
      );
    }
  } else if (systems.length > 1) {
    const column = filter?.column ?? table.systemColumn ?? "system";
    throw new RagciError(
      "invalid-option",
      `${file}: ${systems.length} systems in column ${column} (${systems.join(", ")}); ${command} uses one: pick it with --system ${column}=${systems[0]}`,
    );
  }
  if (groups.length > 1) {
    throw new RagciError(
      "invalid-option",
      `${file}: ${command} uses one metric; name it with --metric (found ${groups.map((g) => g.metric).join(", ")})`,
    );
  }
  return groups[0] as MetricAggregates;
}

/** What plan and strata read: a file, its layout, and which system and metric to keep. */
export interface OneSystemInput {
  readonly file: string;
  readonly format?: string | undefined;
  readonly doc?: string | undefined;
  readonly metric?: readonly string[] | undefined;
  readonly aggregated?: boolean | undefined;
  /** A per-document design column to read too (a two-stage study's units). */
  readonly documentLabel?: string | null | undefined;
}

/**
 * Reads a per-query or per-document file and returns the one system × metric a planning
 * command works on, with how many systems the file held.
 */
export async function readOneSystem(
  input: OneSystemInput,
  filter: SystemFilter | null,
  command: string,
): Promise<{
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly systemsInFile: number;
  /** Each document's documentLabel value, aligned with stats.ids (when one was asked for). */
  readonly labels: readonly string[] | null;
}> {
  const common = {
    file: input.file,
    format: input.format ?? null,
    doc: input.doc ?? null,
    metrics: input.metric ?? null,
    system: filter?.column ?? null,
    documentLabel: input.documentLabel ?? null,
  };
  const table = input.aggregated
    ? await readAggregates(common)
    : await readResults({ ...common, systemIfPresent: "system" });
  const group = oneSystemGroup(table, filter, input.file, command);
  return {
    stats: group.stats,
    metric: group.metric,
    systemsInFile: new Set(table.groups.map((g) => g.system)).size,
    labels: group.labels ?? null,
  };
}
