import { RagciError } from "../core/errors.js";
import type { FacetCosts } from "../core/facets/facetPlan.js";
import { checkPlanRequest, facetCosts, type PlanRequest } from "../core/planning/planRequest.js";
import type { CensusInputOptions } from "./censusFileOptions.js";
import { numberOrNaN } from "./options.js";
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

export interface PlanCommandOptions extends ReportOptions, PlanInputOptions, PlanRequest {
  /** Only when given (core's default is 0.8): core refuses it without --difference. */
  readonly power?: number;
  readonly curve?: number[];
  readonly variant?: string;
}

/** plan's options as commander gives them: --census alone, or --census FILE. */
export type PlanFlags = Omit<PlanCommandOptions, "census"> & {
  readonly census?: boolean | string;
};

/**
 * --census FILE names the census file, as analyze's and compare's --census do; `plan FILE
 * --census` (and `--from … --census`) says the file (the source) given is the census.
 *
 * @throws RagciError when a file is given both ways
 */
export function censusFileOf(
  file: string | undefined,
  flags: PlanFlags,
): { readonly file: string | undefined; readonly options: PlanCommandOptions } {
  const { census, ...rest } = flags;
  if (typeof census !== "string")
    return { file, options: { ...rest, ...(census === undefined ? {} : { census }) } };
  if (file !== undefined) {
    throw new RagciError(
      "invalid-option",
      `--census ${census}: plan reads one file, here ${file} as well; give the census once: plan --census FILE, or plan FILE --census`,
    );
  }
  return { file: census, options: { ...rest, census: true } };
}

/**
 * plan's flags checked together before the file is read: a file, --from or neither (--sd), the
 * output format, no output onto the file, and the request (core's checkPlanRequest).
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
  checkPlanRequest(options, Boolean(file || options.from));
  refuseReadingFlagsWithoutFile(file, options);
  return format;
}

/**
 * With S given (--sd, --sd-macro, --sd-micro) and no file or --from, the flags that say how to
 * read one would do nothing: they were ignored without a word.
 *
 * @throws RagciError naming the first such flag
 */
function refuseReadingFlagsWithoutFile(file: string | undefined, options: PlanCommandOptions) {
  if (file !== undefined || options.from !== undefined) return;
  const sd = [
    ["--sd", options.sd],
    ["--sd-macro", options.sdMacro],
    ["--sd-micro", options.sdMicro],
  ].find(([, v]) => v !== undefined)?.[0];
  if (sd === undefined) return;
  const reading = (
    [
      ["--doc", options.doc],
      ["--metric", options.metric],
      ["--system", options.system],
      ["--query", options.query],
      ["--format", options.format],
      ["--aggregated", options.aggregated],
      ["--trial", options.trial],
      ["--judge", options.judge],
      ["--variant", options.variant],
    ] as const
  ).find(([, v]) => v !== undefined && v !== false)?.[0];
  if (reading === undefined) return;
  throw new RagciError(
    "invalid-option",
    `${reading} says how to read a pilot or census file, and none is given (S comes from ${sd}); give the file instead of ${sd}, or drop ${reading}`,
  );
}

/** --cost document=10,query=1,trial=0.2,judge=0.5: each unit's price, as flags write numbers. */
export function parseFacetCosts(text: string): FacetCosts {
  const prices = text.split(",").map((part) => {
    const [unit, price] = part.split("=").map((s) => s.trim());
    return [unit ?? "", price === undefined ? Number.NaN : numberOrNaN(price)] as const;
  });
  return facetCosts(prices, text);
}
