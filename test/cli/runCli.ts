import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect } from "vitest";

export const ROOT = resolve(import.meta.dirname, "../..");
// The entry users run (package.json "bin"): the bundle of dist/cli/bin.js (scripts/bundle.mjs),
// which starts study workers early, then loads main.js.
export const CLI = join(ROOT, "dist/bundle/ragci.js");
export const FIXTURES = join(ROOT, "test/fixtures/reference");
export const EXAMPLE = join(ROOT, "examples/covidqa-retrieval.csv");

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built CLI (npm test builds first) with optional stdin, in `cwd`. */
export function ragci(
  args: readonly string[],
  options: {
    input?: string;
    cwd?: string;
    /** Variables set (or, when undefined, removed) in the child's environment. */
    env?: Readonly<Record<string, string | undefined>>;
  } = {},
): CliResult {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build (npm test does it)`);
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? ROOT,
    input: options.input ?? "",
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1", ...options.env },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), "ragci-test-"));
}

/** stdout of a run that must succeed: exit code 0 and nothing on stderr. */
export function ragciOk(
  args: readonly string[],
  options: { input?: string; cwd?: string } = {},
): string {
  const result = ragci(args, options);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return result.stdout;
}

/** The report of a run that must succeed, with --json appended to `args`. */
export function ragciJson(
  args: readonly string[],
  options: { input?: string; cwd?: string } = {},
): Record<string, any> {
  return JSON.parse(ragciOk([...args, "--json"], options));
}

/** analyze --json (v2): the analysis of one system (null: no --system) and metric. */
export function analysisOf(
  out: Record<string, any>,
  system: string | null,
  metric: string,
): Record<string, any> {
  const found = out.analyses.find((a: any) => a.system === system && a.metric === metric);
  if (!found) throw new Error(`no analysis of ${system} × ${metric} in the report`);
  return found;
}

/** analyze --json (v2) of one system and one metric: its only analysis. */
export function onlyAnalysis(out: Record<string, any>): Record<string, any> {
  expect(out.analyses).toHaveLength(1);
  return out.analyses[0];
}

/** compare --json (v2): the comparison b − a of one metric (b: the only pair's when omitted). */
export function comparisonOf(
  out: Record<string, any>,
  metric: string,
  b?: string,
  a?: string,
): Record<string, any> {
  const found = out.comparisons.filter(
    (c: any) =>
      c.metric === metric &&
      (b === undefined || c.b.system === b) &&
      (a === undefined || c.a.system === a),
  );
  if (found.length !== 1) throw new Error(`${found.length} comparisons of ${metric} match`);
  return found[0];
}
