/**
 * docs/choosing-an-interval.md's "Paired micro candidates not adopted" quotes
 * bench/method-guide/paired-micro.json (written by bench/method-guide/pairedMicro.mjs): every
 * number it prints is recomputed here from the JSON, and what it says of them (no candidate
 * reaches 92% wherever cr2 does not) is checked over every cell.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FEWEST_DIFFERING_DOCUMENTS } from "../../src/core/diagnostics/differingDocuments.js";

const ROOT = join(import.meta.dirname, "../..");
interface Scored {
  coverage: number;
  truthAbove: number;
  truthBelow: number;
  widthOverCr2: number;
  coverageWhenEnoughDiffer: number | null;
  mcSeWhenEnoughDiffer: number | null;
}
interface Cell {
  k: number;
  fpc: boolean;
  samplesEnoughDiffer: number;
  methods: Record<string, Scored>;
}
const json = JSON.parse(
  readFileSync(join(ROOT, "bench/method-guide/paired-micro.json"), "utf8"),
) as {
  reps: number;
  replicates: number;
  fewestDiffering: number;
  results: Record<string, { cells: Cell[] }>;
};
const docs = readFileSync(join(ROOT, "docs/choosing-an-interval.md"), "utf8");
const start = docs.indexOf("- **Paired micro candidates not adopted.**");
const paragraph = docs.slice(start, docs.indexOf("\n- **", start + 1)).replace(/\s+/g, " ");

const pct = (x: number | null) => (100 * (x as number)).toFixed(1);
const at = (census: string, k: number, fpc: boolean) =>
  json.results[census]?.cells.find((c) => c.k === k && c.fpc === fpc) as Cell;
const m = (census: string, k: number, fpc: boolean, method: string) =>
  at(census, k, fpc).methods[method] as Scored;
const CANDIDATES = ["cv3-t", "cv3-cr2nu", "cv3-nu3", "hall-t-linearised", "bootstrap-t"];

describe("the paired micro study's paragraph quotes paired-micro.json", () => {
  it("the study is the one described", () => {
    expect(start).toBeGreaterThan(-1);
    expect(json.fewestDiffering).toBe(FEWEST_DIFFERING_DOCUMENTS);
    expect(json.reps).toBe(1000);
    expect(Object.keys(json.results)).toHaveLength(6);
    expect(paragraph).toContain(`at least ${json.fewestDiffering} documents differ`);
    expect(paragraph).toContain(`(B = ${json.replicates})`);
  });

  it("cr2's misses among the samples with enough differing documents", () => {
    const syn = at("paired-synthetic", 20, false);
    const par = at("paired-pareto", 20, false);
    expect(paragraph).toContain(
      `covered ${pct(syn.methods.cr2?.coverageWhenEnoughDiffer as number)}% and ${pct(par.methods.cr2?.coverageWhenEnoughDiffer as number)}% at K = 20 on the two generated censuses (${syn.samplesEnoughDiffer} and ${par.samplesEnoughDiffer} such samples of 1,000)`,
    );
    const ho = m("heldout-paired", 50, false, "cr2");
    const hoFpc = m("heldout-paired", 50, true, "cr2");
    expect(paragraph).toContain(
      `${pct(ho.coverageWhenEnoughDiffer)}% ± ${pct(ho.mcSeWhenEnoughDiffer)} (${pct(hoFpc.coverageWhenEnoughDiffer)}% ± ${pct(hoFpc.mcSeWhenEnoughDiffer)} with fpc) at K = 50 on the held-out`,
    );
    expect(ho.truthAbove).toBe(0);
    expect(paragraph).toContain(
      `below the interval in ${pct(ho.truthBelow)}% of all samples and above it in none`,
    );
  });

  it("the candidates' numbers", () => {
    const nu3 = m("heldout-paired", 50, false, "cv3-nu3");
    const nu3Fpc = m("heldout-paired", 50, true, "cv3-nu3");
    expect(paragraph).toContain(
      `covered ${pct(nu3.coverageWhenEnoughDiffer)}% ± ${pct(nu3.mcSeWhenEnoughDiffer)} (${pct(nu3Fpc.coverageWhenEnoughDiffer)}% ± ${pct(nu3Fpc.mcSeWhenEnoughDiffer)} with fpc) at K = 50 on the held-out census`,
    );
    expect(paragraph).toContain(
      `at ${nu3.widthOverCr2.toFixed(2)}× cr2's mean width there and ${m("paired-pareto", 50, false, "cv3-nu3").widthOverCr2.toFixed(2)}× on the power-law census at K = 50`,
    );
    const nu = m("heldout-paired", 50, false, "cv3-cr2nu");
    expect(paragraph).toContain(
      `cr2's ν covered ${pct(nu.coverageWhenEnoughDiffer)}% at ${nu.widthOverCr2.toFixed(2)}×`,
    );
    const t = m("heldout-paired", 50, false, "cv3-t");
    expect(t.widthOverCr2).toBeLessThan(1);
    expect(paragraph).toContain(
      `narrower than cr2 (${t.widthOverCr2.toFixed(2)}×) and covered ${pct(t.coverageWhenEnoughDiffer)}%`,
    );
    const hall = m("heldout-paired", 50, false, "hall-t-linearised");
    const boot = m("heldout-paired", 50, false, "bootstrap-t");
    expect(paragraph).toContain(
      `Hall's t (${pct(hall.coverageWhenEnoughDiffer)}%) and the bootstrap-t (${pct(boot.coverageWhenEnoughDiffer)}%, at ${boot.widthOverCr2.toFixed(2)}× the width)`,
    );
  });

  it("MOVER's range, and the switch to it where cr2's ν is small", () => {
    const recommended = Object.entries(json.results).flatMap(([census, r]) =>
      r.cells
        .filter((c) => c.k >= 10 && c.samplesEnoughDiffer > 0)
        .map((c) => ({ census, mover: c.methods["mover-logit-cv3"] as Scored })),
    );
    const range = (xs: number[], f: (x: number) => string) =>
      `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
    const coverages = recommended.map((x) => x.mover.coverageWhenEnoughDiffer as number);
    const whole = (x: number) => (x === 1 ? "100" : pct(x));
    expect(paragraph).toContain(
      `covered ${range(coverages, whole)}% of the samples compare recommends for in every cell at K ≥ 10`,
    );
    const generated = ["paired-synthetic", "paired-pareto", "heldout-paired"];
    const widths = (pick: (census: string) => boolean) =>
      range(
        recommended.filter((x) => pick(x.census)).map((x) => x.mover.widthOverCr2),
        (x) => x.toFixed(x >= 3 ? 1 : 2),
      );
    expect(paragraph).toContain(`at ${widths((c) => generated.includes(c))}× cr2's`);
    expect(paragraph).toContain(`On COVID-QA it costs ${widths((c) => c.startsWith("covidqa"))}×`);
    const below8 = m("heldout-paired", 50, false, "mover-below-nu-8");
    const below8Fpc = m("heldout-paired", 50, true, "mover-below-nu-8");
    expect(paragraph).toContain(
      `with ν < 8 it covered ${pct(below8.coverageWhenEnoughDiffer)}% ± ${pct(below8.mcSeWhenEnoughDiffer)} (${pct(below8Fpc.coverageWhenEnoughDiffer)}% with fpc) at K = 50 on the held-out census`,
    );
    const widthOf = (census: string, k: number) =>
      m(census, k, false, "mover-below-nu-8").widthOverCr2.toFixed(2);
    expect(paragraph).toContain(
      `at ${widthOf("covidqa-hit5", 20)}× cr2's mean width on COVID-QA hit@5 at K = 20, and ${widthOf("paired-synthetic", 50)}× and ${widthOf("paired-pareto", 50)}× on the two generated censuses at K = 50`,
    );
    const cr2There = [
      m("covidqa-hit5", 20, false, "cr2"),
      m("paired-synthetic", 50, false, "cr2"),
      m("paired-pareto", 50, false, "cr2"),
    ].map((x) => x.coverageWhenEnoughDiffer as number);
    expect(paragraph).toContain(`where cr2 already covered ${range(cr2There, pct)}%`);
    const below4 = m("heldout-paired", 50, false, "mover-below-nu-4");
    expect(paragraph).toContain(
      `with ν < 4 it covered ${pct(below4.coverageWhenEnoughDiffer)}% there`,
    );
  });

  it("no candidate reaches 92% in every cell where cr2 does not; cv3 with ν₃ comes closest", () => {
    const cells = Object.values(json.results)
      .flatMap((c) => c.cells)
      .filter((c) => c.k >= 10 && c.samplesEnoughDiffer >= 100);
    const failing = cells.filter((c) => (c.methods.cr2?.coverageWhenEnoughDiffer as number) < 0.92);
    expect(failing.length).toBeGreaterThan(0);
    const worst = (method: string) =>
      Math.min(...failing.map((c) => c.methods[method]?.coverageWhenEnoughDiffer as number));
    for (const method of CANDIDATES) expect(worst(method)).toBeLessThan(0.92);
    const best = CANDIDATES.reduce((a, b) => (worst(a) >= worst(b) ? a : b));
    expect(best).toBe("cv3-nu3");
    expect(pct(worst("cv3-nu3"))).toBe(
      pct(m("heldout-paired", 50, true, "cv3-nu3").coverageWhenEnoughDiffer),
    );
  });
});
