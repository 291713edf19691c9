/**
 * The README's set-up is two commands, and CI runs the second the way a user does: the script
 * that installs the tests' Debian packages is the one .ci/run calls, and it names every package
 * whose tool a test starts (Rscript, chromium, PostgreSQL's initdb, clickhouse-server).
 */
import { accessSync, constants, readFileSync } from "node:fs";
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
