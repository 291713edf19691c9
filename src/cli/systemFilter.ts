import { RagciError } from "../core/errors.js";
import type { SystemFilter } from "../ingest/readOneSystem.js";

/**
 * `--system` in every command: `COLUMN` (split by it), `COLUMN=VALUE` (that system's rows) or
 * `COLUMN=A,B` (those systems: a pair in compare and plan).
 */
export interface SystemOption {
  readonly column: string;
  /** The systems named after `=`, in the order given; null for `COLUMN` alone. */
  readonly values: readonly string[] | null;
}

export function parseSystemOption(text: string | undefined): SystemOption | null {
  if (text === undefined) return null;
  const at = text.indexOf("=");
  if (at === 0 || text.trim() === "") {
    throw new RagciError(
      "invalid-option",
      `--system ${text}: give COLUMN, COLUMN=VALUE or COLUMN=A,B, e.g. --system system=bm25`,
    );
  }
  if (at < 0) return { column: text, values: null };
  const values = text
    .slice(at + 1)
    .split(",")
    .map((v) => v.trim());
  if (values.some((v) => v === "") || new Set(values).size !== values.length) {
    throw new RagciError(
      "invalid-option",
      `--system ${text}: name each system once after "=", e.g. --system ${text.slice(0, at)}=bm25 or ${text.slice(0, at)}=bm25,tfidf`,
    );
  }
  return { column: text.slice(0, at), values };
}

/** Keeps the groups of the named systems, or says which are missing and what the file has. */
export function pickSystems<G extends { readonly system: string | null }>(
  groups: readonly G[],
  option: SystemOption | null,
  file: string,
): G[] {
  if (!option?.values) return [...groups];
  const found = [...new Set(groups.map((g) => g.system))];
  const missing = option.values.filter((v) => !found.includes(v));
  if (missing.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${file}: no system "${missing.join('", "')}" in column ${option.column} (found ${found.join(", ")})`,
    );
  }
  return groups.filter((g) => option.values?.includes(g.system as string));
}

/** plan and strata: COLUMN=VALUE (or COLUMN=A,B for a paired plan); COLUMN alone reads it. */
export function parseSystemFilter(text: string | undefined): SystemFilter | null {
  const option = parseSystemOption(text);
  if (option === null) return null;
  return { column: option.column, value: option.values?.join(",") ?? "" };
}
