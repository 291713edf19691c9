/**
 * The README's set-up is two commands, and CI runs the second the way a user does: the script
 * that installs the tests' Debian packages is the one .ci/run calls, and it names every package
 * whose tool a test starts (Rscript, chromium, PostgreSQL's initdb, clickhouse-server).
 */
import { accessSync, constants, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const ci = readFileSync(join(ROOT, ".ci/run"), "utf8");
const script = readFileSync(join(ROOT, "scripts/install-test-deps.sh"), "utf8");

describe("the README's set-up commands", () => {
  const block = /## Set-up\n\n```sh\n([^`]*)```/.exec(readme)?.[1] ?? "";
  const commands = block.trim().split("\n");

  it("are two: install and analyse the example, then install the tests' needs and test", () => {
    expect(commands).toHaveLength(2);
    expect(commands[0]).toMatch(/^npm ci && npx ragci analyze examples\/covidqa-retrieval\.csv /);
    expect(commands[1]).toBe("scripts/install-test-deps.sh && npm test");
  });

  it("install with the script CI runs, which names every package a test starts", () => {
    accessSync(join(ROOT, "scripts/install-test-deps.sh"), constants.X_OK);
    expect(ci).toMatch(/^scripts\/install-test-deps\.sh$/m);
    expect(ci).toMatch(/^npm test /m);
    const packages = /packages=\(([^)]*)\)/.exec(script)?.[1]?.split(" ") ?? [];
    for (const p of [
      "r-base-core",
      "r-cran-clubsandwich",
      "r-cran-survey",
      "r-cran-jsonlite",
      "r-cran-lme4",
      "r-cran-lmertest",
      "chromium",
      "postgresql",
      "clickhouse-server",
    ])
      expect(packages).toContain(p);
  });
});

describe("the test projects (vitest.config.ts)", async () => {
  const { default: config } = await import("../../vitest.config.js");
  const projects = (config.test?.projects ?? []) as {
    test: { name: string; include: string[]; exclude?: string[] };
  }[];
  const scripts = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts as Record<
    string,
    string
  >;

  it("npm test runs every project after the build and the type check", () => {
    expect(scripts.test).toBe("npm run build && tsc -p tsconfig.json --noEmit && vitest run");
    expect(projects.map((p) => p.test.name)).toEqual([
      "unit",
      "oracle",
      "cli",
      "browser",
      "database",
    ]);
    for (const { test } of projects)
      expect(scripts[`test:${test.name}`]).toBe(`vitest run --project ${test.name}`);
  });

  it("put every test file in exactly one project", () => {
    // vitest's globs here use only "**/" and "*".
    const matcher = (glob: string) =>
      new RegExp(
        `^${glob
          .replace(/[.]/g, "\\.")
          .replace(/\*\*\//g, "\0")
          .replace(/\*/g, "[^/]*")
          .replace(/\0/g, "(.*/)?")}$`,
      );
    const matches = (globs: readonly string[], file: string) =>
      globs.some((g) => matcher(g).test(file));
    const files = (dir: string): string[] =>
      readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory()
          ? files(`${dir}/${e.name}`)
          : e.name.endsWith(".test.ts")
            ? [`${dir}/${e.name}`]
            : [],
      );
    const owners = files("test").map((file) => ({
      file,
      projects: projects
        .filter(({ test }) => matches(test.include, file) && !matches(test.exclude ?? [], file))
        .map(({ test }) => test.name),
    }));
    expect(owners.filter((o) => o.projects.length !== 1)).toEqual([]);
    // The five kinds are not empty: a glob that matched nothing would hide the mistake.
    for (const { test } of projects)
      expect(owners.filter((o) => o.projects[0] === test.name).length, test.name).toBeGreaterThan(
        0,
      );
  });
});
