import { RagciError } from "../core/errors.js";
import { plural } from "../core/plural.js";

/**
 * The systems a comparison found (in code-point order) hold every one `--system COLUMN=…`
 * named, and at least two. `name` is the input as messages name it, `column` the system column
 * (named whenever `named` is).
 * @throws RagciError naming the absent systems, or the one system found
 */
export function checkSystemsFound(
  name: string,
  column: string | null | undefined,
  systems: readonly string[],
  named: readonly string[] | null | undefined,
): void {
  const absent = named?.filter((s) => !systems.includes(s)) ?? [];
  if (absent.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${name}: no system "${absent.join('", "')}" in column ${column}${systems.length > 0 ? ` (kept ${systems.join(", ")})` : ""}; check the names after "="`,
    );
  }
  if (systems.length < 2) {
    throw new RagciError(
      "invalid-value",
      `${name}: found ${plural(systems.length, "system")} (${systems.join(", ")}); a comparison needs at least two`,
    );
  }
}

/**
 * `pairs`, once every system they name is among `systems` (a baseline or pair the data lack).
 * @throws RagciError naming the first system missing
 */
export function pairsFound<P extends readonly (readonly [string, string])[]>(
  systems: readonly string[],
  pairs: P,
): P {
  for (const pair of pairs) {
    const missing = pair.find((s) => !systems.includes(s));
    if (missing !== undefined) {
      throw new RagciError(
        "invalid-option",
        `no system "${missing}" in the data (systems: ${systems.join(", ")})`,
      );
    }
  }
  return pairs;
}
