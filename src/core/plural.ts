/** "1 system", "3 systems": a count with its noun; `many` for irregular plurals ("queries"). */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
