import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RagciError } from "../../src/core/errors.js";
import { readAggregates, readPairedResults, readResults } from "../../src/ingest/index.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function failure(run: () => Promise<unknown>): Promise<RagciError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof RagciError) return error;
    throw error;
  }
  throw new Error("expected a RagciError");
}

const allPairs = (systems: readonly string[]) => [[systems[0], systems[1]] as [string, string]];

/** The same per-query rows, with systems A and B, as analyze and compare read them. */
function perQuery(name: string, rows: readonly string[]): string {
  return write(name, `query_id,doc,system,hit,size\n${rows.join("\n")}\n`);
}

describe("the three readers apply one set of rules", () => {
  const splitRows = [
    "q1,a,A,1,small",
    "q1,a,B,0,small",
    "q2,a,A,0,large",
    "q2,a,B,1,large",
    "q3,b,A,1,small",
    "q3,b,B,1,small",
  ];

  it("a document with two labels is the same invalid-design error in each", async () => {
    const file = perQuery("split.csv", splitRows);
    const aggregated = write(
      "split.aggregates.csv",
      "doc,n,s,size\na,1,1,small\na,1,0,large\nb,1,1,small\n",
    );
    const errors = [
      await failure(() =>
        readResults({ file, metrics: ["hit"], system: "system", documentLabel: "size" }),
      ),
      await failure(() =>
        readPairedResults({
          inputs: [{ path: file, displayName: file }],
          system: "system",
          metrics: ["hit"],
          pairs: allPairs,
          documentLabel: "size",
        }),
      ),
      // A document on two rows is refused unless they are added (merge), where the labels meet.
      await failure(() =>
        readAggregates({ file: aggregated, documentLabel: "size", addRepeatedDocuments: true }),
      ),
    ];
    for (const error of errors) {
      expect(error.code).toBe("invalid-design");
      expect(error.message).toMatch(
        /document a has more than one size \(large and small\); a document belongs to one size$/,
      );
      expect(error.context.document).toBe("a");
    }
  });

  it("an empty document id is located on its line by each reader, with the same words", async () => {
    const file = perQuery("nodoc.csv", ["q1,a,A,1,s", "q1,a,B,0,s", "q2,,A,1,s", "q2,,B,1,s"]);
    const aggregated = write("nodoc.aggregates.csv", "doc,n,s\na,2,1\n,3,1\n");
    const single = await failure(() => readResults({ file, metrics: ["hit"], system: "system" }));
    const paired = await failure(() =>
      readPairedResults({
        inputs: [{ path: file, displayName: file }],
        system: "system",
        metrics: ["hit"],
        pairs: allPairs,
      }),
    );
    const table = await failure(() => readAggregates({ file: aggregated }));
    expect(single.message).toBe(
      `${file} line 4: column doc is empty; every row needs a document id (and 1 more row)`,
    );
    expect(paired.message).toBe(single.message);
    expect(table.message).toBe(
      `${aggregated} line 3: column doc is empty; every row needs a document id`,
    );
    for (const error of [single, paired, table]) expect(error.code).toBe("invalid-value");
  });

  it("a non-numeric metric is located in its own file when compare reads one file per system", async () => {
    const a = write("A.csv", "query_id,doc,hit\nq1,a,1\nq2,a,0\nq3,b,1\n");
    const b = write(
      "B.jsonl",
      '{"query_id":"q1","doc":"a","hit":1}\n{"query_id":"q2","doc":"a","hit":"x"}\n{"query_id":"q3","doc":"b","hit":0}\n',
    );
    const error = await failure(() =>
      readPairedResults({
        inputs: [
          { path: a, displayName: a },
          { path: b, displayName: b },
        ],
        metrics: ["hit"],
        pairs: allPairs,
      }),
    );
    expect(error.message).toBe(
      `${b} line 2: column hit is empty or not a number; every result needs a finite value`,
    );
    expect(error.context.row).toBe(2);
  });

  it("rows of systems left out by onlySystems are not checked", async () => {
    const file = perQuery("other.csv", [
      "q1,a,A,1,s",
      "q1,a,B,0,s",
      "q1,a,C,,s",
      "q2,b,A,0,s",
      "q2,b,B,1,s",
      "q2,b,C,,s",
    ]);
    const table = await readPairedResults({
      inputs: [{ path: file, displayName: file }],
      system: "system",
      metrics: ["hit"],
      onlySystems: ["A", "B"],
      pairs: allPairs,
    });
    expect(table.systems).toEqual(["A", "B"]);
  });

  // |x| = 1e11 makes x² = 1e22, beyond DECIMAL(38, 18): the paired reader, like readResults,
  // falls back to double sums in a fixed order and says so instead of failing.
  it("the paired reader falls back to double sums when DECIMAL would overflow", async () => {
    const rows: string[] = [];
    const a = [3e11, 1e11, 2.5e11, 7];
    const b = [1e11, 1e11, 0.5, 2e11];
    for (let q = 0; q < 4; q++) {
      const doc = q < 2 ? "d1" : "d2";
      rows.push(`q${q},${doc},A,${a[q]},s`, `q${q},${doc},B,${b[q]},s`);
    }
    const file = perQuery("huge.csv", rows);
    const table = await readPairedResults({
      inputs: [{ path: file, displayName: file }],
      system: "system",
      metrics: ["hit"],
      pairs: allPairs,
    });
    expect(table.summation).toBe("double-query-order");
    const difference = table.differences[0];
    const [x0, x1, x2, x3] = b.map((v, q) => v - (a[q] as number)) as [
      number,
      number,
      number,
      number,
    ];
    expect(Array.from(difference?.stats.s ?? [])).toEqual([x0 + x1, x2 + x3]);
    expect(Array.from(difference?.stats.ss ?? [])).toEqual([x0 * x0 + x1 * x1, x2 * x2 + x3 * x3]);
    const single = await readResults({ file, metrics: ["hit"], system: "system" });
    expect(single.summation).toBe("double-single-thread");
  });

  it("paired sums stay exact (DECIMAL) on ordinary values", async () => {
    const file = perQuery(
      "ordinary.csv",
      splitRows.map((r) => r.replace(/,(small|large)$/, ",s")),
    );
    const table = await readPairedResults({
      inputs: [{ path: file, displayName: file }],
      system: "system",
      metrics: ["hit"],
      pairs: allPairs,
    });
    expect(table.summation).toBe("exact");
  });
});
