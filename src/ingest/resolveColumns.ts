import { optionRef, RagciError } from "../core/errors.js";
import { requireDistinctMetrics } from "./identity.js";

/** Names tried, in order, for the query id column (pairing, and excluded from metrics). */
export const QUERY_COLUMN_CANDIDATES = ["query_id", "query", "qid", "question_id"];

/** Names tried, in order, for the document id column. */
export const DOCUMENT_COLUMN_CANDIDATES = ["doc_id", "doc", "document_id", "document"];

/** Well-known alternative names, tried only when no column matches the requested name. */
const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  mrr: ["rr", "reciprocalrank", "recirank", "reciprank"],
  rr: ["mrr", "reciprocalrank", "reciprank"],
  // trec_eval's name (m_recip_rank.c)
  reciprank: ["rr", "mrr", "reciprocalrank"],
  doc: ["docid", "document", "documentid"],
  docid: ["doc", "document", "documentid"],
};

/**
 * Names of one measure at a cutoff k, as ragci's examples and trec_eval write them: hit@5 is
 * trec_eval's success_5 (m_success.c), ndcg@10 its ndcg_cut_10, map@10 its map_cut_10.
 */
const CUTOFF_FAMILIES: readonly (readonly string[])[] = [
  ["hit", "hits", "hitrate", "success"],
  ["ndcg", "ndcgcut"],
  ["map", "mapcut"],
];

/** The well-known synonyms of a normalised name, cutoff families included. */
function synonymsOf(key: string): readonly string[] {
  const cut = /^([a-z]+)(\d+)$/.exec(key);
  const family = cut ? CUTOFF_FAMILIES.find((f) => f.includes(cut[1] as string)) : undefined;
  const atCutoff = family && cut ? family.filter((n) => n !== cut[1]).map((n) => n + cut[2]) : [];
  return [...(SYNONYMS[key] ?? []), ...atCutoff];
}

/** Lower case without punctuation: "hit@5" and "Hit_5" both become "hit5". */
function normalise(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

/**
 * Finds the column the user means: an exact match, else the unique column equal up to case
 * and punctuation ("hit@5" → "hit5"), else a unique well-known synonym ("mrr" → "rr").
 *
 * @throws RagciError "missing-column" (listing the columns) or "ambiguous-column"
 */
export function resolveColumn(
  requested: string,
  columns: readonly string[],
  file: string,
  role: string,
): string {
  if (columns.includes(requested)) return requested;
  const key = normalise(requested);
  const loose = columns.filter((c) => normalise(c) === key);
  if (loose.length === 1) return loose[0] as string;
  if (loose.length > 1) {
    throw new RagciError(
      "ambiguous-column",
      `${file}: ${role} "${requested}" matches several columns (${loose.join(", ")}); give the exact name`,
      { file, column: requested },
    );
  }
  const synonyms = synonymsOf(key);
  const viaSynonym = columns.filter((c) => synonyms.includes(normalise(c)));
  if (viaSynonym.length === 1) return viaSynonym[0] as string;
  throw new RagciError(
    "missing-column",
    `${file}: no ${role} column "${requested}"; the columns are ${columns.join(", ")}`,
    { file, column: requested },
  );
}

/**
 * The metric columns asked for, each resolved as `resolveColumn` does, each once.
 *
 * @throws RagciError as resolveColumn, or when two names reach one column (identity.ts)
 */
export function resolveMetrics(
  requested: readonly string[],
  columns: readonly string[],
  file: string,
): string[] {
  const resolved = requested.map((m) => resolveColumn(m, columns, file, "metric"));
  requireDistinctMetrics(requested, resolved, file);
  return resolved;
}

/** The first of the candidate names present (exact or loose), or null. */
export function findColumn(
  candidates: readonly string[],
  columns: readonly string[],
): string | null {
  for (const candidate of candidates) {
    const key = normalise(candidate);
    const match = columns.find((c) => c === candidate) ?? columns.find((c) => normalise(c) === key);
    if (match) return match;
  }
  return null;
}

/**
 * The document id column: the one named (exactly or loosely), else the first of the usual
 * names.
 *
 * @throws RagciError "missing-column" naming the names tried and the file's columns
 */
export function documentColumn(
  requested: string | null | undefined,
  columns: readonly string[],
  file: string,
): string {
  if (requested) return resolveColumn(requested, columns, file, "document");
  const found = findColumn(DOCUMENT_COLUMN_CANDIDATES, columns);
  if (found !== null) return found;
  throw new RagciError(
    "missing-column",
    `${file}: no document column (looked for ${DOCUMENT_COLUMN_CANDIDATES.join(", ")}); name it with ${optionRef("doc")} (columns: ${columns.join(", ")})`,
    { file, option: "doc" },
  );
}

/**
 * The query id column that pairs systems: the one named, else the first of the usual names.
 *
 * @throws RagciError "missing-column" naming the names tried and the file's columns
 */
export function queryColumn(
  requested: string | null | undefined,
  columns: readonly string[],
  file: string,
): string {
  if (requested) return resolveColumn(requested, columns, file, "query");
  const found = findColumn(QUERY_COLUMN_CANDIDATES, columns);
  if (found !== null) return found;
  throw new RagciError(
    "missing-column",
    `${file}: no query id column to pair the systems on (looked for ${QUERY_COLUMN_CANDIDATES.join(", ")}); name it with ${optionRef("query")} (columns: ${columns.join(", ")})`,
    { file, option: "query" },
  );
}

/** A design's per-document column (stratum or first-stage unit), when one is asked for. */
export function labelColumn(
  requested: string | null | undefined,
  columns: readonly string[],
  file: string,
): string | null {
  return requested ? resolveColumn(requested, columns, file, "design") : null;
}
