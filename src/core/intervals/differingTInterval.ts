import { differingDocuments } from "../diagnostics/differingDocuments.js";
import { macroEstimate } from "../estimands/macroEstimate.js";
import type { DocumentStats, Interval } from "../types.js";
import { macroT } from "../variance/macroT.js";
import { tInterval } from "./tInterval.js";

/**
 * Macro t of a paired difference with ν = max(D − 1, 1), D the documents whose summed
 * difference is not 0; the se is macro t's (times √fpc). The tied documents' zeros are exact:
 * they say nothing about how the differences spread, so the reference t counts the documents
 * that do. In ragci's paired studies (bench/method-guide/paired.json) it covered ≥ 92.4% at
 * K = 20 and 50 on every tie-heavy census, with and without fpc, where t with ν = K − 1 fell to
 * 84.7%. A candidate: compare does not recommend it yet.
 */
export function differingTInterval(difference: DocumentStats, level: number, fpc = 1): Interval {
  const se = macroT(difference).se * Math.sqrt(fpc);
  const df = Math.max(differingDocuments(difference) - 1, 1);
  return tInterval(macroEstimate(difference), { se, df }, level);
}
