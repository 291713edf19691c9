import { metricKindOf } from "../core/analyze.js";
import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { readOneSystem } from "../ingest/readOneSystem.js";
import { onlyDifference, readPairedResults } from "../ingest/readPairedResults.js";
import { sha256File } from "../ingest/sha256File.js";
import type { SimulationReport } from "../report/simulationReport.js";
import type { CensusInputOptions } from "./censusFileOptions.js";
import { checkSources } from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import { oneSystemOrPair } from "./oneSystemOrPair.js";

export interface LoadedCensus {
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly system: string | null;
  readonly pair: { readonly a: string; readonly b: string } | null;
  /** Each document's first-stage unit (a two-stage study), aligned with stats.ids. */
  readonly labels: readonly string[] | null;
}

/** The census with simulate's description of where it came from. */
export interface DescribedCensus extends LoadedCensus {
  readonly description: SimulationReport["census"];
}

/**
 * The census the study draws from — one system's per-document sums, or a pair's differences —
 * read from the file, or through the database with --from (K rows come back: per-document).
 *
 * @throws RagciError when neither or both of a file and --from are given
 */
export async function loadCensus(
  file: string | undefined,
  options: CensusInputOptions,
  unitColumn: string | null,
  io: CommandIo,
): Promise<DescribedCensus> {
  checkSources(file === undefined ? [] : [file], options, "the census file");
  if (file === undefined) {
    const { oneSystemFromDatabase } = await import("./oneSystemFromDatabase.js");
    const one = await oneSystemFromDatabase(options, "simulate", io, unitColumn);
    const { stats, metric, system, pair, labels } = one;
    const census = { stats, metric, system, pair, labels };
    const { name, sqlSha256 } = one.read;
    return { ...census, description: censusDescription(name, sqlSha256, census, true) };
  }
  io.progress.update(`reading ${file}…`);
  const [census, sha256] = await Promise.all([
    readCensusFile(file, options, unitColumn),
    sha256File(file),
  ]);
  const aggregated = options.aggregated ?? false;
  return { ...census, description: censusDescription(file, sha256, census, aggregated) };
}

/** A census read from a file: one system's per-document sums, or a pair's differences. */
async function readCensusFile(
  file: string,
  options: CensusInputOptions,
  unitColumn: string | null,
): Promise<LoadedCensus> {
  const system = oneSystemOrPair(options.system);
  const values = system?.values ?? null;
  if (system && values?.length === 2) {
    if (options.aggregated) {
      throw new RagciError(
        "invalid-option",
        "--system COLUMN=A,B pairs per-query results on the query id; it cannot read an --aggregated census",
      );
    }
    const metric = options.metric?.length === 1 ? options.metric[0] : undefined;
    if (metric === undefined)
      throw new RagciError(
        "invalid-option",
        "a paired study uses one metric: name it with --metric",
      );
    const [a, b] = values as [string, string];
    const table = await readPairedResults({
      inputs: [{ path: file, displayName: file }],
      format: options.format ?? null,
      doc: options.doc ?? null,
      query: options.query ?? null,
      system: system.column,
      onlySystems: [a, b],
      metrics: [metric],
      pairs: () => [[a, b]],
      documentLabel: unitColumn,
    });
    const { stats, labels } = onlyDifference(table);
    return { stats, metric, system: null, pair: { a, b }, labels };
  }
  const filter = system ? { column: system.column, value: values?.join(",") ?? "" } : null;
  const one = await readOneSystem(
    { ...options, file, documentLabel: unitColumn },
    filter,
    "simulate",
  );
  return {
    stats: one.stats,
    metric: one.metric,
    system: values?.[0] ?? null,
    pair: null,
    labels: one.labels,
  };
}

/** The census as simulate's report describes it: file, digest, size, metric and what of it. */
function censusDescription(
  file: string,
  sha256: string,
  census: LoadedCensus,
  aggregated: boolean,
): SimulationReport["census"] {
  const { stats, pair } = census;
  return {
    file,
    sha256,
    kind: aggregated ? "per-document" : "per-query",
    documents: stats.n.length,
    results: stats.n.reduce((t, v) => t + v, 0),
    metric: census.metric,
    metricKind: metricKindOf(stats, pair !== null),
    system: census.system,
    pair,
  };
}
