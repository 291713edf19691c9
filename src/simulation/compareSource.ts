import {
  type AnalysisRequest,
  analysisSettings,
  checkAnalysisRequest,
} from "../core/analysisSettings.js";
import { checkPairPolicy } from "../core/comparisonPairs.js";
import { optionRef, RagciError } from "../core/errors.js";
import { chunkBootstrapValuesToKeep } from "../core/resamplingBudget.js";
import {
  cellsOfSystem,
  checkAggregatesFileName,
  type DesignOptions,
  declaredDesign,
  differenceName,
  loadDuringScan,
  pairedAggregateGroups,
  readSource,
  type Selection,
  type Source,
  writeAggregates,
} from "../ingest/index.js";
import type { ComparisonReport } from "../report/comparisonReport.js";
import type { SourceRunIo } from "./analyzeSource.js";
import { refuseUnsafeAggregates } from "./refuseUnsafeAggregates.js";
import { type CensusStudyRequest, censusDifferenceStudiesOfFile } from "./sourceCensusStudies.js";

/** What compareSource is asked for: the comparisons, the design, a census study, a table to write. */
export interface CompareSourceOptions
  extends AnalysisRequest,
    DesignOptions,
    Omit<CensusStudyRequest, "census"> {
  /** Per-query results of every document for the same systems: a coverage study recommends. */
  readonly census?: string;
  /** Where to write the per-document table (.csv or .parquet) to re-run from. */
  readonly writeAggregates?: string;
}

/**
 * A comparison's request checked before anything is read: metrics named, one pair policy, two
 * systems or more, one per-document table, a census of per-query rows with a system column and
 * no design.
 *
 * @throws RagciError naming the option to change
 */
export function checkComparison(
  files: readonly string[],
  selection: Selection,
  options: Pick<CompareSourceOptions, "census" | "design" | "writeAggregates"> & {
    readonly aggregated?: boolean;
  },
): void {
  const [metric, system, aggregated] = (["metric", "system", "aggregated"] as const).map(optionRef);
  if (!selection.metrics || selection.metrics.length === 0) {
    throw new RagciError(
      "invalid-option",
      `name the metric(s) to compare with ${metric} (e.g. ${metric} hit5,rr)`,
      { option: "metric" },
    );
  }
  checkPairPolicy(selection.pairs ?? {});
  const { systems, systemColumn: column } = selection;
  if (systems && systems.length < 2) {
    throw new RagciError(
      "invalid-option",
      `${system} ${column}=${systems.join(",")}: a comparison needs two systems or more, e.g. ${system} ${column}=${systems[0]},OTHER (or the column alone for every system)`,
      { option: "system" },
    );
  }
  if (options.writeAggregates) checkAggregatesFileName(options.writeAggregates);
  if (options.aggregated && files.length !== 1) {
    throw new RagciError(
      "invalid-option",
      `${aggregated} reads one per-document table (written by ragci compare ${optionRef("writeAggregates")}); give one file`,
      { option: "aggregated" },
    );
  }
  if (options.census && (options.design || !column || options.aggregated)) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("census")} reads a per-query census with a system column (${system} COL) and runs an SRS study; with a design or per-document input, study it with ragci simulate`,
      { option: "census" },
    );
  }
}

/**
 * compare: the source read into each system's and each pair's per-document tables, every pair
 * of each metric compared (with its design, a census's study, and facets' variance components
 * of each system and pair), and the report without a gate; also the results and tables, for a
 * gate, a page or a file.
 *
 * @throws RagciError for unreadable input or options that do not fit it
 *
 * @example // `ragci compare examples/covidqa-retrieval.csv --system system=bm25,tfidf --metric hit5
 *   // --replicates 0`: tfidf − bm25 = (952 − 1,009) / 1,380 per result; the macro difference's
 *   // interval is t with ν = D − 1 (most documents tie)
 *   await compareSource({ files: ["examples/covidqa-retrieval.csv"], doc: "doc_id" }, { systemColumn: "system", systems: ["bm25", "tfidf"], metrics: ["hit5"] }, { level: 0.95, replicates: 0, seed: 1 }, { version: "example" })
 *     .then(({ report }) => [report.metrics[0].comparisons[0].difference.micro.estimate, report.metrics[0].comparisons[0].difference.macro.recommended])
 *   // => [-0.04130, "t-differing"]
 */
