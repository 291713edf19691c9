import { RagciError } from "../core/errors.js";
import { pilotStandardDeviations } from "../core/planning/pilotStandardDeviations.js";
import type { PlanSource } from "../core/planning/samplePlan.js";
import type { DocumentStats, Estimand } from "../core/types.js";
import { type OneOrPairRead, readSource } from "../ingest/index.js";
import type { CensusInputOptions } from "./censusFileOptions.js";
import type { CommandIo } from "./io.js";
import { readingProgress } from "./readingProgress.js";
import { selectionOf, sourceOf } from "./sourceOptions.js";

/** The flags that say where a plan's S and M come from. */
export interface PlanInputOptions extends Omit<CensusInputOptions, "threads"> {
  readonly sd?: number;
  readonly sdMacro?: number;
  readonly sdMicro?: number;
  readonly difference?: number;
  readonly population?: number;
  readonly census?: boolean;
}

/** What a plan starts from: S per estimand, M, and where S came from. */
export interface PlanStart {
  readonly sd: Partial<Record<Estimand, number>>;
  readonly population: number | null;
  readonly source: PlanSource;
  /** The census's per-document sums (for a stratified plan), when the file is a census. */
  readonly census: DocumentStats | null;
  readonly oneSystemForDifference: string | null;
}

/**
 * Where the plan's S comes from: the pilot or census file, the --from source (aggregated in
 * the database), or --sd.
 */
export async function planStart(
  file: string | undefined,
  options: PlanInputOptions,
  io: CommandIo,
): Promise<PlanStart> {
  const given = options.from !== undefined ? "--from" : file === undefined ? null : "a file";
  if (given === null) return planStartFromSd(options);
  if (options.sd !== undefined || options.sdMacro !== undefined || options.sdMicro !== undefined)
    throw new RagciError("invalid-option", `give either ${given} or --sd, not both`);
  const files = file === undefined ? [] : [file];
  const pilot = await readSource(sourceOf(files, options, io), selectionOf(options), {
    read: "one",
    usedBy: "plan",
    progress: readingProgress(io),
  });
  io.progress.done();
  return planStartFromPilot(pilot, options);
}

/**
 * A plan's start from a pilot or census read from a file or a database: S per estimand, M (the
 * census's K with --census, checked against --population), and where S came from.
 *
 * @throws RagciError when --census and --population disagree
 */
function planStartFromPilot(pilot: OneOrPairRead, options: PlanInputOptions): PlanStart {
  const { file, sha256 } = pilot.description;
  // How the message names the source: "the file", or the database's table.
  const named = options.from === undefined ? "the file" : file;
  const s = pilotStandardDeviations(pilot.stats);
  let population = options.population ?? null;
  if (options.census) {
    if (population !== null && population !== s.documents) {
      throw new RagciError(
        "invalid-option",
        `--census: ${named} has ${s.documents} documents but --population says ${population}`,
      );
    }
    population = s.documents;
  }
  return {
    sd: { macro: s.macro, micro: s.micro },
    population,
    source: {
      kind: options.census ? "census" : "pilot",
      file,
      documents: s.documents,
      sha256: sha256 as string,
      ...(pilot.pair ? { difference: { ...pilot.pair, metric: pilot.metric } } : {}),
    },
    census: pilot.stats,
    oneSystemForDifference:
      options.difference !== undefined && !pilot.pair && pilot.systemsFound > 1
        ? (options.system ?? null)
        : null,
  };
}

function planStartFromSd(options: PlanInputOptions): PlanStart {
  if (options.census)
    throw new RagciError("invalid-option", "--census needs the census file (or --from)");
  const macro = options.sdMacro ?? options.sd;
  const micro = options.sdMicro ?? options.sd;
  if (macro === undefined && micro === undefined) {
    throw new RagciError(
      "invalid-option",
      "give S with --sd (or --sd-macro / --sd-micro), or a pilot file (or --from) to estimate it from",
    );
  }
  return {
    sd: {
      ...(macro === undefined ? {} : { macro }),
      ...(micro === undefined ? {} : { micro }),
    },
    population: options.population ?? null,
    source: { kind: "given" },
    census: null,
    oneSystemForDifference: null,
  };
}
