import { RagciError } from "../core/errors.js";
import { type PlanStart, planStartFromPilot, planStartFromSd } from "../core/planning/planStart.js";
import { readSource } from "../ingest/index.js";
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
  readonly trial?: string;
  readonly judge?: string;
  readonly variant?: string;
}

/**
 * Where the plan's S comes from: the pilot or census file, the --from source (aggregated in
 * the database), or --sd.
 *
 * @throws RagciError when S is given as well as a source to estimate it from
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
  const pilot = await readSource(
    sourceOf(file === undefined ? [] : [file], options, io),
    selectionOf(options),
    { read: "one", usedBy: "plan", progress: readingProgress(io) },
  );
  io.progress.done();
  const { file: name, sha256 } = pilot.description;
  return planStartFromPilot(
    {
      ...pilot,
      system: options.system ?? null,
      file: name,
      // How the message names the source: "the file", or the database's table.
      named: options.from === undefined ? "the file" : name,
      sha256: sha256 as string,
    },
    options,
  );
}
