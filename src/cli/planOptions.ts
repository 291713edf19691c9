import { RagciError } from "../core/errors.js";
import type { CensusInputOptions } from "./censusFileOptions.js";
import {
  type ReportFormat,
  type ReportOptions,
  refuseUnsafe,
  reportFormat,
} from "./reportOptions.js";
import { checkSources } from "./sourceOptions.js";

/** The flags that say where a plan's S and M come from. */
interface PlanInputOptions extends Omit<CensusInputOptions, "threads"> {
  readonly sd?: number;
  readonly sdMacro?: number;
  readonly sdMicro?: number;
  readonly difference?: number;
  readonly population?: number;
  readonly census?: boolean;
}

export interface PlanCommandOptions extends ReportOptions, PlanInputOptions {
  readonly halfWidth?: number;
  readonly power: number;
  readonly level: number;
  readonly curve?: number[];
  readonly cutoff?: number;
}

/**
 * plan's flags checked together before the file is read: a file, --from or neither (--sd), the
 * output format, no output onto the file, a target (half-width or difference), and --cutoff
 * only with a census and a w.
 *
 * @throws RagciError naming the flags to give
 */
export async function checkPlanOptions(
  file: string | undefined,
  options: PlanCommandOptions,
): Promise<ReportFormat> {
  checkSources(file === undefined ? [] : [file], options, null);
  const format = reportFormat(options);
  await refuseUnsafe([file], options);
  if (options.halfWidth === undefined && options.difference === undefined) {
    throw new RagciError(
      "invalid-option",
      "give --half-width w (or --difference d for a paired plan)",
    );
  }
  if (options.cutoff !== undefined && !((file || options.from) && options.census)) {
    throw new RagciError(
      "invalid-option",
      "--cutoff plans a stratified sample from a census: give the census file and --census (or --from and --census)",
    );
  }
  if (options.cutoff !== undefined && options.halfWidth === undefined) {
    throw new RagciError("invalid-option", "--cutoff needs the target --half-width w");
  }
  return format;
}
