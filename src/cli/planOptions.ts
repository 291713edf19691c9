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
  readonly power: number;
  readonly curve?: number[];
  readonly variant?: string;
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
  return format;
}

/** --cost document=10,query=1,trial=0.2,judge=0.5: each unit's price, as flags write numbers. */
export function parseFacetCosts(text: string): FacetCosts {
  const prices = text.split(",").map((part) => {
    const [unit, price] = part.split("=").map((s) => s.trim());
    return [unit ?? "", price === undefined ? Number.NaN : numberOrNaN(price)] as const;
  });
  return facetCosts(prices, text);
}
