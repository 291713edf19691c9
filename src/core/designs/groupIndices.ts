/** Positions of each label, in first-appearance order: groupIndices(["a", "b", "a"]) → a: [0, 2], b: [1]. */
export function groupIndices(labels: readonly string[]): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  labels.forEach((label, i) => {
    const list = groups.get(label);
    if (list) list.push(i);
    else groups.set(label, [i]);
  });
  return groups;
}
