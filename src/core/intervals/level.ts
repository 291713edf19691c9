import { RagciError } from "../errors.js";

/**
 * The confidence level, checked where a caller gives it: strictly between 0 and 1. A percent
 * (95) or a level of 0 or 1 gives no interval; without the check it gives NaN bounds, a gate
 * with α = −94 that passes everything, or inverted bounds.
 *
 * @example validateLevel(0.9)
 *   // => 0.9
 */
export function validateLevel(level: number): number {
  if (!(level > 0 && level < 1)) {
    throw new RagciError(
      "invalid-option",
      `level ${level} must be strictly between 0 and 1 (e.g. 0.95${level > 1 && level < 100 ? `, not ${level}` : ""})`,
    );
  }
  return level;
}
