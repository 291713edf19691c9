import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readPerDocumentTable } from "../../src/ingest/index.js";

const example = join(import.meta.dirname, "../../examples/covidqa-retrieval.csv");
const scratch = mkdtempSync(join(tmpdir(), "ragci-perdoc-"));
const selection = { systemColumn: "system", metrics: ["hit5"] };

describe("readPerDocumentTable", () => {
  it("adds shards document by document: two halves of a file give the file's table", async () => {
    const [header, ...rows] = readFileSync(example, "utf8").trimEnd().split(/\r?\n/);
    const half = Math.floor(rows.length / 2);
    const shards = [rows.slice(0, half), rows.slice(half)].map((part, i) => {
      const path = join(scratch, `shard-${i}.csv`);
      writeFileSync(path, `${[header, ...part].join("\n")}\n`);
      return path;
    });
    const whole = await readPerDocumentTable({ files: [example] }, selection, { label: null });
    const split = await readPerDocumentTable({ files: shards }, selection, { label: null });
    const plain = (t: typeof whole) =>
      t.groups.map((g) => ({
        system: g.system,
        ids: [...g.stats.ids],
        n: [...g.stats.n],
        s: [...g.stats.s],
      }));
    expect(plain(split)).toEqual(plain(whole));
    expect(whole.groups.map((g) => g.system)).toEqual(["bm25", "tfidf"]);
    expect(split.inexact).toEqual([]);
  });

  it("refuses a metric that is 0/1 in one shard and a score in another", async () => {
    const binary = join(scratch, "binary.csv");
    const score = join(scratch, "score.csv");
    writeFileSync(binary, "doc,x\na,1\nb,0\n");
    writeFileSync(score, "doc,x\nc,0.5\nd,1\n");
    await expect(
      readPerDocumentTable({ files: [binary, score] }, { metrics: ["x"] }, { label: null }),
    ).rejects.toThrow(/0\/1|score/);
  });
});
