import {
  type AnalysisRequest,
  analysisSettings,
  checkAnalysisRequest,
} from "../core/analysisSettings.js";
import { optionRef, RagciError } from "../core/errors.js";
import { chunkBootstrapValuesToKeep } from "../core/resamplingBudget.js";
import { namingSystemMetric, systemMetricLabel } from "../core/systemMetricLabel.js";
import {
  cellsOfSystem,
  type DesignOptions,
  declaredDesign,
  loadDuringScan,
  mergeShards,
  type ReadProgress,
  readSource,
  type Selection,
  type Source,
  sha256Aggregates,
  writeAggregates,
} from "../ingest/index.js";
import type { AnalysisReport } from "../report/analysisReport.js";
import { refuseUnsafeAggregates } from "./refuseUnsafeAggregates.js";
import {
  analysisCensusStudiesOfFile,
  type CensusStudyRequest,
  readAnalysisCensus,
  type StudyIo,
} from "./sourceCensusStudies.js";

/** What analyzeSource is asked for: the analysis, the design, a census study, a table to write. */
export interface AnalyzeSourceOptions
  extends AnalysisRequest,
    DesignOptions,
    Omit<CensusStudyRequest, "census"> {
  /** Every document of the population: a coverage study at the sample's K recommends. */
  readonly census?: string;
  /** Where to write the per-document table (.csv or .parquet) to re-run from. */
  readonly writeAggregates?: string;
}

/** A run's status line, reading progress and stop signal, and the version the report names. */
export interface SourceRunIo extends StudyIo {
  readonly version: string;
  readonly progress?: ReadProgress;
}

/**
 * A census study draws SRS samples: a design's interval is studied with simulate instead.
 *
 * @throws RagciError for a census with a design
 */
export function checkAnalysisCensus(options: Pick<AnalyzeSourceOptions, "census" | "design">) {
  if (options.census && options.design) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("census")} runs an SRS study; with a design, study it with ragci simulate on the census`,
      { option: "census" },
    );
  }
}

/**
 * analyze: the source read into per-document tables (shards merged per document), each system ×
 * metric analysed (with its design, facets' variance components, and a census's study and M),
 * and the report; also the tables, for a page or a file.
 *
 * @throws RagciError for unreadable input or options that do not fit it
 *
 * @example // `ragci analyze examples/covidqa-retrieval.csv --system system=bm25 --metric hit5
 *   // --replicates 0`: 98 documents, 1,009 of 1,380 results hit (awk on the file)
 *   await analyzeSource({ files: ["examples/covidqa-retrieval.csv"], doc: "doc_id" }, { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] }, { level: 0.95, replicates: 0, seed: 1 }, { version: "example" })
 *     .then(({ report }) => [report.entries[0].analysis.documents, report.entries[0].analysis.micro.estimate, report.entries[0].analysis.micro.recommended])
 *   // => [98, 0.73116, "logit-cv3"]
 */
export async function analyzeSource(
  source: Source,
  selection: Selection,
  options: AnalyzeSourceOptions,
  io: SourceRunIo,
) {
  checkAnalysisRequest(options);
  checkAnalysisCensus(options);
  await refuseUnsafeAggregates(source, options);
  const designed = await declaredDesign(options);
  // The estimators (and @stdlib's quantile functions) load while DuckDB scans the files.
  const [inputs, { analyze }] = await loadDuringScan(
    readSource(source, selection, {
      read: "tables",
      documentLabel: designed.label,
      valuesUpTo: chunkBootstrapValuesToKeep(options.replicates),
      ...(io.progress ? { progress: io.progress } : {}),
    }),
    () => import("../core/analyze.js"),
  );
  const groups = mergeShards(
    inputs.map((i) => ({ file: i.description.file, groups: i.table.groups })),
    designed.label,
  );
  // A census is read first, so that each analysis is computed once, with the census's M.
  const census = options.census
    ? await readAnalysisCensus({ ...options, census: options.census }, selection, io)
    : null;
  census?.refuseOutside(groups);
  io.status?.("computing intervals…");
  const settings = analysisSettings(options, designed.population);
  const analysisOf = (group: (typeof groups)[number], population: number | null) =>
    analyze(group.stats, {
      ...settings,
      population,
      design: designed.build(group.labels),
      values: group.values ?? null,
      onProgress: (phase, f) =>
        io.status?.(`${systemMetricLabel(group)}: ${phase} ${Math.round(100 * f)}%`),
    });
  // With facets, each system × metric's variance components from its cells.
  const components = inputs.some((i) => i.cells)
    ? (await import("../core/facets/facetInterval.js")).facetInterval
    : null;
  const entries = groups.map((group) =>
    namingSystemMetric(group, groups.length, () => {
      const cells = components ? cellsOfSystem(inputs, group.system, group.metric) : null;
      return {
        metric: group.metric,
        system: group.system,
        analysis: analysisOf(group, settings.population ?? census?.populationOf(group) ?? null),
        aggregatesSha256: sha256Aggregates([group]),
        ...(components && cells ? { facets: components(cells, { level: options.level }) } : {}),
      };
    }),
  );
  const studied = census ? await analysisCensusStudiesOfFile(entries, census) : entries;
  if (options.writeAggregates)
    await writeAggregates(options.writeAggregates, groups, designed.label);
  const report: AnalysisReport = {
    command: "ragci analyze",
    version: io.version,
    inputs: inputs.map((i) => i.description),
    entries: studied,
    aggregatesFile: options.writeAggregates ?? null,
    summation: inputs.some((i) => i.table.summation !== "exact") ? "double-single-thread" : "exact",
    notices: inputs.flatMap((i) => i.table.notices),
  };
  return { report, groups, documentLabel: designed.label };
}
