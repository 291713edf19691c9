import { RagciError } from "../core/errors.js";
import type { FacetCosts } from "../core/facets/facetPlan.js";
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
  /** --cost document=…,query=…,trial=…,judge=…: plan across facets (with --trial or --judge). */
  readonly cost?: FacetCosts;
  readonly budget?: number;
  readonly trial?: string;
  readonly judge?: string;
  readonly variant?: string;
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
  if (options.budget !== undefined && options.cost === undefined)
    throw new RagciError("invalid-option", "--budget is spent at --cost's prices: give --cost too");
  if (options.cost !== undefined) {
    if (!file && !options.from)
      throw new RagciError(
        "invalid-option",
        "--cost plans from a faceted pilot: give the pilot file",
      );
    if (options.halfWidth === undefined && options.difference === undefined)
      throw new RagciError(
        "invalid-option",
        "--cost plans for a target: give --half-width w (or, for a pair, --difference d)",
      );
    if (options.trial === undefined && options.judge === undefined)
      throw new RagciError(
        "invalid-option",
        "--cost plans across reruns and judges: name them with --trial and/or --judge",
      );
  }
  return format;
}

const FACET_COSTS = ["document", "query", "trial", "judge"] as const;

/** --cost document=10,query=1,trial=0.2,judge=0.5: each unit's price, all four, each ≥ 0. */
export function parseFacetCosts(text: string): FacetCosts {
  const costs: Record<string, number> = {};
  for (const part of text.split(",")) {
    const [name, value] = part.split("=").map((s) => s.trim());
    const price = /^\d+(\.\d*)?(e[+-]?\d+)?$/i.test(value ?? "") ? Number(value) : Number.NaN;
    if (
      !FACET_COSTS.includes(name as (typeof FACET_COSTS)[number]) ||
      value === undefined ||
      value === "" ||
      !(price >= 0) ||
      !Number.isFinite(price)
    )
      throw new RagciError(
        "invalid-option",
        `--cost ${text}: give each unit's price as document=…,query=…,trial=…,judge=… (numbers ≥ 0)`,
      );
    costs[name as string] = price;
  }
  const missing = FACET_COSTS.filter((k) => costs[k] === undefined);
  if (missing.length)
    throw new RagciError(
      "invalid-option",
      `--cost ${text}: give ${missing.join(", ")} too (0 if free)`,
    );
  return costs as unknown as FacetCosts;
}
