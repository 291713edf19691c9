import { RagciError } from "../core/errors.js";
import { parseSystemOption, type SystemOption } from "./systemFilter.js";

/**
 * --system for a study or a plan: COLUMN, COLUMN=A (one system) or COLUMN=A,B (their paired
 * differences).
 *
 * @throws RagciError for three systems or more
 */
export function oneSystemOrPair(text: string | undefined): SystemOption | null {
  const system = parseSystemOption(text);
  if (system?.values && system.values.length > 2) {
    throw new RagciError(
      "invalid-option",
      `--system ${text}: name one system, or two to study their paired differences`,
    );
  }
  return system;
}
