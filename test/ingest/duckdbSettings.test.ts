import { existsSync, readdirSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryRows, withDuckDb, withQueryProgress } from "../../src/ingest/duckdb.js";
import { sqlString } from "../../src/ingest/inputFormat.js";
import { scratchDir } from "../cli/runCli.js";

describe("DuckDB's settings for large inputs", () => {
  it("spills to a private temporary directory, removed afterwards, within half the memory", async () => {
    const before = new Set(readdirSync(tmpdir()));
    let spill = "";
    await withDuckDb(async (c) => {
      const [row] = await queryRows(
        c,
        "SELECT current_setting('temp_directory') AS t, current_setting('memory_limit') AS m",
      );
      spill = String(row?.t);
      expect(spill.startsWith(tmpdir())).toBe(true);
      expect(before.has(spill.slice(tmpdir().length + 1))).toBe(false);
      expect(existsSync(spill)).toBe(true);
      // DuckDB shows the limit in GiB/MiB: half the machine's memory, to within its rounding.
      const m = /^([\d.]+) (GiB|MiB)$/.exec(String(row?.m));
      const bytes = Number(m?.[1]) * 2 ** (m?.[2] === "GiB" ? 30 : 20);
      expect(Math.abs(bytes / totalmem() - 0.5)).toBeLessThan(0.01);
      // A GROUP BY larger than a small limit completes by spilling into that directory.
      await c.run("SET memory_limit = '64MiB'");
      const [big] = await queryRows(
        c,
        "SELECT count(*) AS groups FROM (SELECT x % 3000000 AS k, count(*) FROM range(6000000) t(x) GROUP BY k)",
      );
      expect(big?.groups).toBe(3000000);
    });
    expect(existsSync(spill)).toBe(false);
    expect(existsSync(".tmp")).toBe(false);
  });

  it("reports a query's progress (DuckDB's own estimate) while it runs", async () => {
    const csv = join(scratchDir(), "progress.csv");
    const seen: number[] = [];
    await withDuckDb(async (c) => {
      await c.run(
        `COPY (SELECT x % 50000 AS doc, x AS q, x % 2 AS hit FROM range(4000000) t(x)) TO ${sqlString(csv)}`,
      );
      await withQueryProgress(
        c,
        (f) => seen.push(f),
        () =>
          c.run(
            `SELECT doc, count(DISTINCT q), sum(hit) FROM read_csv(${sqlString(csv)}) GROUP BY doc`,
          ),
      );
    });
    expect(seen.length).toBeGreaterThan(0);
    for (const f of seen) expect(f).toBeGreaterThanOrEqual(0);
    for (const f of seen) expect(f).toBeLessThanOrEqual(1);
  });
});
