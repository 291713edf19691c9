import { describe, expect, it } from "vitest";
import { ragciOk } from "./runCli.js";

/** The help of `flag` (--threads) in a command's --help, as one line (commander wraps it at 80). */
function threadsHelp(command: string, flag = "--threads"): string {
  const lines = ragciOk([command, "--help"]).split("\n");
  const at = lines.findIndex((l) => l.trimStart().startsWith(`${flag} <n>`));
  expect(at, `${command} --help has ${flag}`).toBeGreaterThanOrEqual(0);
  // The flag's line, then its continuation lines (indented, not another flag).
  const end = lines.findIndex((l, i) => i > at && !/^\s{6,}[^\s-]/.test(l));
  return lines
    .slice(at, end)
    .join(" ")
    .replace(/^\s*--[a-z]+ <n>/, "")
    .replace(/\s+/g, " ")
    .trim();
}

// --threads sets DuckDB's threads in every command that reads files; simulate's study workers
// are --workers (--threads alone there still sets both, deprecated): each help says which.
describe("each command's --help says which threads --threads sets", () => {
  it.each(["analyze", "compare"])("%s: DuckDB's, not the --census study's workers", (command) => {
    expect(threadsHelp(command)).toBe(
      "DuckDB threads reading the files (default: all cores); not the --census study's workers, which use all cores",
    );
  });

  it.each(["aggregate", "merge"])("%s: DuckDB's", (command) => {
    expect(threadsHelp(command)).toBe("DuckDB threads reading the files (default: all cores)");
  });

  it("simulate: DuckDB's reading the census; its workers are --workers", () => {
    expect(threadsHelp("simulate")).toBe(
      "DuckDB threads reading the census file (default: all cores); the study's are --workers",
    );
    expect(threadsHelp("simulate", "--workers")).toBe(
      "worker threads running the repetitions (default: the machine's cores)",
    );
  });
});
