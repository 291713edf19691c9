import { plural } from "../core/plural.js";
import type { DocumentStats } from "../core/types.js";

/**
 * One line on a written per-document table (aggregate, merge): systems × metrics, documents,
 * results, and how the sums were added (`inexact`: the inputs summed as doubles).
 */
export function perDocumentTableSummary(
  target: string,
  groups: readonly {
    readonly system: string | null;
    readonly metric: string;
    readonly stats: Pick<DocumentStats, "ids" | "n">;
  }[],
  inexact: readonly string[],
): string {
  const systems = new Set(groups.map((g) => g.system)).size;
  const metrics = new Set(groups.map((g) => g.metric)).size;
  const documents = new Set(groups.flatMap((g) => g.stats.ids)).size;
  const first = groups[0]?.metric;
  const results = groups
    .filter((g) => g.metric === first)
    .reduce((t, g) => t + g.stats.n.reduce((a, b) => a + b, 0), 0);
  const sums =
    inexact.length === 0
      ? "sums exact"
      : `sums of ${inexact.join(", ")} added as doubles in file order (values too large for exact decimal sums)`;
  return `wrote ${target}: ${plural(systems, "system")} × ${plural(metrics, "metric")}, ${plural(documents, "document")}, ${plural(results, "result")} (${sums})\n`;
}
