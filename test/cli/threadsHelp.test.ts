import { describe, expect, it } from "vitest";
import { ragciOk } from "./runCli.js";

/** The help of `--threads` in a command's --help, as one line (commander wraps it at 80). */
function threadsHelp(command: string): string {
  const lines = ragciOk([command, "--help"]).split("\n");
  const at = lines.findIndex((l) => l.trimStart().startsWith("--threads <n>"));
  expect(at, `${command} --help has --threads`).toBeGreaterThanOrEqual(0);
  // The flag's line, then its continuation lines (indented, not another flag).
  const end = lines.findIndex((l, i) => i > at && !/^\s{6,}[^\s-]/.test(l));
  return lines
    .slice(at, end)
    .join(" ")
    .replace(/^\s*--threads <n>/, "")
    .replace(/\s+/g, " ")
    .trim();
}

// --threads sets DuckDB's threads in the commands that read files into tables, and simulate's
// workers (which also read its census with that many DuckDB threads): each help says which.
describe("each command's --help says which threads --threads sets", () => {
  it.each(["analyze", "compare"])("%s: DuckDB's, not the --census study's workers", (command) => {
    expect(threadsHelp(command)).toBe(
      "DuckDB threads reading the files (default: all cores); not the --census study's workers, which use all cores",
    );
  });

  it.each(["aggregate", "merge"])("%s: DuckDB's", (command) => {
    expect(threadsHelp(command)).toBe("DuckDB threads reading the files (default: all cores)");
  });

  it("simulate: the workers running the repetitions, and DuckDB's reading the census", () => {
    expect(threadsHelp("simulate")).toBe(
      "worker threads running the repetitions, and DuckDB threads reading the census file (default: the machine's cores)",
    );
  });
});
