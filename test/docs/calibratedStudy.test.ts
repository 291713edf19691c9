/**
 * docs/choosing-an-interval.md's "A calibrated logit-cv3" quotes bench/method-guide/calibrated.json
 * (written by bench/method-guide/calibrated.mjs): its K = 20 tables and every number its
 * conclusion quotes are recomputed here from the JSON.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
interface Scored {
  coverage: number;
  mcse: number;
  meanWidth: number | null;
  widthOverCr2: number | null;
  medianWidthOverCr2: number | null;
}
interface Cell {
  census: string;
  k: number;
  fpc: boolean;
  reps: number;
  cpuSeconds: number;
  methods: Record<string, Scored>;
}
const json = JSON.parse(readFileSync(join(ROOT, "bench/method-guide/calibrated.json"), "utf8")) as {
  censuses: { name: string; label: string }[];
  cells: Cell[];
  timing?: { oneLevelMs: number; twoLevelMs: number; logitCv3Ms: number; analyzeB9999Ms: number };
};
const docs = readFileSync(join(ROOT, "docs/choosing-an-interval.md"), "utf8");
const section = docs.slice(docs.indexOf("## A calibrated logit-cv3"));
const generated = section.slice(
  section.indexOf("<!-- calibrated-guide:start -->"),
  section.indexOf("<!-- calibrated-guide:end -->"),
);
const conclusion = section.slice(section.indexOf("<!-- calibrated-guide:end -->"));

const pct = (x: number) => (100 * x).toFixed(1);
const at = (census: string, k: number, fpc: boolean) =>
  json.cells.find((c) => c.census === census && c.k === k && c.fpc === fpc) as Cell;

describe("the calibrated logit-cv3 tables are calibrated.json's", () => {
  const ROWS: Record<string, string> = {
    "`cr2`": "cr2",
    "`logit`": "logit",
    "`logit-cv3`": "logit-cv3",
    "`logit-cv3`, level calibrated (one level, B = 999)": "calibrated-1",
    "`logit-cv3`, level calibrated (two levels, 199 × 99)": "calibrated-2",
  };
  it.each([false, true])("K = 20, fpc %s: coverage ± MC se (width over cr2's)", (fpc) => {
    const lines = generated.split("\n");
    const head = lines.findIndex((l) => l.startsWith(`| micro at K = 20${fpc ? ", fpc" : ""} |`));
    expect(head).toBeGreaterThan(-1);
    let checked = 0;
    for (const line of lines.slice(head + 2)) {
      if (!line.startsWith("|")) break;
      const [label, ...cells] = line.split(" | ").map((x) => x.replace(/^\| |\s*\|$/g, ""));
      const method = ROWS[label as string];
      if (!method) continue;
      json.censuses.forEach((c, i) => {
        const m = at(c.name, 20, fpc).methods[method] as Scored;
        expect(cells[i]).toBe(
          `${pct(m.coverage)} ± ${pct(m.mcse)} (${(m.widthOverCr2 as number).toFixed(2)})`,
        );
        checked++;
      });
    }
    expect(checked).toBe(5 * json.censuses.length);
  });
});

/** The conclusion's numbers, each as the docs print it, recomputed from the JSON. */
const atK20 = (census: string, method: string, fpc = false) =>
  at(census, 20, fpc).methods[method] as Scored;
const studied = json.cells.filter((c) => c.k >= 10 && c.census !== "pareto");
const lowest = (method: string) =>
  Math.min(...studied.map((c) => (c.methods[method] as Scored).coverage));
const meanGap = (method: string) =>
  studied.reduce((a, c) => a + Math.abs((c.methods[method] as Scored).coverage - 0.95), 0) /
  studied.length;
const widthOverLogitCv3 = (method: string) =>
  studied.reduce(
    (a, c) =>
      a +
      ((c.methods[method] as Scored).meanWidth as number) /
        ((c.methods["logit-cv3"] as Scored).meanWidth as number),
    0,
  ) / studied.length;

