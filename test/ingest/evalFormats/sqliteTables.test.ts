import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteTables } from "../../../src/ingest/evalFormats/sqliteTables.js";

const STORE = join(import.meta.dirname, "../../fixtures/realTools/evalite/cache.sqlite");

describe("a SQLite file's tables", () => {
  it("are read from the file's bytes, which are left as they were", async () => {
    const before = readFileSync(STORE);
    const tables = await sqliteTables(STORE, "cache.sqlite", before);
    expect([...tables.keys()]).toEqual(expect.arrayContaining(["evals", "results", "scores"]));
    expect((tables.get("evals") ?? []).length).toBeGreaterThan(0);
    expect(readFileSync(STORE).equals(before)).toBe(true);
  });

  // Hand-made edge case: a -wal file with content beside the store (a writer still running).
  it("beside a -wal file with content are refused: the file alone is an earlier state", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ragci-sqlite-"));
    const path = join(dir, "cache.sqlite");
    writeFileSync(path, readFileSync(STORE));
    writeFileSync(`${path}-wal`, Buffer.alloc(4096, 1));
    await expect(sqliteTables(path, "cache.sqlite", readFileSync(path))).rejects.toThrow(
      "cache.sqlite: 4096 bytes of commits are still in cache.sqlite-wal (the writer is running or did not close); let it finish, then read the file",
    );
  });

  it("of a file that is not a whole database are refused in one line", async () => {
    const bytes = readFileSync(STORE).subarray(0, 1000);
    await expect(sqliteTables("/nonexistent/x.sqlite", "x.sqlite", bytes)).rejects.toThrow(
      /^x\.sqlite: SQLite could not open it \(.*\); check that it is a whole database file$/,
    );
  });
});
