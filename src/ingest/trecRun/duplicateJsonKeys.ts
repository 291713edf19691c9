/**
 * The first member name that occurs twice in one object of a JSON text at depth 1 or 2 (the
 * queries of a `{query: {document: score}}` run, and each query's documents), or null.
 * JSON.parse keeps the last of two equal names silently (so do Python's json, ranx and
 * pytrec_eval), which would merge a document retrieved twice; trec_eval refuses it.
 */
export function duplicateJsonKey(text: string): { name: string; depth: number } | null {
  /** The names seen in each open object, by depth (arrays hold none). */
  const open: (Set<string> | null)[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "{" || c === "[") {
      open.push(c === "{" ? new Set() : null);
      i++;
    } else if (c === "}" || c === "]") {
      open.pop();
      i++;
    } else if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const token = text.slice(i, end + 1);
      i = end + 1;
      while (i < text.length && /\s/.test(text[i] as string)) i++;
      const names = open.at(-1);
      if (text[i] !== ":" || !names || open.length > 2) continue;
      const name = JSON.parse(token) as string;
      if (names.has(name)) return { name, depth: open.length };
      names.add(name);
    } else i++;
  }
  return null;
}
