/**
 * An error's first non-blank line: what DuckDB and the database clients put there names the
 * problem, and what follows (DuckDB's SQL echo, a client's stack or detail) does not.
 */
export function errorLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split("\n").find((line) => line.trim() !== "") ?? text).trim();
}
