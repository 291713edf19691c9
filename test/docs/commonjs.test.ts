/**
 * ragci is an ES module only: in a CommonJS project (package.json without "type", as `npm init`
 * writes it) `require("ragci")` throws ERR_PACKAGE_PATH_NOT_EXPORTED and `await import("ragci")`
 * works, as README.md and docs/library.md say. The project is made in a scratch directory with
 * ragci linked into its node_modules, as `npm i ragci` would place it; the library is the built
 * dist/ (npm test builds first).
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, scratchDir } from "../cli/runCli.js";

function runInCommonJsProject(): {
  requireError: { code: string; message: string } | null;
  micro: number;
  cr2: { available: boolean; lower: number; upper: number };
} {
  if (!existsSync(join(ROOT, "dist/index.js")))
    throw new Error("dist/index.js is missing: run npm run build (npm test does it)");
  const project = scratchDir();
  writeFileSync(join(project, "package.json"), '{ "name": "uses-ragci", "version": "1.0.0" }\n');
  mkdirSync(join(project, "node_modules"));
  symlinkSync(ROOT, join(project, "node_modules/ragci"), "dir");
  copyFileSync(
    join(import.meta.dirname, "commonjs/uses-ragci.cjs"),
    join(project, "uses-ragci.cjs"),
  );
  const result = spawnSync(process.execPath, ["uses-ragci.cjs"], {
    cwd: project,
    encoding: "utf8",
  });
  expect(result.stderr).toBe("");
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout);
}

describe("ragci from CommonJS", () => {
  const seen = runInCommonJsProject();

  it('require("ragci") fails with ERR_PACKAGE_PATH_NOT_EXPORTED, the error the docs name', () => {
    expect(seen.requireError?.code).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
    expect(seen.requireError?.message).toMatch(
      /^No "exports" main defined in .*node_modules\/ragci\/package\.json$/,
    );
    for (const page of ["README.md", "docs/library.md"]) {
      const text = readFileSync(join(ROOT, page), "utf8");
      expect(text, page).toMatch(/`require\("ragci"\)` throws\s+`ERR_PACKAGE_PATH_NOT_EXPORTED`/);
      expect(text, page).toMatch(
        /No "exports" main defined in …\/node_modules\/ragci\/package\.json/,
      );
      expect(text, page).toMatch(/await import\("ragci"\)/);
    }
  });

  it('await import("ragci") gives the library: the micro estimate Σs/Σn and its cr2 interval', () => {
    const n = [12, 3, 40];
    const s = [7, 1, 22];
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(seen.micro).toBeCloseTo(sum(s) / sum(n), 14);
    expect(seen.cr2.available).toBe(true);
    expect(seen.cr2.lower).toBeLessThan(seen.micro);
    expect(seen.cr2.upper).toBeGreaterThan(seen.micro);
  });
});
