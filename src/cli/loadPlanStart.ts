import { RagciError } from "../core/errors.js";
import { pilotStandardDeviations } from "../core/planning/pilotStandardDeviations.js";
import type { PlanSource } from "../core/planning/samplePlan.js";
import type { DocumentStats, Estimand } from "../core/types.js";
import { type Pilot, readPilot } from "../ingest/readPilot.js";
import { sha256File } from "../ingest/sha256File.js";
import type { CensusInputOptions } from "./censusFileOptions.js";
import type { CommandIo } from "./io.js";
import { parseSystemFilter } from "./systemFilter.js";

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
  if (options.from !== undefined) return planStartFromDatabase(options, io);
  return file === undefined ? planStartFromSd(options) : planStartFromFile(file, options, io);
}

/** @throws RagciError when S is given as well as read from `source` */
function refuseGivenSd(options: PlanInputOptions, source: string): void {
  if (options.sd !== undefined || options.sdMacro !== undefined || options.sdMicro !== undefined)
    throw new RagciError("invalid-option", `give either ${source} or --sd, not both`);
}

async function planStartFromFile(
  file: string,
  options: PlanInputOptions,
  io: CommandIo,
): Promise<PlanStart> {
  refuseGivenSd(options, "a file");
  io.progress.update(`reading ${file}…`);
  const [pilot, sha256] = await Promise.all([
    readPilot({
      ...options,
      file,
      system: parseSystemFilter(options.system),
      systemText: options.system,
    }),
    sha256File(file),
  ]);
  io.progress.done();
  return planStartFromPilot(pilot, { file, sha256, named: "the file" }, options);
}

/** plan --from: the pilot's or census's per-document sums come back from the database. */
async function planStartFromDatabase(options: PlanInputOptions, io: CommandIo): Promise<PlanStart> {
  refuseGivenSd(options, "--from");
  const { oneSystemFromDatabase } = await import("./oneSystemFromDatabase.js");
  const one = await oneSystemFromDatabase(options, "plan", io);
  io.progress.done();
  const pilot: Pilot = {
    stats: one.stats,
    paired: one.pair ? { ...one.pair, metric: one.metric } : null,
    oneOfSeveral: !one.pair && one.systemsFound > 1,
  };
  const { name, sqlSha256 } = one.read;
  return planStartFromPilot(pilot, { file: name, sha256: sqlSha256, named: name }, options);
}

/**
 * A plan's start from a pilot or census read from a file or a database: S per estimand, M (the
 * census's K with --census, checked against --population), and where S came from.
 *
 * @throws RagciError when --census and --population disagree
 */
function planStartFromPilot(
  pilot: Pilot,
  read: { readonly file: string; readonly sha256: string; readonly named: string },
  options: PlanInputOptions,
): PlanStart {
  const s = pilotStandardDeviations(pilot.stats);
  let population = options.population ?? null;
  if (options.census) {
    if (population !== null && population !== s.documents) {
      throw new RagciError(
        "invalid-option",
        `--census: ${read.named} has ${s.documents} documents but --population says ${population}`,
      );
    }
    population = s.documents;
  }
  return {
    sd: { macro: s.macro, micro: s.micro },
    population,
    source: {
      kind: options.census ? "census" : "pilot",
      file: read.file,
      documents: s.documents,
      sha256: read.sha256,
      ...(pilot.paired ? { difference: pilot.paired } : {}),
    },
    census: pilot.stats,
    oneSystemForDifference:
      options.difference !== undefined && !pilot.paired && pilot.oneOfSeveral
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
