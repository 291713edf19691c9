import { optionRef, RagciError } from "../errors.js";
import { groupedInteger } from "../groupedInteger.js";
import { levelPercent } from "../intervals/levelPercent.js";

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

/**
 * The fewest replicates that give a bootstrap interval at `level` real tails: B ≥ 2/α − 1, so
 * that (B + 1)·α/2 ≥ 1 and each α/2 tail holds at least one replicate beyond its end
 * (Davison & Hinkley 1997, ch. 5). Fewer leave the ends interpolated between the most extreme
 * replicates, or, at B = 1, both on the one replicate.
 *
 * @example fewestReplicates(0.95) // => 39
 */
export function fewestReplicates(level: number): number {
  // 1 − level carries level's rounding, relatively larger as α shrinks (2 / (1 − 0.9) − 1 is
  // 19.000000000000004); a relative 10⁻⁹ absorbs it up to α = 10⁻⁶.
  const b = 2 / (1 - level) - 1;
  return Math.ceil(b - 1e-9 * Math.max(1, b));
}

/** Why B is too few for `level`, after "B = 19 is": the tail that needs a replicate. */
function tooFew(level: number): string {
  return `too few for ${levelPercent(level)} bootstrap intervals: each ${levelPercent((1 - level) / 2)} tail needs a replicate beyond its end`;
}

/** The least B for `level`, and the usual 999 when that is more. */
function enough(level: number): string {
  const fewest = fewestReplicates(level);
  return `B ≥ ${groupedInteger(fewest)}${fewest < 999 ? " (999 or more for stable ends)" : ""}`;
}

/**
 * Why B resamples cannot give a bootstrap interval at `level` (null when they can, or B = 0).
 *
 * @example replicatesShortOfLevel(19, 0.95) // => "B = 19 is too few for 95% bootstrap intervals: each 2.5% tail needs a replicate beyond its end, which takes B ≥ 39 (999 or more for stable ends)"
 */
export function replicatesShortOfLevel(replicates: number, level: number): string | null {
  const fewest = fewestReplicates(level);
  if (replicates === 0 || replicates >= fewest) return null;
  return `B = ${replicates} is ${tooFew(level)}, which takes ${enough(level)}`;
}

/**
 * @throws RagciError "invalid-option" when a B that was asked for is too few for `level`'s
 *   tails (see fewestReplicates); B = 0, which turns resampling off, is accepted.
 */
export function checkReplicatesForLevel(replicates: number, level: number): void {
  if (replicatesShortOfLevel(replicates, level) === null) return;
  throw new RagciError(
    "invalid-option",
    `${optionRef("replicates")} ${replicates} is ${tooFew(level)}; give ${enough(level)}, or 0 to turn resampling off`,
  );
}
