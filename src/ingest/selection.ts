import {
  type ComparisonMode,
  comparisonMode,
  comparisonPairs,
  type PairPolicy,
} from "../core/comparisonPairs.js";
import { optionRef, RagciError } from "../core/errors.js";

/**
 * What of a source to read: which systems (by the column that tells them apart), which
 * metrics, and, for a paired read, which pairs. Every command and the library choose with it.
 */
export interface Selection {
  /**
   * The column the systems are told apart by; null or absent: none named (an evaluation tool's
   * own systems, or one file per system in a paired read).
   */
  readonly systemColumn?: string | null | undefined;
  /** The systems named, in the order given; null or absent: every system of the column. */
  readonly systems?: readonly string[] | null | undefined;
  /** The metric columns; null or absent: the only numeric column that is not an id. */
  readonly metrics?: readonly string[] | null | undefined;
  /** Paired reads: a baseline, every pair, or (neither) the one pair of two systems. */
  readonly pairs?: PairPolicy | undefined;
  /**
   * Paired reads: keep the queries every system has, instead of refusing the others; null or
   * absent when the reading command has no --intersect, so that the refusal does not offer it.
   */
  readonly intersect?: boolean | null | undefined;
}

/** The system part of a Selection, as `parseSystemSelection` reads it. */
export interface SystemSelection {
  readonly systemColumn: string;
  readonly systems: readonly string[] | null;
}

/**
 * The system selection as text, `COLUMN`, `COLUMN=VALUE` or `COLUMN=A,B` (the CLI's `--system`):
 * the column, and the systems named after `=` in the order given. Undefined reads as null.
 *
 * @throws RagciError when the column is missing or a system is empty or named twice
 */
export function parseSystemSelection(text: string | undefined): SystemSelection | null {
  if (text === undefined) return null;
  const at = text.indexOf("=");
  if (at === 0 || text.trim() === "") {
    throw new RagciError(
      "invalid-option",
      `${optionRef("system")} ${text}: give COLUMN, COLUMN=VALUE or COLUMN=A,B, e.g. ${optionRef("system")} system=bm25`,
      { option: "system" },
    );
  }
  if (at < 0) return { systemColumn: text, systems: null };
  const systems = text
    .slice(at + 1)
    .split(",")
    .map((v) => v.trim());
  if (systems.some((v) => v === "") || new Set(systems).size !== systems.length) {
    const column = text.slice(0, at);
    throw new RagciError(
      "invalid-option",
      `${optionRef("system")} ${text}: name each system once after "=", e.g. ${optionRef("system")} ${column}=bm25 or ${column}=bm25,tfidf`,
      { option: "system" },
    );
  }
  return { systemColumn: text.slice(0, at), systems };
}

/** The system selection as `parseSystemSelection` reads it back (for messages). */
export function systemSelectionText(selection: Selection): string {
  const column = selection.systemColumn ?? "";
  return selection.systems ? `${column}=${selection.systems.join(",")}` : column;
}

/** Keeps the groups of the named systems, or says which are missing and what the source has. */
export function pickSystems<G extends { readonly system: string | null }>(
  groups: readonly G[],
  selection: Selection,
  source: string,
): G[] {
  const named = selection.systems;
  if (!named) return [...groups];
  const found = [...new Set(groups.map((g) => g.system))];
  const missing = named.filter((v) => !found.includes(v));
  if (missing.length > 0) {
    throw new RagciError(
      "invalid-option",
      `${source}: no system "${missing.join('", "')}" in column ${selection.systemColumn} (found ${found.join(", ")})`,
      { file: source, option: "system" },
    );
  }
  return groups.filter((g) => named.includes(g.system as string));
}

/** The selection's pair policy as core applies it: the mode, and the pairs once systems are known. */
export function pairChoice(selection: Selection): {
  readonly mode: ComparisonMode;
  readonly pairs: (systems: readonly string[]) => (readonly [string, string])[];
} {
  const policy = {
    baseline: selection.pairs?.baseline ?? null,
    allPairs: selection.pairs?.allPairs ?? false,
  };
  return {
    pairs: (systems) => comparisonPairs(systems, policy).pairs,
    mode: comparisonMode(policy),
  };
}
