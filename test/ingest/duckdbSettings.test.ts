import { existsSync, readdirSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  queryRows,
  withDuckDb,
  withMemoryLimit,
  withQueryProgress,
} from "../../src/ingest/duckdb.js";
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

  it("withMemoryLimit lowers the budget for one query, restores it, and reruns under it when too small", async () => {
    await withDuckDb(async (c) => {
      const limit = async () =>
        String((await queryRows(c, "SELECT current_setting('memory_limit') AS m"))[0]?.m);
      const before = await limit();
      const seen: string[] = [];
      const groups = await withMemoryLimit(c, "1MiB", async () => {
        seen.push(await limit());
        const [row] = await queryRows(
          c,
          "SELECT count(*) AS k FROM (SELECT x % 2000000 AS g FROM range(4000000) t(x) GROUP BY g)",
        );
        return row?.k;
      });
      expect(groups).toBe(2000000);
      // The first try ran under 1 MiB and ran out of memory; the second under the usual limit.
      expect(seen).toEqual(["1.0 MiB", before]);
      expect(await limit()).toBe(before);
      await expect(
        withMemoryLimit(c, "64MiB", () => queryRows(c, "SELECT no_such_column FROM range(3)")),
      ).rejects.toThrow(/no_such_column/);
      expect(await limit()).toBe(before);
    });
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
