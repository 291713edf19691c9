import { RagciError } from "./errors.js";

interface SystemMetric {
  readonly system: string | null;
  readonly metric: string;
}

/** "bm25/hit5", or "hit5" without a system: how progress lines and errors name an analysis. */
export function systemMetricLabel(group: SystemMetric): string {
  return group.system === null ? group.metric : `${group.system}/${group.metric}`;
}

/** Runs one system × metric's analysis; with several, an error names the one it is about. */
export function namingSystemMetric<T>(group: SystemMetric, groups: number, run: () => T): T {
  try {
    return run();
  } catch (error) {
    if (error instanceof RagciError && (group.system !== null || groups > 1)) {
      const where = [
        group.system === null ? null : `system ${group.system}`,
        `metric ${group.metric}`,
      ]
        .filter(Boolean)
        .join(", ");
      throw new RagciError(error.code, `${where}: ${error.message}`, error.context);
    }
    throw error;
  }
}
