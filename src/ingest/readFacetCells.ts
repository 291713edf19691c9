import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { optionRef, RagciError } from "../core/errors.js";
import type { FacetCells } from "../core/facets/facetCells.js";
import { csvLineRefusal } from "./csvReadError.js";
import { withDuckDb } from "./duckdb.js";
import type { FacetRequest } from "./facetRequest.js";
import { type FacetColumns, facetRowsSql } from "./facetRowsSql.js";
import { type InputFormat, sqlString, tableFunction } from "./inputFormat.js";
import { explainJsonLines } from "./jsonLinesProblem.js";
import { foundQueryColumn } from "./queryIdCheck.js";
import { readColumns } from "./readColumns.js";
import { resolveColumn } from "./resolveColumns.js";
import { resultsLayout } from "./resultsLayout.js";
import { sampleColumns } from "./sampleColumns.js";
import { averagedRowsSql } from "./sql/averagedRowsSql.js";
import { dialect } from "./sql/dialects.js";
import { facetCellsSql } from "./sql/facetCellsSql.js";
import { type TrialCount, trialCountFor } from "./sql/trialCountSql.js";
import { INTEGER_TYPE } from "./summation.js";
import { isBlankId } from "./validateRows.js";

/** One system × metric's cells. */
export interface SystemFacetCells {
  /** The system (null: the file has no system column and is one system). */
  readonly system: string | null;
  readonly metric: string;
  readonly cells: FacetCells;
}

/** What reading a faceted file gives: the cells, and the file averaged per query for the mean path. */
export interface FacetRead {
  readonly cells: readonly SystemFacetCells[];
  /** Parquet, one row per (system, document, query), each metric averaged over the query's cells and trials. */
  readonly averagedPath: string;
  /** The query id column of the averaged file (the file's). */
  readonly queryColumn: string;
  /** Rows of the file (results × trials × judges × variants). */
  readonly rows: number;
  readonly notices: readonly string[];
  readonly cleanup: () => Promise<void>;
}

export interface FacetReadOptions extends FacetRequest {
  /** Path DuckDB reads. */
  readonly path: string;
  /** Name in messages. */
  readonly file: string;
  readonly format: InputFormat;
  readonly doc?: string | null;
  readonly query?: string | null;
  /** The system column asked for; without one, a column named "system" splits the file. */
  readonly system?: string | null;
  /** One file per system: the system's name (no system column is read). */
  readonly systemName?: string | null;
  readonly metrics?: readonly string[] | null;
  readonly threads?: number;
}

/**
 * Reads a per-query file with facet columns (trial, judge, variant): checks that each
 * (system, document, query, trial, judge, variant) is there once, returns each system × metric's
 * cells (sql/facetCellsSql.ts: one GROUP BY over the file) and writes the file averaged per
 * (system, document, query) to a temporary Parquet file that the per-document path reads.
 *
 * @throws RagciError for a facet column not in the file, a repeated or missing trial, a value
 *   that is not a number, or no query id column
 */
/**
 * A facet column (trial, judge, variant) is never also the document, system or query id: one
 * column cannot both tell results apart and group them. `source` names the file or table.
 *
 * @throws RagciError naming the column
 */
export function refuseFacetIdClash(
  source: string,
  facets: readonly string[],
  ids: readonly (string | null)[],
): void {
  const clash = facets.find((c) => ids.includes(c));
  if (clash)
    throw new RagciError(
      "invalid-option",
      `${source}: column ${clash} cannot be both a facet (trial, judge, variant) and the document, system or query id`,
      { file: source, column: clash },
    );
}