export async function compareSource(
  source: Source,
  selection: Selection,
  options: CompareSourceOptions,
  io: SourceRunIo,
) {
  checkAnalysisRequest(options);
  const files = "files" in source ? source.files : [];
  checkComparison(files, selection, {
    ...options,
    aggregated: "files" in source && source.aggregated === true,
  });
  await refuseUnsafeAggregates(source, options);
  const designed = await declaredDesign(options);
  const [loaded, { compareMetric }] = await loadDuringScan(
    readSource(source, selection, {
      read: "pairs",
      documentLabel: designed.label,
      valuesUpTo: chunkBootstrapValuesToKeep(options.replicates),
      ...(io.progress ? { progress: io.progress } : {}),
    }),
    () => import("../core/compareMetric.js"),
  );
  const { table, mode } = loaded;
  const census = options.census;
  const studies = census
    ? await censusDifferenceStudiesOfFile({ ...options, census }, selection, table, io)
    : null;
  const labelOf = table.labelOf;
  const results = table.metrics.map((metric) => {
    io.status?.(`comparing ${metric}…`);
    return compareMetric(metric, table, {
      mode,
      level: options.level,
      analysis: analysisSettings(options, designed.population),
      design: (ids) =>
        designed.build(labelOf ? ids.map((id) => labelOf.get(id) as string) : undefined),
      censusStudy: (d) => {
        const found = studies?.get(JSON.stringify([d.a, d.b, metric]));
        return found ? { ...found, census: census as string } : undefined;
      },
    });
  });
  const aggregates = pairedAggregateGroups(table);
  if (options.writeAggregates)
    await writeAggregates(options.writeAggregates, aggregates, designed.label);
  // With facets, each compared system × metric's variance components from its cells.
  const components = loaded.cells
    ? (await import("../core/facets/facetInterval.js")).facetInterval
    : null;
  const unpaired: string[] = [];
  const pairing = components
    ? (await import("../core/facets/differenceCells.js")).differenceCells
    : null;
  // Each system's cells, then each compared pair's difference cells b − a (paired on
  // document, query, judge, variant), named as the per-document tables name differences.
  const facets =
    components && pairing
      ? results.flatMap((m) => [
          ...table.systems.flatMap((system) => {
            const cells = cellsOfSystem([loaded], system, m.metric);
            return cells
              ? [
                  {
                    system,
                    metric: m.metric,
                    components: components(cells, { level: options.level }),
                  },
                ]
              : [];
          }),
          ...m.comparisons.flatMap((c) => {
            const a = cellsOfSystem([loaded], c.a, m.metric);
            const b = cellsOfSystem([loaded], c.b, m.metric);
            if (!a || !b) return [];
            const { cells, unmatched } = pairing(b, a);
            if (unmatched.a + unmatched.b > 0)
              unpaired.push(
                `${differenceName(c.a, c.b)}, ${m.metric}: ${unmatched.a} cells of ${c.b} and ${unmatched.b} of ${c.a} have no partner (document, query, judge, variant) and are left out of the difference's variance components`,
              );
            return [
              {
                system: differenceName(c.a, c.b),
                metric: m.metric,
                components: components(cells, { level: options.level }),
              },
            ];
          }),
        ])
      : null;
  const report: ComparisonReport = {
    version: io.version,
    inputs: loaded.inputs,
    systems: table.systems,
    mode,
    queries: table.queries,
    dropped: table.dropped,
    metrics: results,
    summation: table.summation,
    notices: [...loaded.notices, ...unpaired],
    aggregatesFile: options.writeAggregates ?? null,
    gate: null,
    ...(facets ? { facets } : {}),
  };
  return { report, table, aggregates, documentLabel: designed.label };
}
