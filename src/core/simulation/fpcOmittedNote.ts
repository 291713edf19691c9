import { optionRef } from "../errors.js";
import { percentText } from "../percentText.js";
import { finitePopulationCorrection } from "../variance/finitePopulationCorrection.js";

/**
 * The sampling fraction K/M from which a study without the fpc says so: there the intervals are
 * at least 1/√(1 − 0.05) ≈ 1.026 times as wide as the sampling error they measure.
 */
export const FPC_NOTE_FRACTION = 0.05;

/**
 * What an SRS coverage study run without the finite-population correction says when a sample
 * takes a material share of the census. Every sample is then drawn without replacement from M
 * documents, so an estimate's sampling variance is (1 − K/M) times what the intervals assume:
 * each (but the Wald contrasts, which never apply the fpc) is 1/√(1 − K/M) times as wide as with
 * the fpc around the same centre (on the logit scale for the logit intervals; the rescaling
 * bootstrap scales its deviations alike), so it contains that interval and covers at least as
 * often, and the pick leans to the narrowest (at K = 50 of COVID-QA's 98 articles it picks
 * bootstrap-percentile for micro and macro, which covers 88.9% for micro with the fpc;
 * docs/simulate.md). Null below FPC_NOTE_FRACTION, or with the fpc.
 *
 * @param documents each K the study draws
 * @param censusDocuments M
 * @example fpcOmittedNote([10, 50], 98, false)?.startsWith("K = 50 is 51.0% of the census's 98 documents (K = 10, 10.2%)")
 *   // => true
 * @example fpcOmittedNote([10, 50], 98, true) // => null
 * @example fpcOmittedNote([20], 1300, false) // => null
 */
export function fpcOmittedNote(
  documents: readonly number[],
  censusDocuments: number,
  fpc: boolean,
): string | null {
  if (fpc) return null;
  const large = documents
    .filter((k) => k / censusDocuments >= FPC_NOTE_FRACTION)
    .sort((a, b) => b - a);
  const k = large[0];
  if (k === undefined) return null;
  const share = (x: number) => percentText(x / censusDocuments);
  const others = large
    .slice(1)
    .map((x) => `K = ${x}, ${share(x)}`)
    .join("; ");
  // The intervals' own correction, 1 − K/M; the widths scale by its square root.
  const factor = 1 / Math.sqrt(finitePopulationCorrection(k, censusDocuments));
  return `K = ${k} is ${share(k)} of the census's ${censusDocuments} documents${others ? ` (${others})` : ""} and the study ran without ${optionRef("fpc")}: every interval but the Wald contrasts is then 1/√(1 − K/M) = ${factor.toFixed(2)}× as wide as with the fpc (on the logit scale for the logit ones) and covers at least as often, so these coverages are higher than an analysis that knows M would get, and the pick leans to the narrowest. If yours will apply the fpc (${optionRef("population")}, ${optionRef("census")} or ${optionRef("design")}), study it with ${optionRef("fpc")}.`;
}
