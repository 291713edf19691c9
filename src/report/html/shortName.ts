/** At most `max` characters, the middle replaced by "…". */
function middleEllipsis(chars: readonly string[], max: number): string {
  if (chars.length <= max) return chars.join("");
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return `${chars.slice(0, head).join("")}…${chars.slice(chars.length - tail).join("")}`;
}

/** How many leading characters every one of the names shares. */
function sharedPrefix(names: readonly (readonly string[])[]): number {
  const first = names[0] ?? [];
  let k = 0;
  while (k < first.length && names.every((n) => n[k] === first[k])) k++;
  return k;
}

/**
 * Names as a figure's labels can hold them: each at most `max` characters, shortened in the
 * middle; where that makes two alike (retriever-…-bm25-… and retriever-…-tfidf-… sharing
 * their start and end), the start and end they share are cut instead, so the labels keep what
 * tells the names apart. The figure's caption and text alternative give the whole names.
 */
export function shortNames(names: readonly string[], max: number): Map<string, string> {
  const chars = names.map((n) => [...n]);
  const plain = chars.map((c) => middleEllipsis(c, max));
  if (new Set(plain).size === new Set(names).size)
    return new Map(names.map((n, i) => [n, plain[i] as string]));
  const prefix = sharedPrefix(chars);
  const suffix = Math.min(
    sharedPrefix(chars.map((c) => [...c].reverse())),
    ...chars.map((c) => c.length - prefix),
  );
  const head = Math.min(prefix, 10);
  return new Map(
    names.map((n, i) => {
      const c = chars[i] as string[];
      const start = prefix > head ? `${c.slice(0, head).join("")}…` : c.slice(0, prefix).join("");
      const end = suffix > 0 ? "…" : "";
      const room = Math.max(3, max - [...start].length - end.length);
      return [n, `${start}${middleEllipsis(c.slice(prefix, c.length - suffix), room)}${end}`];
    }),
  );
}
