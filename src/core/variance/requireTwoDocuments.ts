import { RagciError } from "../errors.js";
import type { DocumentStats } from "../types.js";

/** @throws RagciError "too-few-documents" when K < 2: one document cannot give a standard error. */
export function requireTwoDocuments(stats: DocumentStats): number {
  const k = stats.n.length;
  if (k < 2) {
    throw new RagciError(
      "too-few-documents",
      `${k} document${k === 1 ? "" : "s"} found; a standard error needs at least 2 documents (the document, not the query, is the sampling unit)`,
    );
  }
  return k;
}
