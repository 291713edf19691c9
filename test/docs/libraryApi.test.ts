/**
 * The library surface is what etc/ragci.api.md and etc/ragci-core.api.md say (api-extractor, on
 * tsc's declarations in dist/), and the package's shape resolves for ESM and bundlers
 * (@arethetypeswrong/cli, on `npm pack`'s tarball, offline). A change to an exported name or
 * signature fails here until `npm run api` updates the reports (docs/library.md).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
// The tools from the project's devDependencies, as npm scripts find them.
const env = {
  ...process.env,
  PATH: `${join(ROOT, "node_modules/.bin")}:${process.env.PATH}`,
  NO_COLOR: "1",
};

function run(command: string, args: readonly string[]) {
  const r = spawnSync(command, args, { cwd: ROOT, env, encoding: "utf8" });
  if (r.error) throw r.error;
  return { code: r.status, output: `${r.stdout}${r.stderr}` };
}

/** The report's exported values: `export function name`, `export const name`, `export class name`. */
function values(report: string): string[] {
  return [...report.matchAll(/^export (?:function|const|class) (\w+)/gm)]
    .map((m) => m[1] as string)
    .filter((name, i, all) => all.indexOf(name) === i);
}

describe("the library surface", () => {
  it.each([
    ["ragci", "api-extractor.json"],
    ["ragci/core", "api-extractor.core.json"],
  ])("%s matches its committed API report", (_, config) => {
    const { code, output } = run("api-extractor", ["run", "-c", config]);
    expect(output).not.toMatch(/Warning|Error/);
    expect(code, output).toBe(0);
  });

  it("has at most 60 values, and ragci/core's are among ragci's", () => {
    const all = values(readFileSync(join(ROOT, "etc/ragci.api.md"), "utf8"));
    const core = values(readFileSync(join(ROOT, "etc/ragci-core.api.md"), "utf8"));
    // One verb per command, the estimators a statistician calls and the noise facets' eight
    // (docs/facets.md); a value another export gives stays out (docs/library.md, the surface).
    expect(all.length).toBeLessThanOrEqual(60);
    expect(core.filter((name) => !all.includes(name))).toEqual([]);
  });

  it("resolves for ESM and bundlers as npm would install it (attw on npm pack's tarball)", () => {
    const dir = mkdtempSync(join(tmpdir(), "ragci-pack-"));
    const pack = run("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", dir]);
    expect(pack.code, pack.output).toBe(0);
    const tarball = join(dir, pack.output.trim().split("\n").at(-1) as string);
    const { code, output } = run("attw", [tarball, "--profile", "esm-only", "--format", "json"]);
    expect(code, output).toBe(0);
    const report = JSON.parse(output.slice(output.indexOf("{")));
    // An ES module only (docs/library.md): require() and node10's resolution are not offered.
    const problems = (report.analysis.problems as { resolutionKind?: string }[]).filter(
      (p) => p.resolutionKind !== "node16-cjs" && p.resolutionKind !== "node10",
    );
    expect(problems).toEqual([]);
    // and the JSON Schemas, files (docs/json.md)
    expect(Object.keys(report.analysis.entrypoints)).toEqual([".", "./core", "./schemas/*"]);
  });
});
