import { compareCodePoints } from "../core/aggregate/mergeDocumentStats.js";
import { optionRef, RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import type { PairDifference, PairedTable } from "./pairedTable.js";
import { readAggregates } from "./readAggregates.js";
import { resolveColumn } from "./resolveColumns.js";
import type { MetricAggregates } from "./resultsTable.js";

/** The system name of a pair's difference rows in a per-document table: "B - A". */
export function differenceName(a: string, b: string): string {
  return `${b} - ${a}`;
}

/**
 * The per-document table `compare --write-aggregates` writes: each system's rows, and each
 * compared pair's rows under the system name "B - A" holding n, Σx and Σx² of the per-query
 * differences x = b − a. Per-system sums alone cannot give the differences' Σx² (it needs
 * each query of both systems), so the difference rows are what make a paired re-run possible.
 */
export function pairedAggregateGroups(table: PairedTable): MetricAggregates[] {
  const labels = (stats: DocumentStats) =>
    table.labelOf ? { labels: stats.ids.map((id) => table.labelOf?.get(id) as string) } : {};
  return [
    ...table.perSystem.map((p) => ({
      system: p.system,
      metric: p.metric,
      stats: p.stats,
      ...(p.ranges ? { ranges: p.ranges } : {}),
      ...labels(p.stats),
    })),
    ...table.differences.map((d) => ({
      system: differenceName(d.a, d.b),
      metric: d.metric,
      stats: d.stats,
      ...(d.ranges ? { ranges: d.ranges } : {}),
      ...labels(d.stats),
    })),
  ];
}

export interface ReadPairedAggregatesOptions {
  readonly file: string;
  readonly displayName: string;
  readonly format: string | null;
  readonly doc: string | null;
  readonly system: string | null;
  readonly onlySystems: readonly string[] | null;
  readonly metrics: readonly string[];
  readonly documentLabel: string | null;
  readonly pairs: (systems: readonly string[]) => readonly (readonly [string, string])[];
  readonly threads?: number;
}

function sameDocuments(x: DocumentStats, y: DocumentStats): boolean {
  return (
    x.ids.length === y.ids.length && x.ids.every((id, d) => id === y.ids[d] && x.n[d] === y.n[d])
  );
}

/**
 * A paired comparison from such a table: the systems are the names that are not "B - A" of
 * two others; each requested pair needs its difference rows, over the same documents with the
 * same n as both systems' rows (paired on the same queries).
 */
export async function readPairedAggregates(
  options: ReadPairedAggregatesOptions,
): Promise<PairedTable> {
  const file = options.displayName;
  const table = await readAggregates({
    file: options.file,
    displayName: file,
    format: options.format,
    doc: options.doc,
    metrics: options.metrics,
    system: options.system ?? "system",
    documentLabel: options.documentLabel,
    ...(options.threads ? { threads: options.threads } : {}),
  });
  const names = [...new Set(table.groups.map((g) => g.system ?? ""))];
  const isDifference = (name: string) =>
    names.some((a) => names.some((b) => a !== b && name === differenceName(a, b)));
  // code-point order, as DuckDB orders the per-query path's systems (ORDER BY sys)
  let systems = names.filter((n) => !isDifference(n)).sort(compareCodePoints);
  if (options.onlySystems) systems = systems.filter((s) => options.onlySystems?.includes(s));
  if (systems.length < 2) {
    throw new RagciError(
      "invalid-value",
      `${file}: found ${systems.length} system${systems.length === 1 ? "" : "s"} (${systems.join(", ")}); a comparison needs at least two`,
      { file },
    );
  }
  // The metrics as the table names them (readAggregates resolved "hit@5" to hit5).
  const metrics = options.metrics.map((m) => resolveColumn(m, table.metrics, file, "metric"));
  const group = (system: string, metric: string): MetricAggregates | undefined =>
    table.groups.find((g) => g.system === system && g.metric === metric);
  const pairs = options.pairs(systems);
  const perSystem: PairedTable["perSystem"][number][] = [];
  const differences: PairDifference[] = [];
  for (const metric of metrics) {
    for (const system of systems) {
      const g = group(system, metric);
      if (!g)
        throw new RagciError(
          "missing-column",
          `${file}: no rows for system ${system}, metric ${metric}`,
          { file },
        );
      perSystem.push({ system, metric, stats: g.stats, ...(g.ranges ? { ranges: g.ranges } : {}) });
    }
    for (const [a, b] of pairs) {
      const d = group(differenceName(a, b), metric);
      if (!d) {
        throw new RagciError(
          "missing-column",
          `${file}: no rows for the difference "${differenceName(a, b)}" of metric ${metric}; a paired comparison needs each query of both systems, so per-system sums are not enough — write the table with ragci compare ${optionRef("writeAggregates")}`,
          { file },
        );
      }
      const sa = group(a, metric)?.stats as DocumentStats;
      const sb = group(b, metric)?.stats as DocumentStats;
      if (!sameDocuments(d.stats, sa) || !sameDocuments(d.stats, sb)) {
        throw new RagciError(
          "invalid-value",
          `${file}: the rows of "${differenceName(a, b)}" (metric ${metric}) do not have the same documents and n as those of ${a} and ${b}; the systems must be paired on the same queries`,
          { file },
        );
      }
      // x ∈ {−1, 0, 1} for two 0/1 systems, so Σx² counts the queries that differ; for
      // scores it cannot be told from per-document sums.
      const binary = sa.binary && sb.binary;
      differences.push({
        a,
        b,
        metric,
        stats: d.stats,
        ...(d.ranges ? { ranges: d.ranges } : {}),
        queriesDiffering: binary ? d.stats.ss.reduce((t, v) => t + v, 0) : null,
      });
    }
  }
  const first = table.groups.find((g) => g.system === systems[0]);
  const labelOf = table.groups.some((g) => g.labels)
    ? new Map(
        table.groups.flatMap((g) =>
          g.stats.ids.map((id, d) => [id, g.labels?.[d] as string] as const),
        ),
      )
    : undefined;
  const queries = first ? first.stats.n.reduce((t, v) => t + v, 0) : 0;
  return {
    systems,
    metrics,
    queries,
    rowsPerInput: [table.groups.reduce((t, g) => t + g.stats.ids.length, 0)],
    dropped: {},
    perSystem,
    differences,
    ...(labelOf ? { labelOf } : {}),
    summation: table.summation,
  };
}
