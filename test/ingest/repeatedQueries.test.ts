import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../src/ingest/index.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();

/** Rows `doc,query_id,system,hit` from [doc, query, system] triples (hit 1 throughout). */
function csv(name: string, rows: [string, string, string][]): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `doc,query_id,system,hit\n${rows.map((r) => `${r.join(",")},1`).join("\n")}\n`,
  );
  return path;
}

describe("repeated query ids (hashes first, then the ids of the hashes that repeat)", () => {
  it("names the first repeated (system, query) and counts the others, as grouping the ids does", async () => {
    const path = csv("repeats.csv", [
      ["a", "q2", "A"],
      ["a", "q1", "A"],
      ["b", "q1", "A"],
      ["a", "q2", "A"],
      ["b", "q2", "A"],
      ["a", "q1", "B"],
      ["c", "q3", "B"],
      ["c", "q3", "B"],
      ["c", "q4", "B"],
    ]);
    const read = await readResults({ file: path, metrics: ["hit"], system: "system" });
    // A/q1 twice, A/q2 three times, B/q3 twice: three repeated ids, the first in (system, query) order A/q1.
    expect(read.notices).toContain(
      `${path}: query id q1 appears 2 times for system A (and 2 more query ids repeat) in column query_id; each query is counted as many times as it appears — remove duplicated rows if that is not intended`,
    );
  });

  it("says nothing when every query appears once per system (the same id in two systems is not a repeat)", async () => {
    const path = csv("once.csv", [
      ["a", "q1", "A"],
      ["a", "q1", "B"],
      ["b", "q2", "A"],
      ["b", "q2", "B"],
    ]);
    const read = await readResults({ file: path, metrics: ["hit"], system: "system" });
    expect(read.notices.filter((n) => /appears/.test(n))).toEqual([]);
  });
});
