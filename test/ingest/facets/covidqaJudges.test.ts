import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FacetCells } from "../../../src/core/facets/facetCells.js";
import { readSource } from "../../../src/index.js";
import { scratchDir } from "../../cli/runCli.js";

const examples = join(import.meta.dirname, "../../../examples");
const JUDGES = "covidqa-judges.csv";

/** covidqa-retrieval.csv's rows: document, query, system and the gold chunk's rank (∞: none). */
function retrieval() {
  const [header, ...lines] = readFileSync(join(examples, "covidqa-retrieval.csv"), "utf8")
    .trim()
    .split("\n");
  const names = (header as string).split(",");
  return lines.map((line) => {
    const c = line.split(",");
    const rank = c[names.indexOf("rank")] as string;
    return {
      doc: c[names.indexOf("doc_id")] as string,
      query: c[names.indexOf("query_id")] as string,
      system: c[names.indexOf("system")] as string,
      rank: rank === "" ? Number.POSITIVE_INFINITY : Number(rank),
    };
  });
}

const CUTOFFS: Record<string, number> = { strict: 3, medium: 5, lenient: 10 };

describe("the COVID-QA judges example (examples/covidqa-judges.csv)", () => {
  it("is what its script writes from covidqa-retrieval.csv, byte for byte", () => {
    const dir = scratchDir();
    mkdirSync(join(dir, "examples"));
    for (const f of ["covidqa-retrieval.csv", "make-covidqa-judges.mjs"])
      copyFileSync(join(examples, f), join(dir, "examples", f));
    execFileSync(process.execPath, [join(dir, "examples/make-covidqa-judges.mjs")]);
    expect(readFileSync(join(dir, "examples", JUDGES), "utf8")).toBe(
      readFileSync(join(examples, JUDGES), "utf8"),
    );
  });

  it("gives 3 judges × 1,380 questions of cells per system, each the judge's verdict on the rank", async () => {
    const [read] = await readSource(
      { files: [join(examples, JUDGES)], judge: "judge" },
      { systemColumn: "system", metrics: ["found"] },
      { read: "tables" },
    );
    const rows = retrieval();
    for (const system of ["bm25", "tfidf"]) {
      const cells = read?.cells?.find((c) => c.system === system)?.cells as FacetCells;
      const mine = rows.filter((r) => r.system === system);
      expect(cells.n.length).toBe(3 * mine.length);
      expect(cells.labels.judges).toEqual(["lenient", "medium", "strict"]);
      expect(new Set(cells.n)).toEqual(new Set([1]));
      expect(new Set(cells.withinSumOfSquares)).toEqual(new Set([0]));
      // Each judge's hits per document, from the cells and from the ranks.
      const fromCells = new Map<string, number>();
      for (let i = 0; i < cells.n.length; i++) {
        const key = `${cells.labels.documents[cells.document[i] as number]}|${cells.labels.judges?.[cells.judge?.[i] as number]}`;
        fromCells.set(key, (fromCells.get(key) ?? 0) + (cells.sum[i] as number));
      }
      const fromRanks = new Map<string, number>();
      for (const r of mine)
        for (const [judge, cutoff] of Object.entries(CUTOFFS)) {
          const key = `${r.doc}|${judge}`;
          fromRanks.set(key, (fromRanks.get(key) ?? 0) + (r.rank <= cutoff ? 1 : 0));
        }
      expect(fromCells).toEqual(fromRanks);
      expect(cells.labels.documents.length).toBe(new Set(mine.map((r) => r.doc)).size);
    }
    // Every question has all three judges: no missing cell, so no notice of one.
    expect(read?.table.notices.join("\n")).not.toContain("cells have no result");
    expect(read?.table.notices).toContain(
      `${join(examples, JUDGES)}: each query's result is its mean over 3 judges (column judge: lenient, medium, strict); the per-document intervals are for these judges (fixed)`,
    );
    expect(read?.description.format).toBe("csv");
    expect(read?.description.rows).toBe(8280);
  });

  it("the per-document path reads each question's mean over the three judges", async () => {
    const [read] = await readSource(
      { files: [join(examples, JUDGES)], judge: "judge" },
      { systemColumn: "system", metrics: ["found"] },
      { read: "tables" },
    );
    const stats = read?.table.groups.find((g) => g.system === "bm25")?.stats;
    const perDoc = new Map<string, [number, number]>();
    for (const r of retrieval().filter((x) => x.system === "bm25")) {
      const verdicts = Object.values(CUTOFFS).map((c) => (r.rank <= c ? 1 : 0));
      const [n, s] = perDoc.get(r.doc) ?? [0, 0];
      perDoc.set(r.doc, [n + 1, s + verdicts.reduce((a: number, b) => a + b, 0) / 3]);
    }
    expect(stats?.ids.length).toBe(perDoc.size);
    stats?.ids.forEach((id, d) => {
      expect(stats.n[d]).toBe(perDoc.get(id)?.[0]);
      expect(Math.abs((stats.s[d] as number) - (perDoc.get(id)?.[1] as number))).toBeLessThan(
        1e-12,
      );
    });
  });
});
