import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readResults } from "../../src/ingest/index.js";
import { scratchDir } from "../cli/runCli.js";

const dir = scratchDir();

/** 25,000 unquoted rows (past DuckDB's sniffing sample of 20,480), then `extra`. */
function csvWith(name: string, extra: readonly string[], delimiter = ","): string {
  const lines = [`doc${delimiter}hit`];
  for (let i = 0; i < 25_000; i++) lines.push(`d${i % 40}${delimiter}${i % 3 === 0 ? 1 : 0}`);
  lines.push(...extra);
  const path = join(dir, name);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/** Per-document (n, s) counted from the file's lines, splitting quoted fields as RFC 4180 does. */
function countedByHand(path: string, delimiter = ","): Map<string, [number, number]> {
  const counts = new Map<string, [number, number]>();
  const row = new RegExp(`^(?:"((?:[^"]|"")*)"|([^${delimiter}]*))${delimiter}(\\d)$`);
  for (const line of readFileSync(path, "utf8").trimEnd().split("\n").slice(1)) {
    const match = row.exec(line);
    if (!match) throw new Error(`unexpected line ${line}`);
    const doc = match[1] === undefined ? (match[2] as string) : match[1].replaceAll('""', '"');
    const [n, s] = counts.get(doc) ?? [0, 0];
    counts.set(doc, [n + 1, s + Number(match[3])]);
  }
  return counts;
}

describe("CSV quotes are RFC 4180's, wherever they first appear", () => {
  // DuckDB's sniffer takes a file whose first 20,480 rows hold no quote as unquoted: a quoted id
  // further down would be split at its comma (a row of three fields) and its quotes kept.
  it("a quoted id with a comma and a doubled quote past the sample is one document", async () => {
    const path = csvWith("late-quoted.csv", ['"d,1",1', '"say ""hi""",0', '"d,1",0']);
    const table = await readResults({ file: path, doc: "doc", metrics: ["hit"] });
    const stats = table.groups[0]?.stats;
    const read = new Map(
      (stats?.ids ?? []).map((id, d) => [id, [stats?.n[d], stats?.s[d]] as [number, number]]),
    );
    expect(read).toEqual(countedByHand(path));
    expect(read.get("d,1")).toEqual([2, 1]);
    expect(read.get('say "hi"')).toEqual([1, 0]);
  });

  it("a quote inside an unquoted value is kept as a character, not refused", async () => {
    const path = join(dir, "inner-quote.csv");
    writeFileSync(path, 'doc,hit\n5" screen,1\n5" screen,0\nplain,1\n');
    const table = await readResults({ file: path, doc: "doc", metrics: ["hit"] });
    expect(table.groups[0]?.stats.ids).toEqual(['5" screen', "plain"]);
  });

  // TSV as pandas' to_csv(sep="\t") writes it: a value holding a tab or a quote is quoted.
  it("in TSV too: a quoted id with a tab and a doubled quote past the sample", async () => {
    const path = csvWith("late-quoted.tsv", ['"d\t1"\t1', '"say ""hi"""\t0', '"d\t1"\t0'], "\t");
    const table = await readResults({ file: path, doc: "doc", metrics: ["hit"] });
    const stats = table.groups[0]?.stats;
    const read = new Map(
      (stats?.ids ?? []).map((id, d) => [id, [stats?.n[d], stats?.s[d]] as [number, number]]),
    );
    expect(read).toEqual(countedByHand(path, "\t"));
    expect(read.get("d\t1")).toEqual([2, 1]);
    expect(read.get('say "hi"')).toEqual([1, 0]);
  });
});
