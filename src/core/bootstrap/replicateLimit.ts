import { optionRef, RagciError } from "../errors.js";
import { groupedInteger } from "../groupedInteger.js";

/**
 * The largest bootstrap B ragci runs. Each replicate keeps about a dozen doubles (both
 * estimates, both studentised statistics, the chunk bootstrap's two, sorted copies for the
 * quantiles), so 10⁶ replicates hold about 100 MB; far past the point where more replicates
 * move a 95% interval's ends (their Monte-Carlo error shrinks as 1/√B).
 */
export const MAX_REPLICATES = 1_000_000;

/** @throws RagciError "invalid-option" when B is not a whole number in [0, MAX_REPLICATES]. */
export function checkReplicates(replicates: number, given: string = String(replicates)): void {
  if (!Number.isSafeInteger(replicates) || replicates < 0 || replicates > MAX_REPLICATES) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("replicates")} ${given}: give a whole number from 0 to ${groupedInteger(MAX_REPLICATES)} (more replicates need more memory, about 100 bytes each, and no longer change the interval)`,
    );
  }
}

/** @throws RagciError "invalid-option" when a stream's seed is not a whole number ≥ 0 (numpy's). */
export function checkSeed(seed: number): void {
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new RagciError("invalid-option", `seed ${seed} must be a whole number ≥ 0`);
  }
}
