/** Spelled alike: case, and `-` for `_`, do not count. */
const folded = (name: string) => name.toLowerCase().replaceAll("-", "_");

/** Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** Whether `short`'s characters appear in `long` in order (an abbreviation of it). */
function abbreviates(short: string, long: string): boolean {
  let at = 0;
  for (const ch of long) if (ch === short[at]) at++;
  return at === short.length;
}

/**
 * The known name `name` was most likely meant to be, or null: one spelled alike, one it
 * abbreviates (`population_docs`), or one a few edits away (about one in four characters, at
 * least two).
 *
 * @example closestName("lonely-psu", ["strata", "lonely_psu"]) // => "lonely_psu"
 * @example closestName("population_docs", ["population_documents", "strata"])
 *   // => "population_documents"
 */
export function closestName(name: string, known: readonly string[]): string | null {
  const wrong = folded(name);
  let best: { name: string; distance: number } | null = null;
  for (const candidate of known) {
    const right = folded(candidate);
    const distance =
      wrong.length >= 4 && wrong[0] === right[0] && abbreviates(wrong, right)
        ? 0
        : editDistance(wrong, right);
    if (best === null || distance < best.distance) best = { name: candidate, distance };
  }
  if (best === null) return null;
  return best.distance <= Math.max(2, Math.floor(wrong.length / 4)) ? best.name : null;
}
