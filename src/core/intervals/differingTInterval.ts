import { differingDocuments } from "../diagnostics/differingDocuments.js";
import { macroEstimate } from "../estimands/macroEstimate.js";
import type { DocumentStats, Interval } from "../types.js";
import { macroT } from "../variance/macroT.js";
import { tInterval } from "./tInterval.js";

/**
 * Macro t of a paired difference with ν = max(D − 1, 1), D the documents whose summed
 * difference is not 0; the se is macro t's (times √fpc). The tied documents' zeros are exact:
 * they say nothing about how the differences spread, so the reference t counts the documents
 * that do. In ragci's paired studies (bench/method-guide/paired.json) it covered 93.2–98.2% at
 * K = 20 and 92.4–99.2% at K = 50 on every tie-heavy census, with and without fpc, where t with
 * ν = K − 1 fell to 84.7%: compare recommends it for the macro difference (methods.ts).
 *
 * Edge cases: without ties D = K and it is t. D = 1 has no D − 1 = 0 reference, so ν = 1 (the
 * widest t; compare warns below 8 differing documents). D = 0 (every document tied) gives se 0
 * and the point interval [0, 0], as t does. The fpc scales the se, never ν (as for t).
 */
export function differingTInterval(difference: DocumentStats, level: number, fpc = 1): Interval {
  const se = macroT(difference).se * Math.sqrt(fpc);
  const df = Math.max(differingDocuments(difference) - 1, 1);
  return tInterval(macroEstimate(difference), { se, df }, level);
}
