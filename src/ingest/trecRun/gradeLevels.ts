/**
 * How many documents a query's qrels judge at each grade ≥ 0 (form_res_rels.c rel_levels):
 * `levels[g]`, every index up to the highest grade filled. Negative grades are not counted.
 */
export function gradeLevels(judgements: ReadonlyMap<string, number>): number[] {
  const levels: number[] = [];
  for (const grade of judgements.values()) if (grade >= 0) levels[grade] = (levels[grade] ?? 0) + 1;
  for (let g = 0; g < levels.length; g++) levels[g] = levels[g] ?? 0;
  return levels;
}