export async function readFacetCells(options: FacetReadOptions): Promise<FacetRead> {
  const { file } = options;
  return withDuckDb(async (connection) => {
    const sample = await sampleColumns(connection, options.path, options.format, file);
    const names = sample.columns.map((c) => c.name);
    const facetColumn = (name: string | null | undefined, role: "trial" | "judge" | "variant") =>
      name ? resolveColumn(name, names, file, role) : null;
    const trialColumn = facetColumn(options.trial, "trial");
    const judgeColumn = facetColumn(options.judge, "judge");
    const variantColumn = facetColumn(options.variant, "variant");
    const facetNames = [trialColumn, judgeColumn, variantColumn].filter((c) => c !== null);
    // The facet columns are ids: never the default metric, never the document or system.
    const layout = resultsLayout(
      sample.columns.filter((c) => !facetNames.includes(c.name)),
      {
        doc: options.doc ?? null,
        metrics: options.metrics ?? null,
        system: options.systemName ? null : (options.system ?? null),
        systemIfPresent: options.systemName || options.system ? null : "system",
      },
      file,
    );
    const queryColumn = options.query
      ? resolveColumn(options.query, names, file, "query")
      : foundQueryColumn(names, [layout.documentColumn, ...layout.metrics, ...facetNames]);
    if (queryColumn === null)
      throw new RagciError(
        "missing-column",
        `${file}: facets (trial, judge, variant) need the query id column; name it with ${optionRef("query")}`,
        { file, option: "query" },
      );
    refuseFacetIdClash(file, facetNames, [layout.documentColumn, layout.systemColumn, queryColumn]);
    const columns: FacetColumns = {
      source: tableFunction(options.path, options.format),
      documentColumn: layout.documentColumn,
      systemSql: options.systemName
        ? sqlString(options.systemName)
        : layout.systemColumn
          ? `CAST("${layout.systemColumn.replaceAll('"', '""')}" AS VARCHAR)`
          : null,
      queryColumn,
      trialColumn,
      judgeColumn,
      variantColumn,
      metrics: layout.metrics,
    };
    const trialType = sample.columns.find((c) => c.name === trialColumn)?.type ?? null;
    // Whole numbers are summed exactly, in any order. Other values' within-cell sums of squares
    // (var_pop) and per-query means (avg) come from states DuckDB merges in whatever order its
    // threads finish — four runs on two threads gave four different last bits — so they are
    // read on one thread, in file order: the same bits every time, at up to twice the wall time
    // (the same CPU time; docs/performance.md, "Noise facets").
    const typeOf = new Map(sample.columns.map((c) => [c.name, c.type]));
    const integers = layout.metrics.every((m) => INTEGER_TYPE.test(typeOf.get(m) ?? ""));
    if (!integers) await connection.run("SET threads = 1");
    const read = await cellsOf(connection, columns, file, trialCountFor(trialType), integers).catch(
      async (error) => {
        // A CSV line past DuckDB's first look that is not UTF-8, leaves a quote open or has a
        // metric that is not a number, or a JSON line it did not reach: named by its line
        // (DuckDB's JSON line is one off).
        throw (
          csvLineRefusal(file, error) ??
          (await explainJsonLines(options.path, file, options.format)) ??
          error
        );
      },
    );
    read.notices.unshift(averagingNotice(read.cells, columns, file));
    const dir = await mkdtemp(join(tmpdir(), "ragci-facets-"));
    const averagedPath = join(dir, "averaged.parquet");
    try {
      await connection.run(
        `COPY (${averagedRowsSql(
          dialect("duckdb"),
          facetRowsSql(columns),
          {
            doc: layout.documentColumn,
            system: options.systemName ? null : layout.systemColumn,
            query: queryColumn,
            metrics: layout.metrics,
          },
          true,
        )}) TO ${sqlString(averagedPath)} (FORMAT parquet)`,
      );
    } catch (error) {
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return {
      cells: read.cells,
      averagedPath,
      queryColumn,
      rows: read.rows,
      notices: read.notices,
      cleanup: () => rm(dir, { recursive: true, force: true }),
    };
  }, options.threads);
}

/** What the per-document path reads: each query's mean over its trials, judges and variants. */
export function averagingNotice(
  cells: readonly SystemFacetCells[],
  c: Pick<FacetColumns, "trialColumn" | "judgeColumn" | "variantColumn">,
  file: string,
): string {
  // A loop: spreading 10⁵ cells into Math.max's arguments overflows the stack.
  let most = 0;
  for (const s of cells) for (const n of s.cells.n) most = Math.max(most, n);
  const judges = [...new Set(cells.flatMap((s) => s.cells.labels.judges ?? []))];
  const variants = [...new Set(cells.flatMap((s) => s.cells.labels.variants ?? []))];
  const over = [
    c.trialColumn ? `its trials (column ${c.trialColumn}, up to ${most} per cell)` : null,
    c.judgeColumn
      ? `${judges.length} judges (column ${c.judgeColumn}: ${judges.join(", ")})`
      : null,
    c.variantColumn
      ? `${variants.length} variants (column ${c.variantColumn}: ${variants.join(", ")})`
      : null,
  ].filter((x) => x !== null);
  const crossed = [c.judgeColumn ? "judges" : null, c.variantColumn ? "variants" : null]
    .filter((x) => x !== null)
    .join(" and ");
  const fixed = crossed ? `; the per-document intervals are for these ${crossed} (fixed)` : "";
  return `${file}: each query's result is its mean over ${over.join(", ")}${fixed}`;
}

/** A cell as the statement returns it, before its codes (sql/facetCellsSql.ts's columns in order). */
export interface CellRows {
  readonly sys: (string | null)[];
  readonly doc: (string | null)[];
  readonly q: (string | null)[];
  readonly j: (string | null)[];
  readonly w: (string | null)[];
  readonly rows: Float64Array;
  readonly trials: Float64Array;
  readonly nulls: Float64Array;
  readonly perMetric: { n: Float64Array; s: Float64Array; ss: Float64Array }[];
}

async function cellsOf(
  connection: DuckDBConnection,
  c: FacetColumns,
  file: string,
  trials: TrialCount,
  integers: boolean,
): Promise<{ cells: SystemFacetCells[]; notices: string[]; rows: number }> {
  const kinds = [
    ...(["string", "string", "string", "string", "string"] as const),
    ...(["number", "number", "number"] as const),
    ...c.metrics.flatMap(() => ["number", "number", "number"] as const),
  ];
  const data = await readColumns(
    connection,
    facetCellsSql(dialect("duckdb"), facetRowsSql(c, "raw"), c.metrics.length, trials, integers),
    kinds,
  );
  // A cell whose integer trials span too far to count by bits: count every cell's labels.
  if (trials === "integers" && (data[6] as Float64Array).some(Number.isNaN))
    return cellsOf(connection, c, file, "labels", integers);
  const at = (i: number) => data[i] as (string | null)[];
  const num = (i: number) => data[i] as Float64Array;
  const rows: CellRows = {
    sys: at(0),
    doc: at(1),
    q: at(2),
    j: at(3),
    w: at(4),
    rows: num(5),
    trials: num(6),
    nulls: num(7),
    perMetric: c.metrics.map((_, m) => ({
      n: num(8 + 3 * m),
      s: num(9 + 3 * m),
      ss: num(10 + 3 * m),
    })),
  };
  return systemCellsOf(rows, c, file);
}

/**
 * Each system × metric's cells from the cell rows of sql/facetCellsSql.ts (of a file, in
 * DuckDB, or of a database), ordered by system, document, query, judge, variant,
 * after the checks: a (system, document, query, trial, judge, variant) once, every value a
 * number, every id and facet label present.
 *
 * @throws RagciError naming the first cell that fails a check
 */
export function systemCellsOf(
  rows: CellRows,
  c: Pick<FacetColumns, "trialColumn" | "judgeColumn" | "variantColumn" | "metrics">,
  file: string,
): { cells: SystemFacetCells[]; notices: string[]; rows: number } {
  checkCells(rows, c, file);
  const systems: (string | null)[] = [];
  const starts: number[] = [];
  for (let i = 0; i < rows.sys.length; i++)
    if (i === 0 || rows.sys[i] !== rows.sys[i - 1]) {
      systems.push(rows.sys[i] ?? null);
      starts.push(i);
    }
  starts.push(rows.sys.length);
  const cells: SystemFacetCells[] = [];
  const notices: string[] = [];
  for (let k = 0; k < systems.length; k++) {
    const from = starts[k] as number;
    const to = starts[k + 1] as number;
    const system = systems[k] ?? null;
    const coded = codes(rows, from, to, c);
    const missing = coded.queries * coded.judges * coded.variants - (to - from);
    if (missing > 0)
      notices.push(
        `${file}${system === null ? "" : ` (system ${system})`}: ${missing} of ${coded.queries * coded.judges * coded.variants} (query, ${[c.judgeColumn ? "judge" : null, c.variantColumn ? "variant" : null].filter((x) => x).join(", ")}) cells have no result; the judges and variants are unbalanced, which the decomposition allows`,
      );
    c.metrics.forEach((metric, m) => {
      const values = rows.perMetric[m] as CellRows["perMetric"][number];
      cells.push({
        system,
        metric,
        cells: {
          ...coded.cells,
          n: values.n.slice(from, to),
          sum: values.s.slice(from, to),
          withinSumOfSquares: values.ss.slice(from, to),
        },
      });
    });
  }
  return { cells, notices, rows: rows.rows.reduce((t, r) => t + r, 0) };
}

/** Refuses a (system, document, query, trial, judge, variant) seen twice, a missing trial label or value. */
function checkCells(
  rows: CellRows,
  c: Pick<FacetColumns, "trialColumn" | "judgeColumn" | "variantColumn">,
  file: string,
): void {
  for (let i = 0; i < rows.rows.length; i++) {
    const repeated = c.trialColumn
      ? (rows.rows[i] as number) > (rows.trials[i] as number)
      : (rows.rows[i] as number) > 1;
    const bad = repeated
      ? "repeated"
      : (rows.nulls[i] as number) > 0
        ? "null"
        : isBlankId(rows.doc[i] ?? null) || isBlankId(rows.q[i] ?? null)
          ? "id"
          : // A blank label (" ") is no judge or wording, as a blank id is no document.
            (c.judgeColumn && isBlankId(rows.j[i] ?? null)) ||
              (c.variantColumn && isBlankId(rows.w[i] ?? null))
            ? "facet"
            : null;
    if (bad === null) continue;
    // A missing label is not shown (it would read "judge  has…").
    const where = [
      rows.sys[i] === null ? null : `system ${rows.sys[i]}`,
      `document ${rows.doc[i]}`,
      `query ${rows.q[i]}`,
      c.judgeColumn && bad !== "facet" ? `judge ${rows.j[i]}` : null,
      c.variantColumn && bad !== "facet" ? `variant ${rows.w[i]}` : null,
    ]
      .filter((x) => x !== null)
      .join(", ");
    const message =
      bad === "repeated"
        ? c.trialColumn
          ? `${where} has ${rows.rows[i]} rows but ${rows.trials[i]} distinct trials in column ${c.trialColumn} (a trial twice, or one without a label); each (system, document, query, trial, judge, variant) is one result`
          : `${where} has ${rows.rows[i]} rows; each (system, document, query, judge, variant) is one result — name the reruns' column with ${optionRef("trial")}, or remove the repeats`
        : bad === "null"
          ? `${where} has a metric value that is empty, not a number or infinite; every result needs a finite value`
          : bad === "id"
            ? `a row has no document or query id (empty or blank); every row needs both`
            : `${where}: a row has no label in the judge or variant column (empty or blank); every row needs one`;
    throw new RagciError("invalid-value", `${file}: ${message}`, { file });
  }
}

/** The cells' codes (facetCells.ts) for rows [from, to), which are ordered by document, query, judge, variant. */
function codes(
  rows: CellRows,
  from: number,
  to: number,
  c: Pick<FacetColumns, "judgeColumn" | "variantColumn">,
): {
  cells: Pick<FacetCells, "document" | "query" | "judge" | "variant" | "labels">;
  queries: number;
  judges: number;
  variants: number;
} {
  const size = to - from;
  const document = new Int32Array(size);
  const query = new Int32Array(size);
  const documents: string[] = [];
  let queries = 0;
  for (let i = from; i < to; i++) {
    const newDoc = i === from || rows.doc[i] !== rows.doc[i - 1];
    if (newDoc) documents.push(rows.doc[i] as string);
    if (newDoc || rows.q[i] !== rows.q[i - 1]) queries++;
    document[i - from] = documents.length - 1;
    query[i - from] = queries - 1;
  }
  const facet = (labels: (string | null)[], present: boolean) => {
    if (!present) return { codes: null, labels: null };
    const sorted = [...new Set(labels.slice(from, to) as string[])].sort((a, b) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    const index = new Map(sorted.map((l, k) => [l, k]));
    const out = new Int32Array(size);
    for (let i = from; i < to; i++) out[i - from] = index.get(labels[i] as string) as number;
    return { codes: out, labels: sorted };
  };
  const judge = facet(rows.j, c.judgeColumn !== null);
  const variant = facet(rows.w, c.variantColumn !== null);
  return {
    cells: {
      document,
      query,
      judge: judge.codes,
      variant: variant.codes,
      labels: { documents, judges: judge.labels, variants: variant.labels },
    },
    queries,
    judges: judge.labels?.length ?? 1,
    variants: variant.labels?.length ?? 1,
  };
}
