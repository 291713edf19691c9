import { optionRef, RagciError } from "../../core/errors.js";
import { foundQueryColumn } from "../queryIdCheck.js";
import {
  averagingNotice,
  refuseFacetIdClash,
  type SystemFacetCells,
  systemCellsOf,
} from "../readFacetCells.js";
import { documentColumn, findColumn, resolveColumn, resolveMetrics } from "../resolveColumns.js";
import type { DatabaseSource } from "../source.js";
import { averagedRowsSql } from "./averagedRowsSql.js";
import type { Dialect } from "./dialects.js";
import { facetCellRows } from "./facetCellRows.js";
import { type FacetSourceColumns, facetCellsWarehouseSql } from "./facetCellsWarehouseSql.js";
import { type ReadDatabaseOptions, withDatabase } from "./readDatabase.js";
import { type SqlSource, sourceRowsSelect } from "./sourceRowsSql.js";

/** What a faceted database source gives: the cells, and the rows averaged per query. */
export interface DatabaseFacetRead {
  readonly cells: readonly SystemFacetCells[];
  /** One row per (system, document, query), each metric its mean over trials, judges, variants, under the source's column names. */
  readonly averaged: SqlSource;
  /** The source as messages name it (pass it as the averaged read's `name`). */
  readonly name: string;
  /** The query id column (the averaged rows keep it: what a paired read joins on). */
  readonly query: string;
  /** The system column (the averaged rows keep it); null for rows of one system. */
  readonly system: string | null;
  /** Rows of the source (results × trials × judges × variants). */
  readonly rows: number;
  readonly notices: readonly string[];
}

/**
 * The source's rows averaged per (system, document, query) — what the per-document (mean)
 * path reads, as a file's averaged table (averagedRowsSql.ts, the same statement) — as a
 * SELECT under the source's own column names.
 */
export function averagedSql(
  d: Dialect,
  source: SqlSource,
  c: Omit<FacetSourceColumns, "systems">,
): string {
  const { trial, judge, variant, ...names } = c;
  const rows = sourceRowsSelect(d, source, {
    ...names,
    systems: null,
    facets: { trial, judge, variant },
  });
  return averagedRowsSql(d, rows, names, false);
}

/** The facet columns a database source names, as readDatabaseFacetCells takes them. */
export function facetColumnsOf(source: DatabaseSource): {
  readonly query: string | null;
  readonly trial: string | null;
  readonly judge: string | null;
  readonly variant: string | null;
} {
  return {
    query: source.query ?? null,
    trial: source.trial ?? null,
    judge: source.judge ?? null,
    variant: source.variant ?? null,
  };
}

/**
 * Reads a database source with facet columns (trial, judge, variant): each system × metric's
 * cells from one GROUP BY in the database (facetCellsWarehouseSql.ts), checked as a file's are
 * (readFacetCells.ts), and the SELECT of the rows averaged per query for the per-document path.
 *
 * @throws RagciError for a facet or query column not in the source, a repeated or missing
 *   trial, a value that is not a finite number
 */
export async function readDatabaseFacetCells(
  options: ReadDatabaseOptions & {
    readonly query?: string | null;
    /** Without `system`: a column of this name, if there is one, is the system column. */
    readonly systemIfPresent?: string | null;
    readonly trial?: string | null;
    readonly judge?: string | null;
    readonly variant?: string | null;
  },
): Promise<DatabaseFacetRead> {
  return withDatabase(options, async ({ d, name, columns, run }) => {
    const doc = documentColumn(options.doc, columns, name);
    const metrics = resolveMetrics(options.metrics, columns, name);
    const system = options.system
      ? resolveColumn(options.system, columns, name, "system")
      : options.systemIfPresent
        ? findColumn([options.systemIfPresent], columns)
        : null;
    const facet = (column: string | null | undefined, role: "trial" | "judge" | "variant") =>
      column ? resolveColumn(column, columns, name, role) : null;
    const trial = facet(options.trial, "trial");
    const judge = facet(options.judge, "judge");
    const variant = facet(options.variant, "variant");
    const query = options.query
      ? resolveColumn(options.query, columns, name, "query")
      : foundQueryColumn(
          columns,
          [doc, ...metrics, trial, judge, variant].filter((c) => c !== null),
        );
    if (!query)
      throw new RagciError(
        "missing-column",
        `${name}: facets (trial, judge, variant) need the query id column; name it with ${optionRef("query")}`,
        { option: "query" },
      );
    const facetColumns = [trial, judge, variant].filter((c) => c !== null);
    refuseFacetIdClash(name, facetColumns, [doc, system, query]);
    const rows = await run(
      facetCellsWarehouseSql(d, options.source, {
        doc,
        system,
        systems: options.systems ?? null,
        query,
        trial,
        judge,
        variant,
        metrics,
      }),
    );
    if (rows.length === 0)
      throw new RagciError("empty-input", `${name}: no rows; there is nothing to analyse`);
    const facets = { trialColumn: trial, judgeColumn: judge, variantColumn: variant };
    const read = systemCellsOf(
      facetCellRows(rows, metrics.length, name),
      { ...facets, metrics },
      name,
    );
    return {
      cells: read.cells,
      averaged: {
        sql: averagedSql(d, options.source, { doc, system, query, metrics, trial, judge, variant }),
      },
      name,
      query,
      system,
      rows: read.rows,
      notices: [averagingNotice(read.cells, facets, name), ...read.notices],
    };
  });
}
