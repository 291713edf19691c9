import { RagciError } from "../core/errors.js";
import { defaultMetric, type InputColumn } from "./describeColumns.js";
import { type AggregatedOption, requirePerQueryTable } from "./identity.js";
import { foundQueryColumn, QUERY_CHECK_ROW_LIMIT, type QueryCheck } from "./queryIdCheck.js";
import {
  resolveColumn,
  documentColumn as resolveDocumentColumn,
  labelColumn as resolveLabelColumn,
  resolveMetrics,
} from "./resolveColumns.js";

/** The columns of a per-query file asked for (or found by their usual names). */
export interface LayoutRequest {
  readonly doc?: string | null | undefined;
  readonly metrics?: readonly string[] | null | undefined;
  readonly system?: string | null | undefined;
  readonly systemIfPresent?: string | null | undefined;
  readonly documentLabel?: string | null | undefined;
  readonly query?: string | null | undefined;
  readonly queryCheckRowLimit?: number | undefined;
  /** The option a refusal of a per-document table names (AggregatedOption); default `aggregated`. */
  readonly aggregatedOption?: AggregatedOption | undefined;
}

/** Which column of a per-query file plays which part. */
export interface ResultsLayout {
  readonly documentColumn: string;
  readonly systemColumn: string | null;
  readonly metrics: readonly string[];
  readonly labelColumn: string | null;
  readonly queryCheck: QueryCheck;
}

/**
 * The document, system, metric, label and query id columns of a per-query file.
 *
 * @throws RagciError "missing-column" / "ambiguous-column" for a column not found, and
 *   "invalid-option" for a column asked to be both a metric (or query id) and an id
 */
export function resultsLayout(
  columns: readonly InputColumn[],
  request: LayoutRequest,
  file: string,
): ResultsLayout {
  const names = columns.map((c) => c.name);
  if (names.length === 0) throw new RagciError("empty-input", `${file}: no columns`, { file });
  const documentColumn = resolveDocumentColumn(request.doc, names, file);
  const systemColumn = request.system
    ? resolveColumn(request.system, names, file, "system")
    : request.systemIfPresent && names.includes(request.systemIfPresent)
      ? request.systemIfPresent
      : null;
  const ids = [documentColumn, ...(systemColumn ? [systemColumn] : [])];
  requirePerQueryTable(names, request.metrics ?? [], file, request.aggregatedOption);
  const metrics =
    request.metrics && request.metrics.length > 0
      ? resolveMetrics(request.metrics, names, file)
      : [defaultMetric(columns, ids, file)];
  for (const metric of metrics) {
    if (ids.includes(metric)) {
      throw new RagciError(
        "invalid-option",
        `${file}: column ${metric} cannot be both a metric and an id`,
        { file, column: metric },
      );
    }
  }
  const labelColumn = resolveLabelColumn(request.documentLabel, names, file);
  return {
    documentColumn,
    systemColumn,
    metrics,
    labelColumn,
    queryCheck: queryCheck(request, names, { documentColumn, systemColumn, metrics }, file),
  };
}

/** The query id column named (checked whatever the size), else the one found by name. */
function queryCheck(
  request: LayoutRequest,
  names: readonly string[],
  taken: Pick<ResultsLayout, "documentColumn" | "systemColumn" | "metrics">,
  file: string,
): QueryCheck {
  const rowLimit = request.queryCheckRowLimit ?? QUERY_CHECK_ROW_LIMIT;
  const { documentColumn, systemColumn, metrics } = taken;
  if (!request.query) {
    const column = foundQueryColumn(names, [documentColumn, ...metrics]);
    return { column, named: false, rowLimit };
  }
  const column = resolveColumn(request.query, names, file, "query");
  if (column === documentColumn || column === systemColumn || metrics.includes(column)) {
    throw new RagciError(
      "invalid-option",
      `${file}: column ${column} cannot be both the query id and a document, system or metric`,
      { file, column },
    );
  }
  return { column, named: true, rowLimit };
}
