import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE, ragci, scratchDir } from "./runCli.js";

const dir = scratchDir();
const census = join(dir, "census.csv");
const lines = ["doc,n,s"];
for (let d = 0; d < 200; d++) {
  const n = d < 20 ? 80 + d : 1 + (d % 15);
  lines.push(`d${String(d).padStart(3, "0")},${n},${Math.floor((n * ((d * 37) % 100)) / 100)}`);
}
writeFileSync(census, `${lines.join("\n")}\n`);

/** Options for the bundled example: hit@5, K = 30. */
const EXAMPLE_HIT5_30 = ["--doc", "doc_id", "--metric", "hit5", "--documents", "30"];

describe("ragci strata", () => {
  it("--write-design writes the design file that analyzes the labelled sample as drawn", () => {
    const sample = join(dir, "design-sample.csv");
    const designFile = join(dir, "strata.design.json");
    const r = ragci(
      ["strata", EXAMPLE, "--doc", "doc_id", "--metric", "hit5", "--system", "system=bm25"].concat([
        "--documents",
        "20",
        "--write-sample",
        sample,
        "--write-design",
        designFile,
        "--json",
      ]),
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.designFile).toBe(designFile);
    const written = JSON.parse(readFileSync(designFile, "utf8"));
    // M_h are the strata's census counts, under the names the sample's stratum column uses.
    expect(written.design).toBe("stratified");
    expect(written.strata).toEqual(
      Object.fromEntries(
        out.strata.map((h: { name: string; documents: number }) => [h.name, h.documents]),
      ),
    );
    // The sample labelled from the census's rows, analysed with the file as written.
    const strata = new Map(
      readFileSync(sample, "utf8")
        .trim()
        .split("\n")
        .slice(1)
        .map((line) => line.split(",") as [string, string]),
    );
    const labelled = ["doc_id,hit5,stratum"];
    for (const line of readFileSync(EXAMPLE, "utf8").trim().split("\n").slice(1)) {
      const [doc, , system, , , hit5] = line.split(",");
      const stratum = strata.get(doc as string);
      if (system === "bm25" && stratum) labelled.push(`${doc},${hit5},${stratum}`);
    }
    const labelledFile = join(dir, "labelled.csv");
    writeFileSync(labelledFile, `${labelled.join("\n")}\n`);
    const analysis = ragci(
      [
        "analyze",
        labelledFile,
        "--doc",
        "doc_id",
        "--metric",
        "hit5",
        "--design",
        designFile,
      ].concat(["--replicates", "0", "--json"]),
    );
    expect(analysis.stderr).toBe("");
    const analysed = JSON.parse(analysis.stdout);
    expect(analysed.analyses[0].design.kind).toBe("stratified");
    expect(analysed.analyses[0].micro.recommended).toBe("stratified");
    expect(analysed.analyses[0].design.detail.strata.large.population).toBe(written.strata.large);
    expect(analysed.analyses[0].documents).toBe(20);
  });

  it("takes a document larger than every other as a stratum of its own, whole", () => {
    const giant = join(dir, "giant.csv");
    const rows = ["doc,n,s", "giant,3000,900"];
    for (let d = 0; d < 99; d++)
      rows.push(`d${d},${3 + (d % 18)},${Math.floor((3 + (d % 18)) * 0.7)}`);
    writeFileSync(giant, `${rows.join("\n")}\n`);
    const r = ragci(["strata", giant, "--aggregated", "--documents", "10"]);
    expect(r.code).toBe(0);
    const text = r.stdout.replace(/\s+/g, " ");
    expect(text).toContain("1 document has more than 20 results and holds");
    expect(text).toContain(
      "The large stratum holds one document, which every allocation takes whole (a certainty stratum): it is in every sample and adds no sampling variance; the design's ν is K − 2 = 8.",
    );
    const page = join(dir, "giant.html");
    expect(ragci(["strata", giant, "--aggregated", "--documents", "10", "--html", page]).code).toBe(
      0,
    );
    expect(readFileSync(page, "utf8")).toMatch(
      /large 1 document \(taken whole\) holding \d+% of the results/,
    );
    const plan = ragci(
      ["plan", giant, "--aggregated", "--census", "--cutoff", "20"].concat([
        "--half-width",
        "0.05",
      ]),
    );
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain("large 1 document, taken whole");
    const study = ragci(
      ["simulate", giant, "--aggregated", "--sampling", "stratified", "--cutoff", "20"].concat([
        "--k",
        "10",
        "--reps",
        "50",
        "--replicates",
        "0",
      ]),
    );
    expect(study.code).toBe(0);
    expect(study.stdout).toContain("large 1 of 1, small 9 of 99");
  });

  it("with --cutoff 76 counts the large documents and their share of results, and predicts se per allocation", () => {
    const r = ragci([
      "strata",
      census,
      "--aggregated",
      "--documents",
      "20",
      "--cutoff",
      "76",
      "--json",
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.strata).toEqual([
      { name: "large", documents: 20 },
      { name: "small", documents: 180 },
    ]);
    expect(
      out.allocations.map((a: { rule: string; estimand: string | null }) => [a.rule, a.estimand]),
    ).toEqual([
      ["equal", null],
      ["proportional", null],
      ["neyman", "micro"],
      ["neyman", "macro"],
    ]);
    expect(out.allocations[0].sampled).toEqual({ large: 10, small: 10 });
    // proportional: 20·20/200 = 2 large, 18 small
    expect(out.allocations[1].sampled).toEqual({ large: 2, small: 18 });
    // Stratifying by size helps micro: Neyman beats SRS.
    expect(out.allocations[2].predicted.micro).toBeLessThan(out.srs.micro);
  });

  it("Neyman allocates on each estimand's own S_h, as plan --cutoff does (COVID-QA BM25, K = 30, cutoff 20)", () => {
    const r = ragci([
      "strata",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system=bm25",
      "--documents",
      "30",
      "--cutoff",
      "20",
      "--json",
    ]);
    const out = JSON.parse(r.stdout);
    const neyman = (estimand: string) =>
      out.allocations.find(
        (a: { rule: string; estimand: string | null }) =>
          a.rule === "neyman" && a.estimand === estimand,
      );
    // The planning code's stratified plan at K = 30 (issue 13's figures): 4 + 26, macro se 0.0382.
    expect(neyman("macro").sampled).toEqual({ large: 4, small: 26 });
    expect(neyman("macro").predicted.macro).toBeCloseTo(0.0382, 4);
    expect(neyman("micro").sampled).toEqual({ large: 14, small: 16 });
    expect(neyman("macro").predicted.macro).toBeLessThan(neyman("micro").predicted.macro);
    expect(neyman("micro").predicted.micro).toBeLessThan(neyman("macro").predicted.micro);
  });

  it("proposes a cutoff when none is given", () => {
    const out = JSON.parse(
      ragci(["strata", census, "--aggregated", "--documents", "20", "--json"]).stdout,
    );
    expect(out.cutoffProposed).toBe(true);
    expect(out.strata.every((h: { documents: number }) => h.documents >= 2)).toBe(true);
  });

  it("writes a seeded sample with the allocation's counts, the same for the same seed", () => {
    const a = join(dir, "a.csv");
    const b = join(dir, "b.csv");
    for (const target of [a, b]) {
      expect(
        ragci([
          "strata",
          census,
          "--aggregated",
          "--documents",
          "20",
          "--cutoff",
          "76",
          "--allocation",
          "equal",
          "--write-sample",
          target,
          "--seed",
          "3",
        ]).code,
      ).toBe(0);
    }
    const rows = readFileSync(a, "utf8").trim().split("\n").slice(1);
    expect(rows).toHaveLength(20);
    expect(rows.filter((r) => r.endsWith(",large"))).toHaveLength(10);
    expect(new Set(rows).size).toBe(20);
    expect(readFileSync(b, "utf8")).toBe(readFileSync(a, "utf8"));
  });

  it("--system uses one system's rows: the same as a file holding only those rows", () => {
    const [header, ...rows] = readFileSync(EXAMPLE, "utf8").replace(/\r/g, "").trim().split("\n");
    const only = join(dir, "bm25.csv");
    writeFileSync(
      only,
      `${[header, ...rows.filter((r) => r.split(",")[2] === "bm25")].join("\n")}\n`,
    );
    const common = [...EXAMPLE_HIT5_30, "--cutoff", "20", "--json"];
    const filtered = ragci(["strata", EXAMPLE, "--system", "system=bm25", ...common]);
    const alone = ragci(["strata", only, ...common]);
    expect(filtered.stderr).toBe("");
    expect(filtered.code).toBe(0);
    expect(alone.code).toBe(0);
    const a = JSON.parse(filtered.stdout);
    const b = JSON.parse(alone.stdout);
    expect(a.population).toBe(98);
    expect(a.allocations).toEqual(b.allocations);
    expect(a.srs).toEqual(b.srs);
    expect(a.strata).toEqual(b.strata);
    const tfidf = JSON.parse(
      ragci(["strata", EXAMPLE, "--system", "system=tfidf", ...common]).stdout,
    );
    expect(tfidf.srs.micro).not.toBe(a.srs.micro);
    const terminal = ragci(["strata", EXAMPLE, "--system", "system=bm25", ...common.slice(0, -1)]);
    expect(terminal.stdout).toMatch(
      /^ragci strata .*covidqa-retrieval\.csv · system bm25 · census of 98 documents/,
    );
  });

  it.each([
    [
      [],
      /2 systems in column system \(bm25, tfidf\); strata uses one: pick it with --system system=bm25/,
    ],
    [["--system", "system=bm26"], /no system "bm26" in column system \(found bm25, tfidf\)/],
    [["--system", "bm25"], /no system column "bm25"; the columns are doc_id/],
  ])(
    "a file of several systems without a valid --system %j is one line and exit code 2",
    (extra, message) => {
      const r = ragci(["strata", EXAMPLE, ...EXAMPLE_HIT5_30, ...extra]);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.code).toBe(2);
    },
  );

  it("rejects K outside [4, M] with one line and exit code 2", () => {
    const r = ragci(["strata", census, "--aggregated", "--documents", "500"]);
    expect(r.stderr).toMatch(/--documents 500: give between 4 and the census's 200 documents/);
    expect(r.code).toBe(2);
  });
});
