import { escapeHtml } from "./escapeHtml.js";

/**
 * The reader's notes about the input (--json `notes`, printed by the terminal too): what was
 * averaged, read as a score or otherwise done to the rows. Empty when there are none.
 */
export function inputWarningsSection(notices: readonly string[]): string {
  return notices.length > 0
    ? `<section id="input-warnings"><h2>Warnings about the input</h2><ul class="advice">${notices.map((n) => `<li class="warning">${escapeHtml(n)}</li>`).join("")}</ul></section>`
    : "";
}
