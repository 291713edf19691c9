import { RagciError } from "../../core/errors.js";
import { refuseCensusOptionsInFacetStudy } from "../../core/simulation/facetStudyOptions.js";
import { hasFacets } from "../../ingest/index.js";
import { jsonText } from "../../report/jsonText.js";
import {
  type FacetSimulationReport,
  facetSimulationJson,
  facetSimulationMarkdown,
  facetSimulationTerminal,
} from "../../report/simulationFacetsReport.js";
import { simulateSource } from "../../simulation/simulateSource.js";
import type { CommandIo } from "../io.js";
import { type ReportOptions, refuseUnsafe, renderReport, reportFormat } from "../reportOptions.js";
import { checkSources, type SourceFlags, selectionOf, sourceOf } from "../sourceOptions.js";
import { studyRun } from "../studyRun.js";

export interface SimulateFacetsCommandOptions extends SourceFlags, ReportOptions {
  readonly system?: string;
  readonly metric?: readonly string[];
  readonly k?: readonly number[];
  readonly reps?: readonly number[];
  readonly seed: number;
  readonly level: number;
  readonly design?: string;
  readonly sampling?: string;
  readonly fpc?: boolean;
  readonly chunkBootstrap?: boolean;
  readonly units?: readonly number[];
  readonly perUnit?: number;
  readonly cutoff?: number;
  readonly psu?: string;
  readonly workers?: number;
  /** Whether --replicates was typed (its default, 999, is the census study's). */
  readonly replicatesGiven?: boolean;
}

/** Whether simulate studies facets (a trial, judge or variant column named). */
export function simulatesFacets(options: SourceFlags): boolean {
  return hasFacets(options);
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
  // The census study's options, as the library refuses them; then the command line's own.
  refuseCensusOptionsInFacetStudy(options as Parameters<typeof refuseCensusOptionsInFacetStudy>[0]);
  const census = [
    ["--workers", options.workers],
    // The faceted study has no bootstrap: a typed --replicates was ignored without a word.
    ["--replicates", options.replicatesGiven === true ? true : undefined],
    ["--aggregated", options.aggregated],
    ["--html", options.html],
  ].find(([, v]) => v !== undefined && v !== false);
  if (census)
    throw new RagciError(
      "invalid-option",
      `${census[0]} is for a census study; with --trial, --judge or --variant simulate studies a faceted pilot without it`,
    );
  await refuseUnsafe([file], options);
  const files = file === undefined ? [] : [file];
  checkSources(files, options, "the pilot file");
  const studies = options.k?.length ?? 1;
  // The library's simulate: the source has facets, so it studies the pilot (no bootstrap).
  const { report } = await simulateSource(
    sourceOf(files, options, io),
    selectionOf(options),
    {
      ...(options.k ? { k: options.k } : {}),
      ...(options.reps ? { reps: options.reps } : {}),
      seed: options.seed,
      level: options.level,
      replicates: 0,
    },
    studyRun(io, 1, (s, done, total) => ({
      label: `study ${s + 1} of ${studies}`,
      fraction: (s * total + done) / (total * studies),
    })),
  );
  io.progress.done();
  // A bug, not a user's error: a source with facets is always studied as a pilot.
  if (!("study" in report)) throw new Error("simulate with facets returned a census report");
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
