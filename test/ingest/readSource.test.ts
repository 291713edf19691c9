import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { isRagciError } from "../../src/core/errors.js";
import { readSource, type Selection } from "../../src/index.js";
import { readPairedResults, readResults } from "../../src/ingest/index.js";
import { parseSystemSelection } from "../../src/ingest/selection.js";

const EXAMPLE = join(import.meta.dirname, "../../examples/covidqa-retrieval.csv");
const TEXT = readFileSync(EXAMPLE, "utf8");

/** The example's rows of one system, recomputed here: per document, n and Σ of a metric. */
function sumsOf(system: string, metric: string): Map<string, [number, number]> {
  const [header, ...lines] = TEXT.trim().split("\n");
  const names = (header as string).split(",");
  const at = (name: string) => names.indexOf(name);
  const sums = new Map<string, [number, number]>();
  for (const line of lines) {
    const cells = line.split(",");
    if (cells[at("system")] !== system) continue;
    const doc = cells[at("doc_id")] as string;
    const [n, s] = sums.get(doc) ?? [0, 0];
    sums.set(doc, [n + 1, s + Number(cells[at(metric)])]);
  }
  return sums;
}

/** The option an error names (its context), or the message when it is not ragci's. */
async function optionOf(reading: Promise<unknown>): Promise<string | undefined> {
  try {
    await reading;
  } catch (error) {
    if (isRagciError(error)) return error.context.option;
    throw error;
  }
  throw new Error("did not throw");
}

describe("readSource: one entry for files, stdin and (tested with PostgreSQL) databases", () => {
  const bm25: Selection = { ...parseSystemSelection("system=bm25"), metrics: ["hit5"] };

  it("refuses a documentLabel that is a column of the per-document table, before reading", async () => {
    // A table written with it would have two columns of that name; the file need not exist.
    for (const read of ["tables", "pairs", "one"] as const) {
      const reading = readSource({ files: ["no-such-file.csv"], doc: "doc_id" }, bm25, {
        read,
        documentLabel: "n",
      } as Parameters<typeof readSource>[2]);
      await expect(reading).rejects.toThrow(
        /^`documentLabel` n: the per-document table already has a column n \(system, metric, doc, n, s, ss, min, max\); keep a column of another name$/,
      );
    }
    const reading = readSource({ files: [EXAMPLE], doc: "doc_id" }, bm25, {
      read: "tables",
      documentLabel: "ss",
    });
    expect(await optionOf(reading)).toBe("documentLabel");
  });

  it("tables: one system's per-document sums, as recomputed from the raw file", async () => {
    const [read] = await readSource({ files: [EXAMPLE], doc: "doc_id" }, bm25, { read: "tables" });
    const group = read?.table.groups[0];
    expect(read?.table.groups.map((g) => [g.system, g.metric])).toEqual([["bm25", "hit5"]]);
    const expected = sumsOf("bm25", "hit5");
    expect(group?.stats.ids.length).toBe(expected.size);
    group?.stats.ids.forEach((id, i) => {
      expect([group.stats.n[i], group.stats.s[i]]).toEqual(expected.get(id));
    });
    expect(read?.description).toMatchObject({
      file: EXAMPLE,
      format: "csv",
      kind: "per-query",
      rows: TEXT.trim().split("\n").length - 1,
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it("tables from stdin (-) give the file's table, its format named or told from its content", async () => {
    const source = { files: ["-"], doc: "doc_id", format: "csv", stdin: Readable.from([TEXT]) };
    const [piped] = await readSource(source, bm25, { read: "tables" });
    const file = await readResults({
      file: EXAMPLE,
      doc: "doc_id",
      metrics: ["hit5"],
      system: "system",
    });
    const fileGroup = file.groups.find((g) => g.system === "bm25");
    expect(piped?.description.file).toBe("stdin");
    expect(piped?.table.groups[0]?.stats.s).toEqual(fileGroup?.stats.s);
    // Without a format, stdin's format is told from its content, and the table says so.
    const unformatted = { files: ["-"], doc: "doc_id", stdin: Readable.from([TEXT]) };
    const [sniffed] = await readSource(unformatted, bm25, { read: "tables" });
    expect(sniffed?.table.groups[0]?.stats.s).toEqual(fileGroup?.stats.s);
    expect(sniffed?.table.notices).toContain("stdin: read as CSV (told from its content)");
  });

  it("one: a pair's differences are the paired read's, and the refusals name the option", async () => {
    const pair = { ...parseSystemSelection("system=bm25,tfidf"), metrics: ["hit5"] };
    const one = await readSource({ files: [EXAMPLE], doc: "doc_id" }, pair, {
      read: "one",
      usedBy: "plan",
    });
    const paired = await readPairedResults({
      inputs: [{ path: EXAMPLE, displayName: EXAMPLE }],
      doc: "doc_id",
      system: "system",
      metrics: ["hit5"],
      pairs: () => [["bm25", "tfidf"]],
    });
    expect(one.pair).toEqual({ a: "bm25", b: "tfidf" });
    expect(one.stats.s).toEqual(paired.differences[0]?.stats.s);
    const file = { files: [EXAMPLE], doc: "doc_id" };
    const three = { ...parseSystemSelection("system=a,b,c"), metrics: ["hit5"] };
    expect(await optionOf(readSource(file, three, { read: "one", usedBy: "plan" }))).toBe("system");
    const twoMetrics = { ...pair, metrics: ["hit5", "rr"] };
    expect(await optionOf(readSource(file, twoMetrics, { read: "one", usedBy: "plan" }))).toBe(
      "metric",
    );
    const aggregated = { ...file, aggregated: true };
    expect(await optionOf(readSource(aggregated, pair, { read: "one", usedBy: "plan" }))).toBe(
      "aggregated",
    );
    const both = { read: "one", usedBy: "strata", allowPair: false } as const;
    expect(await optionOf(readSource(file, pair, both))).toBe("system");
    // One system of a file of several, unnamed: refused, never pooled.
    await expect(
      readSource(file, { metrics: ["hit5"] }, { read: "one", usedBy: "plan" }),
    ).rejects.toThrow(
      /2 systems in column system \(bm25, tfidf\); plan uses one: pick it with `system` system=bm25/,
    );
  });
});
