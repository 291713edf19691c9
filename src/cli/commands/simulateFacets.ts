import { metricKindOf } from "../../core/analyze.js";
import { RagciError } from "../../core/errors.js";
import { readSource } from "../../ingest/index.js";
import { jsonText } from "../../report/jsonText.js";
import {
  type FacetSimulationReport,
  facetSimulationJson,
  facetSimulationMarkdown,
  facetSimulationTerminal,
} from "../../report/simulationFacetsReport.js";
import { simulateFacets } from "../../simulation/simulateFacets.js";
import type { CommandIo } from "../io.js";
import { readingProgress } from "../readingProgress.js";
import { type ReportOptions, refuseUnsafe, renderReport, reportFormat } from "../reportOptions.js";
import { checkSources, type SourceFlags, selectionOf, sourceOf } from "../sourceOptions.js";

/** Repetitions of a faceted study when --reps is not given (each fits REML once). */
export const FACET_STUDY_REPS = 200;

export interface SimulateFacetsCommandOptions extends SourceFlags, ReportOptions {
  readonly system?: string;
  readonly metric?: readonly string[];
  readonly k?: readonly number[];
  readonly reps?: readonly number[];
  readonly seed: number;
  readonly level: number;
  readonly design?: string;
  readonly fpc?: boolean;
  readonly chunkBootstrap?: boolean;
  readonly units?: readonly number[];
  readonly perUnit?: number;
}

/** Whether simulate studies facets (a trial, judge or variant column named). */
export function simulatesFacets(options: SourceFlags): boolean {
  return Boolean(options.trial || options.judge || options.variant);
}

/**
 * `ragci simulate --judge/--trial/--variant`: evaluations like the faceted pilot's, drawn from
 * its components (simulateFacets), and the coverage of every faceted interval.
 */
export async function runSimulateFacets(
  file: string | undefined,
  options: SimulateFacetsCommandOptions,
  io: CommandIo,
): Promise<string> {
  const format = reportFormat(options);
  const census = [
    ["--design", options.design],
    ["--fpc", options.fpc],
    ["--chunk-bootstrap", options.chunkBootstrap],
    ["--units", options.units],
    ["--per-unit", options.perUnit],
    ["--aggregated", options.aggregated],
    ["--html", options.html],
  ].find(([, v]) => v !== undefined && v !== false);
  if (census)
    throw new RagciError(
      "invalid-option",
      `${census[0]} is for a census study; with --trial, --judge or --variant simulate studies a faceted pilot without it`,
    );
  if (options.reps && options.reps.length > 1)
    throw new RagciError(
      "invalid-option",
      "--reps: a faceted study takes one number of repetitions for every --k",
    );
  await refuseUnsafe([file], options);
  const files = file === undefined ? [] : [file];
  checkSources(files, options, "the pilot file");
  const read = await readSource(sourceOf(files, options, io), selectionOf(options), {
    read: "one",
    usedBy: "simulate",
    pairedUse: "a paired study",
    progress: readingProgress(io),
  });
  const cells = read.cells ?? [];
  if (read.pair !== null || cells.length !== 1)
    throw new RagciError(
      "invalid-option",
      "a faceted study simulates one system's pilot: give --system COL=ONE (paired faceted studies are not supported yet)",
    );
  const reps = options.reps?.[0] ?? FACET_STUDY_REPS;
  const started = Date.now();
  const study = await simulateFacets((cells[0] as (typeof cells)[number]).cells, {
    documents: options.k,
    reps,
    seed: options.seed,
    level: options.level,
    ...(io.signal ? { signal: io.signal } : {}),
    onProgress: (s, done, total) => {
      const elapsed = (Date.now() - started) / 1000;
      const fraction = (s * total + done) / (total * (options.k?.length ?? 1));
      const eta = fraction > 0 ? (elapsed / fraction) * (1 - fraction) : 0;
      io.progress.update(
        `study ${s + 1} of ${options.k?.length ?? 1}: ${Math.round((100 * done) / total)}% of ${total} repetitions · ${elapsed.toFixed(0)} s elapsed, about ${eta.toFixed(0)} s left`,
      );
    },
  });
  io.progress.done();
  const { stats, description } = read;
  const report: FacetSimulationReport = {
    version: io.version,
    census: {
      file: description.file,
      sha256: description.sha256 as string,
      kind: description.kind,
      documents: stats.n.length,
      results: stats.n.reduce((t, v) => t + v, 0),
      metric: read.metric,
      metricKind: metricKindOf(stats, false),
      system: read.system,
      pair: null,
    },
    level: options.level,
    study,
    notes: study.notes,
  };
  return renderReport(
    report,
    format,
    {
      json: (r: FacetSimulationReport) => jsonText(facetSimulationJson(r)),
      markdown: facetSimulationMarkdown,
      terminal: facetSimulationTerminal,
    },
    { options, io },
  );
}
