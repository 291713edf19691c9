import { describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/io.js";
import type { Progress } from "../../src/cli/progress.js";
import { readingProgress } from "../../src/cli/readingProgress.js";
import { loadDuringScan } from "../../src/ingest/loadDuringScan.js";
import { duringScan } from "../../src/ingest/scanGate.js";

// One process-wide "first scan" signal: these run in order in one file.
describe("loadDuringScan", () => {
  it("loads once the reading has ended when it had no scan (aggregated input, a database)", async () => {
    const events: string[] = [];
    const reading = new Promise<string>((resolve) =>
      setTimeout(() => {
        events.push("read");
        resolve("table");
      }, 20),
    );
    const result = await loadDuringScan(reading, async () => {
      events.push("load");
      return "core";
    });
    expect(result).toEqual(["table", "core"]);
    expect(events).toEqual(["read", "load"]);
  });

  it("gives the reading's error, not a hang, when the reading fails before any scan", async () => {
    const failing = Promise.reject(new Error("bad input"));
    await expect(loadDuringScan(failing, async () => "core")).rejects.toThrow("bad input");
  });

  it("starts the load when a scan starts, before the reading ends", async () => {
    const events: string[] = [];
    let endScan: () => void = () => {};
    const scanning = duringScan(
      () =>
        new Promise<void>((resolve) => {
          endScan = resolve;
        }),
    );
    const reading = scanning.then(() => {
      events.push("read");
      return "table";
    });
    const loaded = loadDuringScan(reading, async () => {
      events.push("load");
      return "core";
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(events).toEqual(["load"]);
    endScan();
    expect(await loaded).toEqual(["table", "core"]);
    expect(events).toEqual(["load", "read"]);
  });
});

describe("readingProgress", () => {
  it("asks DuckDB for no progress when nothing is shown (piped stderr)", () => {
    const quiet: Progress = { enabled: false, update() {}, done() {} };
    const shown: string[] = [];
    const terminal: Progress = { enabled: true, update: (m) => void shown.push(m), done() {} };
    const io = (progress: Progress) => ({ progress }) as CommandIo;
    expect(readingProgress(io(quiet)).scan).toBeUndefined();
    readingProgress(io(terminal)).scan?.("results.csv", "aggregating", 0.5);
    expect(shown).toEqual([
      `reading results.csv: aggregating [${"█".repeat(12)}${"░".repeat(12)}] 50%`,
    ]);
  });
});
