import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";

// better-sqlite3 is a dev dependency here; its absence, as a user without it sees it, is
// simulated by making Node's resolution of it fail as it does for a package not installed.
vi.mock("node:module", async (original) => {
  const actual = await original<typeof import("node:module")>();
  return {
    ...actual,
    createRequire: (from: string | URL) => {
      const require = actual.createRequire(from);
      const resolve = (id: string) => {
        if (id === "better-sqlite3")
          throw Object.assign(new Error(`Cannot find module '${id}'`), {
            code: "MODULE_NOT_FOUND",
          });
        return require.resolve(id);
      };
      return Object.assign((id: string) => require(id), require, { resolve });
    },
  };
});

const { sqliteTables } = await import("../../../src/ingest/evalFormats/sqliteTables.js");

describe("SQLite files without better-sqlite3", () => {
  it("are refused in one line naming the package to install", async () => {
    const path = join(import.meta.dirname, "../../fixtures/realTools/evalite/cache.sqlite");
    await expect(sqliteTables(path, "cache.sqlite", readFileSync(path))).rejects.toThrow(
      "cache.sqlite: a SQLite file (evalite's store) is read with the package better-sqlite3, which is not installed: npm install better-sqlite3@12 (beside ragci)",
    );
  });
});
