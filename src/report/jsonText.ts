/** A report's JSON as the CLI writes it: 2-space indent and a trailing newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
