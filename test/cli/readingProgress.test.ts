import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { withDuckDb } from "../../src/ingest/duckdb.js";
import { sqlString } from "../../src/ingest/inputFormat.js";
import { CLI, ragci, scratchDir } from "./runCli.js";

const dir = scratchDir();
const csv = join(dir, "progress.csv");

describe("analyze's progress bar while DuckDB reads", () => {
  beforeAll(async () => {
    // Enough rows that each pass runs long enough to be polled (every 250 ms).
    await withDuckDb((c) =>
      c.run(
        `COPY (SELECT 'd' || (x % 20000) AS doc_id, 'q' || x AS query_id, x % 2 AS hit FROM range(6000000) t(x)) TO ${sqlString(csv)}`,
      ),
    );
  }, 60_000);

  it("draws a bar on a terminal (script(1) gives the run one)", () => {
    const command = `'${process.execPath}' '${CLI}' analyze '${csv}' --doc doc_id --metric hit --replicates 0 --json > /dev/null`;
    const run = spawnSync("script", ["-qec", command, "/dev/null"], { encoding: "utf8" });
    expect(run.status).toBe(0);
    const frames = run.stdout.split("\r").filter((f) => f.includes("%"));
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames)
      expect(frame).toMatch(
        /reading .*progress\.csv: (aggregating|checking query ids) \[[█░]{24}\] \d{1,3}%/,
      );
  }, 60_000);

  it("writes nothing to stderr when piped", () => {
    const run = ragci([
      "analyze",
      csv,
      "--doc",
      "doc_id",
      "--metric",
      "hit",
      "--replicates",
      "0",
      "--json",
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout).analyses[0].results).toBe(6000000);
  }, 60_000);
});
