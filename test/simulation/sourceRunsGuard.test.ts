import { copyFileSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionRef } from "../../src/core/errors.js";
import { analyzeSource, compareSource } from "../../src/index.js";
import { ROOT, scratchDir } from "../cli/runCli.js";

const settings = { level: 0.95, replicates: 0, seed: 1 };
const io = { version: "test" };

/** A copy of the bundled example in a scratch folder, and a link to it (another spelling). */
function example() {
  const dir = scratchDir();
  const file = join(dir, "results.csv");
  copyFileSync(join(ROOT, "examples/covidqa-retrieval.csv"), file);
  const link = join(dir, "link.csv");
  symlinkSync(file, link);
  return { file, link, bytes: readFileSync(file) };
}

describe("the library's analyzeSource and compareSource refuse what the command line refuses", () => {
  it("analyzeSource: a per-document table written over its input (through a link) is refused, the input kept", async () => {
    const { file, link, bytes } = example();
    await expect(
      analyzeSource(
        { files: [file], doc: "doc_id" },
        { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] },
        { ...settings, writeAggregates: link },
        io,
      ),
    ).rejects.toThrow(optionRef("writeAggregates"));
    expect(readFileSync(file)).toEqual(bytes);
  });

  it("compareSource: the same, and its checks (two systems) before anything is read", async () => {
    const { file, bytes } = example();
    await expect(
      compareSource(
        { files: [file], doc: "doc_id" },
        { systemColumn: "system", systems: ["bm25", "tfidf"], metrics: ["hit5"] },
        { ...settings, writeAggregates: file },
        io,
      ),
    ).rejects.toThrow(optionRef("writeAggregates"));
    expect(readFileSync(file)).toEqual(bytes);
    await expect(
      compareSource(
        { files: [file], doc: "doc_id" },
        { systemColumn: "system", systems: ["bm25"], metrics: ["hit5"] },
        settings,
        io,
      ),
    ).rejects.toThrow("a comparison needs two systems or more");
  });
});