const coverageSe = (m: Scored) => `${pct(m.coverage)}% ± ${pct(m.mcse)}`;
const QUOTED: [string, () => string][] = [
  // K = 20, the bundled census, where logit-cv3 over-covers.
  ["synthetic logit-cv3", () => coverageSe(atK20("synthetic", "logit-cv3"))],
  [
    "synthetic logit-cv3 width",
    () => `${atK20("synthetic", "logit-cv3").widthOverCr2?.toFixed(2)}×`,
  ],
  ["synthetic one level", () => coverageSe(atK20("synthetic", "calibrated-1"))],
  [
    "synthetic one-level width",
    () => `${atK20("synthetic", "calibrated-1").widthOverCr2?.toFixed(2)}×`,
  ],
  ["synthetic two levels", () => coverageSe(atK20("synthetic", "calibrated-2"))],
  [
    "synthetic two-level width",
    () => `${atK20("synthetic", "calibrated-2").widthOverCr2?.toFixed(2)}×`,
  ],
  // K = 20, the heavy tail, where logit-cv3 holds.
  ["heavy logit-cv3", () => coverageSe(atK20("heavy", "logit-cv3"))],
  ["heavy one level", () => coverageSe(atK20("heavy", "calibrated-1"))],
  ["heavy two levels", () => coverageSe(atK20("heavy", "calibrated-2"))],
  // K = 50, the heavier tail, where logit-cv3 falls short and the calibration helps.
  [
    "heavier K = 50 logit-cv3",
    () => coverageSe(at("heavier", 50, false).methods["logit-cv3"] as Scored),
  ],
  [
    "heavier K = 50 calibrated",
    () =>
      `${pct((at("heavier", 50, false).methods["logit-cv3"] as Scored).coverage)}% → ${pct((at("heavier", 50, false).methods["calibrated-1"] as Scored).coverage)}% and ${pct((at("heavier", 50, false).methods["calibrated-2"] as Scored).coverage)}%`,
  ],
  [
    "heavier K = 50 logit-cv3 with the fpc",
    () => `${coverageSe(at("heavier", 50, true).methods["logit-cv3"] as Scored)} with the fpc`,
  ],
  [
    "CPU of the study",
    () => `${(json.cells.reduce((a, c) => a + c.cpuSeconds, 0) / 60).toFixed(0)} minutes of CPU`,
  ],
  // The same cell in the method guide's 2,000-repetition study.
  [
    "heavier K = 50 logit-cv3, method guide",
    () => {
      const guide = JSON.parse(
        readFileSync(join(ROOT, "bench/method-guide/results.json"), "utf8"),
      ).heavier.studies.find((s: { k: number }) => s.k === 50).methods["micro/logit-cv3"];
      return `${coverageSe(guide)} in the 2,000-repetition study`;
    },
  ],
  // Over every cell at K ≥ 10 but the power-law census's.
  ...(["logit-cv3", "calibrated-1", "calibrated-2"] as const).flatMap(
    (m): [string, () => string][] => [
      [`lowest ${m}`, () => `lowest ${pct(lowest(m))}%`],
      [`mean gap ${m}`, () => `mean |coverage − 95| ${(100 * meanGap(m)).toFixed(2)} points`],
    ],
  ),
  ...(["calibrated-1", "calibrated-2"] as const).map((m): [string, () => string] => [
    `width ${m}`,
    () => `${widthOverLogitCv3(m).toFixed(2)}× the mean width of logit-cv3`,
  ]),
];

describe("the conclusion quotes the study", () => {
  it.each(QUOTED)("%s", (_what, quote) => {
    // The number as the JSON gives it, written into the conclusion as it is.
    expect(conclusion).toContain(quote());
  });
  it("the timing quoted is calibrated.json's", () => {
    const timing = json.timing as NonNullable<typeof json.timing>;
    expect(conclusion).toContain(`${timing.oneLevelMs.toFixed(1)} ms`);
    expect(conclusion).toContain(`${timing.twoLevelMs.toFixed(0)} ms`);
  });
});
