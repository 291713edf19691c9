import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METHODS, type MethodId } from "../../src/core/methods.js";
import { degreesOfFreedom, fixed, percent, pValue, significant } from "../../src/report/format.js";
import { COLORS } from "../../src/report/html/svgFigure.js";
import { groupLetters } from "../../src/report/html/systemEstimatesFigure.js";
import { csvOf, METRIC_COLUMNS, readCovidqa } from "../support/covidqaGatePairs.js";
import {
  ARTIFACTS,
  type FigureFacts,
  figureFacts,
  launchChromium,
  layoutFacts,
  openReport,
  screenshot,
  textsOutsideFigures,
} from "./browserPage.js";
import { analysisOf, comparisonOf, EXAMPLE, ROOT, ragci, scratchDir } from "./runCli.js";

const CENSUS = join(ROOT, "examples/synthetic-census.csv");
let browser: Browser;
const dir = scratchDir();

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** plan --json (v2): the plan of one estimand. */
const estimandOf = (out: any, estimand: string) =>
  out.estimands.find((e: { estimand: string }) => e.estimand === estimand);

/** Runs a command with --json and --html: the JSON on stdout, the page in the scratch dir. */
function run(name: string, args: readonly string[]): { json: any; html: string; file: string } {
  const file = join(dir, `${name}.html`);
  const result = ragci([...args, "--json", "--html", file]);
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return { json: JSON.parse(result.stdout), html: readFileSync(file, "utf8"), file };
}

/** The page loads with no console error and no request but itself; every figure is drawn. */
async function checkPage(
  name: string,
  file: string,
): Promise<{ page: Page; figures: FigureFacts[] }> {
  const { page, foreignRequests, errors } = await openReport(browser, file);
  expect(foreignRequests).toEqual([]);
  expect(errors).toEqual([]);
  expect(await page.$$("script")).toHaveLength(0);
  const figures = await figureFacts(page);
  expect(figures.length).toBeGreaterThan(0);
  for (const f of figures) {
    expect(f.width, f.id).toBeGreaterThan(100);
    expect(f.height, f.id).toBeGreaterThan(50);
    expect(f.title, f.id).not.toBe("");
    expect(f.labelledBy, f.id).toBe(f.title);
    expect(f.desc.length, f.id).toBeGreaterThan(40);
    expect(f.caption.length, f.id).toBeGreaterThan(20);
    expect(f.texts, `${f.id}: labels are <text>, not paths`).toBeGreaterThan(3);
    expect(
      Object.values(f.marks).reduce((t, k) => t + k, 0),
      `${f.id}: marks`,
    ).toBeGreaterThan(0);
  }
  expect(await page.content(), "core's option names become flags").not.toMatch(/`[A-Za-z]+`/);
  expect(await textsOutsideFigures(page), "labels cut off at a figure's edge").toEqual([]);
  await screenshot(page, name);
  await checkNarrowAndPrint(name, file);
  return { page, figures };
}

/** A4 at 12 mm side margins is 186 mm of line, 703 CSS px. */
const A4_LINE_PX = 703;

/**
 * On a 375 px phone the page itself never scrolls sideways, no number or interval is broken
 * over lines, a figure wider than the screen scrolls inside its own box and its labels stay
 * at least 9 px; printed on A4 the same holds at the page's width, and the PDF is written.
 */
async function checkNarrowAndPrint(name: string, file: string): Promise<void> {
  const { page } = await openReport(browser, file, { width: 375, height: 800 });
  const narrow = await layoutFacts(page);
  expect(narrow.scrollWidth, `${name}: page width on a phone`).toBeLessThanOrEqual(375);
  expect(narrow.brokenNumbers, `${name}: numbers split over lines on a phone`).toEqual([]);
  expect(narrow.unscrollableFigures, `${name}: figures cut off on a phone`).toEqual([]);
  expect(narrow.smallestLabelPx, `${name}: figure labels on a phone`).toBeGreaterThanOrEqual(9);
  await screenshot(page, `${name}-narrow`);
  await page.emulateMedia({ media: "print" });
  await page.setViewportSize({ width: A4_LINE_PX, height: 1000 });
  const printed = await layoutFacts(page);
  expect(printed.scrollWidth, `${name}: printed width`).toBeLessThanOrEqual(A4_LINE_PX);
  expect(printed.brokenNumbers, `${name}: numbers split over lines in print`).toEqual([]);
  expect(printed.smallestLabelPx, `${name}: figure labels in print`).toBeGreaterThanOrEqual(9);
  const pdf = await page.pdf({ format: "A4", path: join(ARTIFACTS, `${name}.pdf`) });
  expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
  expect(pdf.toString("latin1").match(/\/Type\s*\/Page\b/g)?.length ?? 0).toBeGreaterThan(0);
  await page.close();
}

/** The text of every <text> of a figure's mark (Plot's aria-label: "text", "rule" …). */
const markTexts = (page: Page, figure: string, mark = "text") =>
  page.$$eval(`#${figure} svg g[aria-label="${mark}"] text`, (t) =>
    t.map((x) => x.textContent ?? ""),
  );

/** The stroke of every line of a figure's rule marks (a constant one is on the mark's g). */
const ruleStrokes = (page: Page, figure: string) =>
  page.$$eval(`#${figure} svg g[aria-label="rule"] line`, (l) =>
    l.map((x) => x.getAttribute("stroke") ?? x.parentElement?.getAttribute("stroke") ?? ""),
  );

const text = (page: Page, selector: string) =>
  page.$eval(selector, (e) => e.textContent?.trim() ?? "");

/** The value as the page printed it: the same digits as the text shows. */
function sameAs(shown: string, value: number): string {
  return fixed(value, shown.split(".")[1]?.length ?? 0);
}

describe("analyze --html", () => {
  let json: any;
  let html: string;
  let file: string;
  beforeAll(() => {
    ({ json, html, file } = run("analyze", [
      "analyze",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system",
      "--replicates",
      "999",
    ]));
  });

  it("loads with no request and no console error; every figure is an SVG with marks, title and text alternative", async () => {
    const { figures } = await checkPage("analyze", file);
    // Three figures per system: sizes, intervals, rates.
    expect(figures.map((f) => f.id)).toEqual([
      "a1-sizes",
      "a1-intervals",
      "a1-rates",
      "a2-sizes",
      "a2-intervals",
      "a2-rates",
    ]);
  });

  it("shows the JSON's estimates, intervals, ν and methods, formatted as the page formats them", async () => {
    const { page } = await openReport(browser, file);
    for (const system of ["bm25", "tfidf"]) {
      for (const estimand of ["micro", "macro"] as const) {
        const e = analysisOf(json, system, "hit5")[estimand];
        const interval = e.intervals[e.recommended];
        const cell = (field: string) =>
          text(
            page,
            `table[data-table="estimates"][data-system="${system}"] tr[data-estimand="${estimand}"] td[data-field="${field}"]`,
          );
        const estimate = await cell("estimate");
        expect(estimate).toBe(sameAs(estimate, e.estimate));
        expect(estimate.split(".")[1]?.length).toBeGreaterThanOrEqual(3);
        expect(await cell("lower")).toBe(sameAs(await cell("lower"), interval.lower));
        expect(await cell("upper")).toBe(sameAs(await cell("upper"), interval.upper));
        expect(await cell("df")).toBe(degreesOfFreedom(interval.df));
        expect(await cell("method")).toBe(e.recommended);
        const overview = await text(
          page,
          `table[data-table="overview"] tr[data-system="${system}"] td[data-field="${estimand}-estimate"]`,
        );
        expect(overview).toBe(estimate);
      }
    }
  });

  it("draws one interval row per method of the JSON, and states the shares the diagnostics report", async () => {
    const { page } = await openReport(browser, file);
    const figures = await figureFacts(page);
    const d = analysisOf(json, "bm25", "hit5").diagnostics;
    const intervals = figures.find((f) => f.id === "a1-intervals") as FigureFacts;
    const methods = ["micro", "macro"].flatMap((e) =>
      Object.values(analysisOf(json, "bm25", "hit5")[e].intervals),
    );
    const available = methods.filter((i: any) => i.available).length;
    expect(intervals.marks.dot).toBe(available);
    const caption = await text(page, "#a1-sizes figcaption");
    expect(caption).toContain(`the largest tenth) hold ${percent(d.sizes.shareLargestDecile)}`);
    const rates = await text(page, "#a1-rates figcaption");
    expect(rates).toContain(
      `${percent(d.rates.fractionZero, 1)} of documents are at exactly 0 and ${percent(d.rates.fractionOne, 1)} at exactly 1`,
    );
    const body = await text(page, "body");
    expect(body).toContain(`Kish DEFF ${significant(d.deff)}`);
  });

  it("embeds the aggregates as a data: URL whose SHA-256 is shown, and re-running from it reproduces the digests", async () => {
    const { page } = await openReport(browser, file);
    const href = await page.$eval("a.download", (a) => a.getAttribute("href") ?? "");
    const csv = Buffer.from(href.replace(/^data:text\/csv;charset=utf-8;base64,/, ""), "base64");
    const digest = createHash("sha256").update(csv).digest("hex");
    expect(await text(page, '[data-field="csv-sha256"]')).toBe(digest);
    const input = await text(page, 'table[data-table="inputs"] td[data-field="sha256"]');
    expect(input).toBe(json.inputs[0].sha256);
    const saved = join(dir, "analyze-aggregates.csv");
    writeFileSync(saved, csv);
    const rerun = ragci([
      "analyze",
      saved,
      "--aggregated",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--json",
      "--replicates",
      "0",
    ]);
    expect(rerun.code).toBe(0);
    const again = JSON.parse(rerun.stdout);
    for (const system of ["bm25", "tfidf"]) {
      expect(analysisOf(again, system, "hit5").aggregatesSha256).toBe(
        analysisOf(json, system, "hit5").aggregatesSha256,
      );
      expect(html).toContain(analysisOf(json, system, "hit5").aggregatesSha256);
    }
  });

  it("marks micro and macro on the rates, the exact 0s and 1s, the largest documents' share, and every interval's ν, recommended first and contrasts grey", async () => {
    const { page } = await openReport(browser, file);
    const bm25 = analysisOf(json, "bm25", "hit5");
    const decimals = Number(
      (
        await text(
          page,
          'table[data-system="bm25"] tr[data-estimand="micro"] td[data-field="estimate"]',
        )
      ).split(".")[1]?.length,
    );
    const rateLabels = await markTexts(page, "a1-rates");
    for (const e of ["micro", "macro"])
      expect(rateLabels).toContain(`${e} ${fixed(bm25[e].estimate, decimals)}`);
    const r = bm25.diagnostics.rates;
    expect(rateLabels).toContain(`${Math.round(r.fractionZero * bm25.documents)} at 0`);
    expect(rateLabels).toContain(`${Math.round(r.fractionOne * bm25.documents)} at 1`);
    expect(await ruleStrokes(page, "a1-rates")).toEqual(
      expect.arrayContaining([COLORS.accent, COLORS.second]),
    );
    const sizes = bm25.diagnostics.sizes;
    expect(await markTexts(page, "a1-sizes")).toContain(
      `dark: the ${sizes.largestDecileDocuments} largest documents, ${percent(sizes.shareLargestDecile)} of all results`,
    );
    // The interval figure: one y row per method; each estimand's first row is its recommended
    // interval; ν beside each interval with a t quantile; the contrasts' lines grey.
    const rows = await markTexts(page, "a1-intervals", "y-axis tick label");
    for (const e of ["micro", "macro"]) {
      const own = rows.filter((l) => l.startsWith(`${e} · `));
      expect(own[0]).toBe(`${e} · ${bm25[e].recommended} (recommended)`);
      expect(own).toHaveLength(Object.keys(bm25[e].intervals).length);
    }
    const sideLabels = await markTexts(page, "a1-intervals");
    const all = ["micro", "macro"].flatMap((e) =>
      Object.entries(bm25[e].intervals).map(([m, i]: [string, any]) => ({ m: m as MethodId, i })),
    );
    for (const { i } of all.filter(({ i }) => i.available && i.df !== null && i.q !== null))
      expect(sideLabels).toContain(`ν = ${degreesOfFreedom(i.df)}`);
    const strokes = await ruleStrokes(page, "a1-intervals");
    const contrasts = all.filter(({ m, i }) => i.available && METHODS[m].contrast).length;
    expect(contrasts).toBeGreaterThan(0);
    expect(strokes.filter((c) => c === COLORS.muted)).toHaveLength(contrasts);
    expect(strokes.filter((c) => c === COLORS.accent)).toHaveLength(2);
  });
});

describe("compare --html", () => {
  it("two systems: the difference table equals the JSON, one circle per document, ties counted", async () => {
    const { json: report, file } = run("compare", [
      "compare",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--replicates",
      "999",
    ]);
    const json = comparisonOf(report, "hit5");
    const { page, figures } = await checkPage("compare", file);
    for (const estimand of ["micro", "macro"] as const) {
      const test = json.tests[estimand];
      const cell = (field: string) =>
        text(
          page,
          `table[data-table="difference"] tr[data-estimand="${estimand}"] td[data-field="${field}"]`,
        );
      const estimate = await cell("estimate");
      expect(estimate).toBe(sameAs(estimate, json.difference[estimand].estimate));
      expect(await cell("lower")).toBe(sameAs(await cell("lower"), test.lower));
      expect(await cell("upper")).toBe(sameAs(await cell("upper"), test.upper));
      expect(await cell("df")).toBe(degreesOfFreedom(test.df));
      expect(await cell("p")).toBe(pValue(test.p));
      expect(await cell("a")).toBe(fixed(json.a[estimand].estimate, 3));
    }
    const docs = figures.find((f) => f.id === "m1-c1-docs") as FigureFacts;
    expect(docs.marks.dot).toBe(json.difference.documents);
    const ties = Math.round(json.ties * json.difference.documents);
    expect(ties).toBeGreaterThan(0);
    expect(await text(page, "#m1-c1-docs figcaption")).toContain(
      `${ties} ties (${percent(json.ties)})`,
    );
    // Ties are the hollow rings, one per tied document, all on x = 0; the dots' size is the
    // document's number of queries, so the radii differ.
    const circles = await page.$$eval("#m1-c1-docs svg g[aria-label='dot'] circle", (c) =>
      c.map((x) => ({
        fill: x.getAttribute("fill") ?? x.parentElement?.getAttribute("fill") ?? "",
        cx: x.getAttribute("cx"),
        r: Number(x.getAttribute("r")),
      })),
    );
    const rings = circles.filter((c) => c.fill === "none");
    expect(rings).toHaveLength(ties);
    expect(new Set(rings.map((c) => c.cx)).size).toBe(1);
    expect(new Set(circles.map((c) => c.r)).size).toBeGreaterThan(3);
    expect(await markTexts(page, "m1-c1-rates")).toContain(`${ties} ties at 0`);
  });

  it("two systems: re-running compare on the embedded aggregates gives the page's differences", async () => {
    const { json: report, file } = run("compare-rerun", [
      "compare",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--replicates",
      "0",
    ]);
    const json = comparisonOf(report, "hit5");
    const { page } = await openReport(browser, file);
    const href = await page.$eval("a.download", (a) => a.getAttribute("href") ?? "");
    const csv = Buffer.from(href.replace(/^data:text\/csv;charset=utf-8;base64,/, ""), "base64");
    expect(await text(page, '[data-field="csv-sha256"]')).toBe(
      createHash("sha256").update(csv).digest("hex"),
    );
    const saved = join(dir, "compare-aggregates.csv");
    writeFileSync(saved, csv);
    const rerun = ragci([
      "compare",
      saved,
      "--aggregated",
      "--metric",
      "hit5",
      "--json",
      "--replicates",
      "0",
    ]);
    expect(rerun.stderr).toBe("");
    const again = comparisonOf(JSON.parse(rerun.stdout), "hit5");
    for (const e of ["micro", "macro"]) {
      expect(again.difference[e].estimate).toBe(json.difference[e].estimate);
      expect(again.tests[e].lower).toBe(json.tests[e].lower);
      expect(again.tests[e].upper).toBe(json.tests[e].upper);
    }
    await page.close();
  });

  it("more than two systems: each system's interval with tie-group letters, Holm p as in the JSON", async () => {
    // A third system: tfidf's result on query ids divisible by 3, bm25's on the others.
    const lines = readFileSync(EXAMPLE, "utf8").trim().split(/\r?\n/);
    const header = lines[0] as string;
    const rows = lines.slice(1).map((l) => l.split(","));
    const byKey = new Map(rows.map((r) => [`${r[2]}/${r[1]}`, r]));
    const mixed = rows
      .filter((r) => r[2] === "bm25")
      .map((r) => {
        const other = Number(r[1]) % 3 === 0 ? (byKey.get(`tfidf/${r[1]}`) as string[]) : r;
        return [r[0], r[1], "mixed", ...other.slice(3)].join(",");
      });
    const three = join(dir, "three.csv");
    writeFileSync(three, `${[header, ...lines.slice(1), ...mixed].join("\n")}\n`);
    const { json, file } = run("compare-three", [
      "compare",
      three,
      "--doc",
      "doc_id",
      "--query",
      "query_id",
      "--system",
      "system",
      "--metric",
      "hit5",
      "--all-pairs",
      "--replicates",
      "0",
    ]);
    const { page, figures } = await checkPage("compare-three", file);
    const systems = figures.find((f) => f.id === "m1-systems") as FigureFacts;
    expect(systems.marks.dot).toBe(3 * 2);
    const comparisons = json.comparisons;
    expect(comparisons.length).toBe(3);
    for (const c of comparisons) {
      const cell = await text(
        page,
        `table[data-table="holm"] tr[data-a="${c.a.system}"][data-b="${c.b.system}"] td[data-field="micro-holm"]`,
      );
      expect(cell).toBe(pValue(c.pHolm.micro));
    }
    // Each system's label is its tie-group letters and method: systems sharing a letter are
    // the JSON's groups (here micro tells all three apart, macro cannot separate two).
    const analyses = new Map<string, any>();
    for (const c of comparisons) {
      analyses.set(c.a.system, c.a);
      analyses.set(c.b.system, c.b);
    }
    expect(json.groups[0].macro.some((g: string[]) => g.length > 1)).toBe(true);
    const expected = ["micro", "macro"].flatMap((e) =>
      [...analyses].map(
        ([system, a]) => `${groupLetters(json.groups[0][e], system)} · ${a[e].recommended}`,
      ),
    );
    expect((await markTexts(page, "m1-systems")).filter((l) => l.includes(" · ")).sort()).toEqual(
      expected.sort(),
    );
  });
});

describe("plan, strata and simulate --html", () => {
  it("plan: the table shows the JSON's K, the curve has its points with and without fpc, the target is marked", async () => {
    const { json, file } = run("plan", [
      "plan",
      "--sd",
      "0.224",
      "--population",
      "1300",
      "--half-width",
      "0.05",
    ]);
    const { page, figures } = await checkPage("plan", file);
    const row = await page.$$eval('tr[data-row="macro"] td', (t) =>
      t.map((x) => x.textContent ?? ""),
    );
    expect(row).toContain(String(estimandOf(json, "macro").documents));
    expect(row).toContain(String(estimandOf(json, "macro").documentsWithoutFpc));
    expect(estimandOf(json, "macro").documents).toBe(76);
    // One S for both estimands: one curve with the fpc and one without, named for both.
    expect(estimandOf(json, "micro").documents).toBe(estimandOf(json, "macro").documents);
    const curve = figures[0] as FigureFacts;
    expect(curve.marks.line).toBe(2);
    const labels = await page.$$eval("#plan-curve svg text", (t) =>
      t.map((x) => x.textContent ?? ""),
    );
    expect(labels).toContain("target w = 0.05");
    expect(labels).toContain(`macro and micro K = ${estimandOf(json, "macro").documents}`);
  });

  it("plan from a census with --cutoff: each estimand's K on its curve, both K in the table, the rule with the fpc", async () => {
    const { json, file } = run("plan-census", [
      "plan",
      CENSUS,
      "--aggregated",
      "--census",
      "--half-width",
      "0.05",
      "--cutoff",
      "20",
    ]);
    const { page, figures } = await checkPage("plan-census", file);
    expect(estimandOf(json, "macro").sd).not.toBe(estimandOf(json, "micro").sd);
    const labels = await markTexts(page, "plan-curve");
    for (const e of ["macro", "micro"]) {
      expect(labels).toContain(`${e} K = ${estimandOf(json, e).documents}`);
      const row = await page.$$eval(`tr[data-row="${e}"] td`, (t) =>
        t.map((x) => x.textContent ?? ""),
      );
      expect(row.slice(2, 4)).toEqual([
        String(estimandOf(json, e).documents),
        String(estimandOf(json, e).documentsWithoutFpc),
      ]);
    }
    // Two estimands × with and without the fpc; the target's green rule.
    expect((figures[0] as FigureFacts).marks.line).toBe(4);
    expect(await ruleStrokes(page, "plan-curve")).toContain(COLORS.third);
    expect(await text(page, ".lede")).toContain("·√(1 − K/M) ≤ w = 0.05");
    expect(await text(page, ".lede")).toContain("M = 1300");
    expect(await text(page, "body")).toContain("stratified by size at cutoff 20");
  });

  it("plan to detect a difference, no M: the rule it used (power, no fpc), each K to detect marked", async () => {
    const { json, file } = run("plan-detect", [
      "plan",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--metric",
      "hit5",
      "--system",
      "system=bm25,tfidf",
      "--difference",
      "0.03",
    ]);
    const { page } = await checkPage("plan-detect", file);
    const lede = await text(page, ".lede");
    expect(lede).toContain("(t(1 − α/2; K − 1) + t(power; K − 1))·S/√K ≤ |d| = 0.03, power 0.8");
    expect(lede).not.toContain("≤ w");
    expect(lede).not.toContain("√(1 − K/M)");
    const labels = await markTexts(page, "plan-curve");
    for (const e of ["macro", "micro"])
      expect(labels).toContain(`${e} K = ${estimandOf(json, e).detect.documents} to detect 0.03`);
    expect(await ruleStrokes(page, "plan-curve")).not.toContain(COLORS.third);
  });

  it("strata: the cutoff and every allocation, counts as in the JSON", async () => {
    const { json, file } = run("strata", ["strata", CENSUS, "--aggregated", "--documents", "20"]);
    const { page } = await checkPage("strata", file);
    const labels = await page.$$eval("#strata-sizes svg text", (t) =>
      t.map((x) => x.textContent ?? ""),
    );
    expect(labels).toContain(`cutoff ${json.cutoff}`);
    const bars = await page.$$eval(
      "#strata-allocations svg g[aria-label='bar'] rect",
      (r) => r.length,
    );
    const nonzero = json.allocations
      .flatMap((a: any) => Object.values(a.sampled))
      .filter((k: any) => k > 0);
    expect(bars).toBe(nonzero.length);
    for (const a of json.allocations) {
      const name = a.estimand ? `${a.rule} (${a.estimand} S_h)` : a.rule;
      const row = await page.$$eval(`tr[data-row="${name}"] td`, (t) =>
        t.map((x) => x.textContent ?? ""),
      );
      expect(row.slice(1, 3)).toEqual([String(a.sampled.large), String(a.sampled.small)]);
    }
  });

  it("simulate: a coverage dot with its MC-error bar per method and K, the nominal line, coverages as in the JSON", async () => {
    const { json, file } = run("simulate", [
      "simulate",
      CENSUS,
      "--aggregated",
      "--k",
      "5,10",
      "--reps",
      "100",
      "--replicates",
      "99",
    ]);
    const { page, figures } = await checkPage("simulate", file);
    const micro = Object.keys(json.studies[0].methods).filter((k) => k.startsWith("micro/"));
    const coverage = figures.find((f) => f.id === "micro-coverage") as FigureFacts;
    expect(coverage.marks.dot).toBe(micro.length * 2);
    const labels = await page.$$eval("#micro-coverage svg text", (t) =>
      t.map((x) => x.textContent ?? ""),
    );
    expect(labels).toContain("nominal 95%");
    for (const study of json.studies)
      for (const key of micro) expect(labels).toContain(percent(study.methods[key].coverage, 1));
    // One ±1.96 MC-se bar per dot, and the nominal line at the level, in its own colour.
    const strokes = await ruleStrokes(page, "micro-coverage");
    expect(strokes.filter((c) => c === COLORS.second)).toHaveLength(1);
    expect(strokes.length - 1).toBe(micro.length * 2);
    // The widths: a dot per method and K, and the caption names the narrowest with its coverage.
    const width = figures.find((f) => f.id === "micro-width") as FigureFacts;
    const cells = json.studies.flatMap((study: any) =>
      micro.map((key) => ({ k: study.k, key, score: study.methods[key] })),
    );
    expect(width.marks.dot).toBe(cells.filter((c: any) => c.score.meanWidth > 0).length);
    const narrowest = cells.reduce((a: any, b: any) =>
      b.score.meanWidth < a.score.meanWidth ? b : a,
    );
    expect(await text(page, "#micro-width figcaption")).toContain(
      `${narrowest.key.split("/")[1]}${METHODS[narrowest.key.split("/")[1] as MethodId].contrast ? " (contrast)" : ""} · K = ${narrowest.k} (${significant(narrowest.score.meanWidth, 3)}), which covered ${percent(narrowest.score.coverage, 1)}`,
    );
  });
});

describe("--html output safety", () => {
  it("refuses an --html path that is an input or another output, before writing anything", () => {
    const before = readFileSync(EXAMPLE);
    const onInput = ragci([
      "analyze",
      EXAMPLE,
      "--metric",
      "hit5",
      "--system",
      "system",
      "--html",
      EXAMPLE,
    ]);
    expect(onInput.code).toBe(2);
    expect(onInput.stderr).toMatch(/--html/);
    expect(readFileSync(EXAMPLE).equals(before)).toBe(true);
    const same = join(dir, "same.html");
    const twice = ragci([
      "plan",
      "--sd",
      "0.2",
      "--half-width",
      "0.05",
      "-o",
      same,
      "--html",
      same,
    ]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/--html|-o/);
  });
});

describe("--html on the edge cases of the reference data", () => {
  const R = join(ROOT, "test/fixtures/reference");
  const cases: [string, string[]][] = [
    ["degenerate", ["analyze", join(R, "degenerate_equal.csv"), "--metric", "score"]],
    ["k5-fpc", ["analyze", join(R, "k5_binary.csv"), "--metric", "score", "--population", "20"]],
    [
      "score-macro",
      ["analyze", join(R, "rr10_scores.csv"), "--metric", "score", "--estimand", "macro"],
    ],
    [
      "two-stage",
      [
        "analyze",
        join(R, "two_stage_types.csv"),
        "--metric",
        "score",
        "--design",
        join(R, "two_stage_types.design.json"),
      ],
    ],
    [
      "paired-ties",
      ["compare", join(R, "paired_ties_rr.csv"), "--metric", "score", "--system", "system"],
    ],
  ];
  for (const [name, args] of cases) {
    it(`${name}: loads cleanly, every figure drawn, no NaN in any coordinate`, async () => {
      const { html, file } = run(name, [...args, "--replicates", "999"]);
      expect(html).not.toContain("NaN");
      await checkPage(name, file);
    });
  }

  it("says what is true of the degenerate case: zero se, no widening by clustering, no 0 or 1", async () => {
    const { html } = run("degenerate-text", [
      "analyze",
      join(R, "degenerate_equal.csv"),
      "--metric",
      "score",
      "--replicates",
      "0",
    ]);
    expect(html).toContain(
      "Every document has the same rate, so the document-level standard error is 0",
    );
    expect(html).toContain("Here the clustering does not shrink the information (DEFF 1.00 ≤ 1).");
    expect(html).not.toContain("this is why a per-result interval is too narrow");
    expect(html).toContain("No document is at exactly 0 or 1.");
  });
});

describe("--html with judges: the facet intervals and variance components", () => {
  const JUDGES = join(ROOT, "examples/covidqa-judges.csv");
  const facetArgs = ["--system", "system", "--metric", "found", "--judge", "judge"];

  /** The page's facet tables of one system (or difference) equal the JSON's `facets`. */
  async function expectFacetTables(
    page: Page,
    scope: string,
    facets: any,
    components: Record<string, number>,
  ): Promise<void> {
    const intervals = await page.$$eval(
      `${scope} table[data-table="facet-intervals"] tr[data-interval]`,
      (rows) =>
        rows.map((r) => ({
          interval: r.getAttribute("data-interval"),
          recommended: r.classList.contains("recommended"),
          label: r.querySelector("td")?.textContent ?? "",
          estimate: r.querySelector('[data-field="estimate"]')?.textContent ?? "",
          lower: r.querySelector('[data-field="lower"]')?.textContent ?? "",
          upper: r.querySelector('[data-field="upper"]')?.textContent ?? "",
          df: r.querySelector('[data-field="df"]')?.textContent ?? "",
        })),
    );
    // The population's interval first and recommended, then these judges' (fixed).
    expect(intervals.map((r) => [r.interval, r.recommended])).toEqual([
      ["population", true],
      ["fixed", false],
    ]);
    expect(intervals[0]?.label).toBe("judges drawn from a population (recommended)");
    for (const [row, json] of [
      [intervals[0], facets.population],
      [intervals[1], facets.fixed],
    ] as const) {
      expect(row?.estimate).toBe(fixed(json.estimate, 4));
      expect(row?.lower).toBe(fixed(json.lower, 4));
      expect(row?.upper).toBe(fixed(json.upper, 4));
      expect(row?.df).toBe(degreesOfFreedom(json.df));
    }
    const rows = await page.$$eval(
      `${scope} table[data-table="variance-components"] tr[data-component]`,
      (r) =>
        r.map((x) => ({
          component: x.getAttribute("data-component") ?? "",
          variance: x.querySelector('[data-field="variance"]')?.textContent ?? "",
          share: x.querySelector('[data-field="share"]')?.textContent ?? "",
          dominant: x.classList.contains("recommended"),
        })),
    );
    expect(rows.map((r) => r.component)).toEqual(Object.keys(components));
    for (const r of rows) {
      expect(r.variance).toBe((components[r.component] as number).toPrecision(4));
      expect(r.share).toBe(percent(facets.shares[r.component], 1));
      expect(r.dominant).toBe(r.component === facets.dominant);
    }
    expect(await text(page, `${scope} p.dominant`)).toContain(
      "The largest share of the mean's variance: ",
    );
  }

  it("analyze: the judges' population interval above the per-document table, the fixed one, the components and shares as in the JSON", async () => {
    const { json, file } = run("analyze-judges", ["analyze", JUDGES, ...facetArgs]);
    const { page } = await checkPage("analyze-judges", file);
    for (const [i, analysis] of json.analyses.entries()) {
      const scope = `#analysis-${i + 1}`;
      await expectFacetTables(page, scope, analysis.facets, analysis.varianceComponents);
      // In the section, the facet intervals come before the per-document estimates.
      const order = await page.$$eval(`${scope} table[data-table]`, (t) =>
        t.map((x) => x.getAttribute("data-table")),
      );
      expect(order.indexOf("facet-intervals")).toBeLessThan(order.indexOf("estimates"));
    }
    expect(json.analyses[0].facets.dominant).toBe("judge");
    await page.close();
  });

  it("compare: each system's and the difference's facet intervals and components as in the JSON", async () => {
    const { json, file } = run("compare-judges", ["compare", JUDGES, ...facetArgs]);
    const { page } = await checkPage("compare-judges", file);
    const systems = Object.keys(json.facets.found);
    expect(systems).toEqual(["bm25", "tfidf", "tfidf - bm25"]);
    for (const [k, system] of systems.entries()) {
      const scope = `#m1-facets-${k + 1}`;
      expect(await text(page, `${scope} h3`)).toBe(system);
      await expectFacetTables(
        page,
        scope,
        json.facets.found[system],
        json.varianceComponents.found[system],
      );
    }
    await page.close();
  });
});

/** RFC 4180 fields of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function csvRows(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  const endField = () => {
    row.push(field);
    field = "";
  };
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i];
    if (quoted && c === '"' && csv[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && c === ",") endField();
    else if (!quoted && c === "\n") {
      endField();
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length > 0) {
    endField();
    rows.push(row);
  }
  return rows;
}

const csvField = (v: string) => (/[",\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v);

/** A hand-written per-query file (edge cases, not a tool's output): rows of doc, query, system, hit. */
function writeResults(name: string, rows: readonly (readonly (string | number)[])[]): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    `${rows.map((r) => r.map((v) => csvField(String(v))).join(",")).join("\n")}\n`,
  );
  return file;
}

/** The written tick labels of one axis of a figure. */
const tickLabels = (page: Page, figure: string, axis: "x" | "y") =>
  page.$$eval(`#${figure} svg g[aria-label="${axis}-axis tick label"] text`, (t) =>
    t.map((x) => x.textContent ?? "").filter((l) => l !== ""),
  );

describe("--html on hand-written edge inputs", () => {
  it("K = 2 documents of equal size: no plotting warning on stderr or on the page, micro = macro said as equal", async () => {
    // Sizes 5 and 5, rates 0.2 and 0.4: micro 0.3 and macro 0.30000000000000004 in floating point.
    const rows: (string | number)[][] = [["doc_id", "query_id", "system", "hit"]];
    for (const [doc, hits] of [
      ["d1", 1],
      ["d2", 2],
    ] as const)
      for (let q = 0; q < 5; q++) rows.push([doc, `${doc}-q${q}`, "A", q < hits ? 1 : 0]);
    const file = writeResults("k2.csv", rows);
    // run() checks that stderr is empty: Plot's warnings go there.
    const {
      json,
      html,
      file: page,
    } = run("edge-k2", [
      "analyze",
      file,
      "--doc",
      "doc_id",
      "--system",
      "system",
      "--metric",
      "hit",
      "--replicates",
      "99",
    ]);
    const a = analysisOf(json, "A", "hit");
    expect(a.diagnostics.sizes.equal).toBe(true);
    expect(html).not.toContain("Please check the console");
    expect(html).not.toContain("⚠");
    expect(html).toContain("Micro and macro are equal here");
    expect(html).not.toContain("Micro is below macro");
    await checkPage("edge-k2", page);
  });

  it("the count axes are labelled in whole numbers written in full (no 500m, no 0.5 documents)", async () => {
    // 12 documents of 1..13 results: the log axis of sizes starts at the bin edge 0.5.
    const rows: (string | number)[][] = [["doc_id", "query_id", "system", "hit"]];
    for (let d = 0; d < 12; d++)
      for (let q = 0; q < 1 + ((d * 7) % 13); q++)
        rows.push([`d${d}`, `q${d}-${q}`, "A", (d + q) % 3 ? 1 : 0]);
    const file = writeResults("k12.csv", rows);
    const { file: page } = run("edge-k12", [
      "analyze",
      file,
      "--doc",
      "doc_id",
      "--system",
      "system",
      "--metric",
      "hit",
      "--replicates",
      "99",
    ]);
    const { page: opened } = await checkPage("edge-k12", page);
    // Results per document (x of the sizes) and documents (y of both histograms) are counts.
    for (const [figure, axis] of [
      ["a1-sizes", "x"],
      ["a1-sizes", "y"],
      ["a1-rates", "y"],
    ] as const) {
      const labels = await tickLabels(opened, figure, axis);
      expect(labels.length, `${figure} ${axis}`).toBeGreaterThan(2);
      for (const l of labels) expect(l, `${figure} ${axis} tick`).toMatch(/^\d+$/);
    }
  });

  it("two-stage design: the page's micro − macro is the design-weighted covariance, recomputed from the file", async () => {
    const R = join(ROOT, "test/fixtures/reference");
    const data = join(R, "two_stage_types.csv");
    const designFile = join(R, "two_stage_types.design.json");
    const { json, html } = run("edge-two-stage-gap", [
      "analyze",
      data,
      "--metric",
      "score",
      "--design",
      designFile,
      "--replicates",
      "0",
    ]);
    const a = json.analyses[0];
    // Weights w_d = (T / m)·(M_i / m_i): T types of which m drawn, m_i of type i's M_i documents.
    const design = JSON.parse(readFileSync(designFile, "utf8"));
    const docs = new Map<string, { psu: string; n: number; s: number }>();
    for (const [doc, , psu, x] of csvRows(readFileSync(data, "utf8")).slice(1)) {
      const d = docs.get(doc as string) ?? { psu: psu as string, n: 0, s: 0 };
      d.n += 1;
      d.s += Number(x);
      docs.set(doc as string, d);
    }
    const all = [...docs.values()];
    const drawn = new Map<string, number>();
    for (const d of all) drawn.set(d.psu, (drawn.get(d.psu) ?? 0) + 1);
    const w = all.map(
      (d) =>
        (design.first_stage_population / drawn.size) *
        (design.second_stage_population[d.psu] / (drawn.get(d.psu) as number)),
    );
    const sum = (f: (d: { n: number; s: number }, i: number) => number) =>
      all.reduce((t, d, i) => t + f(d, i), 0);
    const W = sum((_, i) => w[i] as number);
    const Wn = sum((d, i) => (w[i] as number) * d.n);
    const nBar = Wn / W;
    const rBar = sum((d, i) => ((w[i] as number) * d.s) / d.n) / W;
    const weighted = sum((d, i) => ((w[i] as number) * (d.n - nBar) * (d.s / d.n - rBar)) / Wn);
    const gap = a.micro.estimate - a.macro.estimate;
    expect(weighted).toBeCloseTo(gap, 12);
    // The unweighted sample identity gives another number here: the page must not state it.
    const N = sum((d) => d.n);
    const unweighted = sum(
      (d) => ((d.n - N / all.length) * (d.s / d.n - sum((x) => x.s / x.n) / all.length)) / N,
    );
    expect(Math.abs(unweighted - gap)).toBeGreaterThan(0.01);
    expect(html).toContain(`Micro is ${gap > 0 ? "above" : "below"} macro by`);
    expect(html).toContain("Σ w_d (n_d − n̄_w)(r_d − r̄_w) / Σ w_d n_d");
    expect(html).not.toContain("Σ (n_d − n̄)(r_d − r̄) / N");
  });
  it("compare with fewer than 8 documents differing: no interval of the difference is shown as recommended", async () => {
    // COVID-QA's first 10 documents, tfidf − bm25 on hit@5: few documents differ (recounted).
    const { rows } = readCovidqa();
    const first = new Set([...new Set(rows.map((r) => r.doc_id as string))].slice(0, 10));
    const kept = rows.filter((r) => first.has(r.doc_id as string));
    const sums = new Map<string, number>();
    for (const r of kept) {
      const sign = r.system === "tfidf" ? 1 : -1;
      sums.set(r.doc_id as string, (sums.get(r.doc_id as string) ?? 0) + sign * Number(r.hit5));
    }
    const differing = [...sums.values()].filter((d) => d !== 0).length;
    expect(differing).toBeLessThan(8);
    const data = join(dir, "tie-heavy.csv");
    writeFileSync(data, csvOf(kept, ["system", "doc_id", "query_id", ...METRIC_COLUMNS]));
    const { json, file } = run("edge-withheld", [
      "compare",
      data,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--replicates",
      "99",
    ]);
    const d = comparisonOf(json, "hit5").difference;
    const { page } = await checkPage("edge-withheld", file);
    const figure = "m1-c1-intervals";
    const labels = await markTexts(page, figure, "y-axis tick label");
    for (const e of ["micro", "macro"]) {
      expect(d[e].recommendationWithheld.code).toBe("few-differing-documents");
      expect(labels).toContain(`${e} · ${d[e].recommended} (not recommended)`);
      const note = await text(
        page,
        `table[data-table="methods"] tr[data-estimand="${e}"][data-method="${d[e].recommended}"] td:last-child`,
      );
      expect(note).toBe(`not recommended: ${d[e].recommendationWithheld.reason}`);
    }
    expect(labels.filter((l) => l.endsWith("(recommended)"))).toEqual([]);
    expect(await page.$$('table[data-table="methods"] tr.recommended')).toHaveLength(0);
    // No interval drawn thick and dark blue, as the recommended ones are.
    expect(await ruleStrokes(page, figure)).not.toContain(COLORS.accent);
    const caption = await text(page, `#${figure} figcaption`);
    expect(caption).not.toMatch(/^Recommended:/);
    expect(caption).toContain("No interval recommended for micro or macro");
    const body = await text(page, `#m1-c1`);
    expect(body).toContain(`micro: none (${d.micro.recommended}`);
    expect(body).not.toContain(`Recommended: micro: ${d.micro.recommended}`);
  });
  it("compare: the JSON's notes about the input (judges averaged) are on the page, as in the terminal", async () => {
    const judges = join(ROOT, "examples/covidqa-judges.csv");
    const args = ["compare", judges, "--system", "system", "--metric", "found", "--judge", "judge"];
    const { json, file } = run("edge-compare-notes", [...args, "--replicates", "0"]);
    expect(json.notes.length).toBeGreaterThan(0);
    const terminal = ragci([...args, "--replicates", "0"]).stdout;
    const { page } = await openReport(browser, file);
    const shown = await page.$$eval("#input-warnings li", (l) => l.map((x) => x.textContent ?? ""));
    expect(shown).toEqual(json.notes);
    for (const note of json.notes) expect(terminal).toContain(note);
    await page.close();
  });
  it("ids, systems, a metric column and a file name with markup, quotes, commas and non-ASCII are text, and the download is their CSV", async () => {
    const docs = [
      `<b>&"'x`,
      "x".repeat(300),
      "ドキュメント–é",
      "</title><script>alert(1)</script>",
      "a,b",
      "d6",
      "d7",
      "d8",
    ];
    const systems = [`<i>sys"A'</i>`, "sysB&amp;"];
    const metric = `m<x>&"`;
    const rows: (string | number)[][] = [["doc_id", "query_id", "system", metric]];
    for (const [d, doc] of docs.entries())
      for (let q = 0; q <= d % 4; q++)
        for (const [k, system] of systems.entries())
          rows.push([doc, `${d}-${q}`, system, (d + q + k) % 2]);
    const data = writeResults(`we<ird>&"'.csv`, rows);
    const saved = join(dir, "special-aggregates.csv");
    const args = ["analyze", data, "--doc", "doc_id", "--system", "system", "--metric", metric];
    const { json, file } = run("edge-special", [
      ...args,
      "--replicates",
      "0",
      "--write-aggregates",
      saved,
    ]);
    expect(json.analyses.map((a: any) => a.system)).toEqual(systems);
    const { page } = await checkPage("edge-special", file);
    // Nothing the input named became an element or an attribute.
    expect(await page.$$("b, i, script, title ~ title")).toHaveLength(0);
    expect(await page.title()).toBe(`ragci analyze · ${data}`);
    const overview = await page.$$eval('table[data-table="overview"] tbody tr', (r) =>
      r.map((x) => [x.getAttribute("data-system"), x.querySelector("td")?.textContent ?? ""]),
    );
    expect(overview).toEqual(systems.map((s) => [s, s]));
    const influence = analysisOf(json, systems[0] as string, metric).diagnostics.influence.micro[0]
      .document;
    expect(await text(page, "#analysis-1")).toContain(`without document ${influence} the micro`);
    // The embedded table: the bytes --write-aggregates wrote, and its fields the raw names.
    const href = await page.$eval("a.download", (a) => a.getAttribute("href") ?? "");
    const csv = Buffer.from(href.replace(/^data:text\/csv;charset=utf-8;base64,/, ""), "base64");
    expect(csv.equals(readFileSync(saved))).toBe(true);
    const [header, ...table] = csvRows(csv.toString("utf8"));
    expect(header?.slice(0, 3)).toEqual(["system", "metric", "doc"]);
    expect(new Set(table.map((r) => r[0]))).toEqual(new Set(systems));
    expect(new Set(table.map((r) => r[1]))).toEqual(new Set([metric]));
    expect(new Set(table.map((r) => r[2]))).toEqual(new Set(docs));
    await page.close();
  });
  it("--population: the page names every interval the fpc shrinks and those it leaves, as the JSON's widths show", async () => {
    const args = [
      "analyze",
      EXAMPLE,
      "--doc",
      "doc_id",
      "--system",
      "system=bm25",
      "--metric",
      "hit5",
    ];
    const { json, html } = run("edge-fpc", [...args, "--population", "200", "--replicates", "999"]);
    const plain = JSON.parse(ragci([...args, "--replicates", "999", "--json"]).stdout);
    const factor = Math.sqrt(1 - 98 / 200);
    const shrunk = new Set<string>();
    const kept = new Set<string>();
    for (const e of ["micro", "macro"]) {
      const a = json.analyses[0][e].intervals;
      const b = plain.analyses[0][e].intervals;
      for (const m of Object.keys(a)) {
        // Percentile bootstraps have no se: their width carries the correction.
        const ratio =
          a[m].se !== null
            ? a[m].se / b[m].se
            : (a[m].upper - a[m].lower) / (b[m].upper - b[m].lower);
        if (Math.abs(ratio - factor) < 1e-3) shrunk.add(m);
        else if (Math.abs(ratio - 1) < 1e-9) kept.add(m);
        else throw new Error(`${e} ${m}: ratio ${ratio}`);
      }
    }
    const sentence = html.match(
      /the variances of ([^<]*?) are multiplied by 1 − K\/M = [^;]*; ([^<]*?)\./,
    );
    expect(sentence).not.toBeNull();
    const [, multiplied = "", uncorrected = ""] = sentence as RegExpMatchArray;
    for (const m of shrunk) {
      const named = m.startsWith("bootstrap-")
        ? sentence?.[0].includes("document bootstraps are rescaled")
        : new RegExp(`(^|, | and )${m}(,| and |$)`).test(multiplied);
      expect(named, `${m} is shrunk by the fpc`).toBe(true);
    }
    for (const m of kept) expect(uncorrected, `${m} is left uncorrected`).toContain(m);
  });
  it("a metric with every document at 0, and one at 1: the estimates' labels at the axis's ends stay inside the figure", async () => {
    const rows: (string | number)[][] = [["doc_id", "query_id", "system", "none", "all"]];
    for (let d = 0; d < 6; d++)
      for (let q = 0; q <= d; q++) rows.push([`d${d}`, `q${d}-${q}`, "A", 0, 1]);
    const data = writeResults("bounds.csv", rows);
    const { json, file } = run("edge-bounds", [
      "analyze",
      data,
      "--doc",
      "doc_id",
      "--system",
      "system",
      "--metric",
      "none,all",
      "--replicates",
      "0",
    ]);
    expect(analysisOf(json, "A", "none").micro.estimate).toBe(0);
    expect(analysisOf(json, "A", "all").macro.estimate).toBe(1);
    // checkPage fails on any figure text drawn outside its svg.
    const { page } = await checkPage("edge-bounds", file);
    for (const [figure, value] of [
      ["a1-rates", "0.000"],
      ["a2-rates", "1.000"],
    ] as const)
      for (const e of ["micro", "macro"])
        expect(await markTexts(page, figure)).toContain(`${e} ${value}`);
  });
  it("compare of systems with long names sharing a prefix: their labels fit the figures and stay apart", async () => {
    const long = (v: string) =>
      `retriever-with-a-very-long-configuration-name-${v}-${"x".repeat(40)}`;
    const names = { bm25: long("bm25"), tfidf: long("tfidf") };
    const rows: (string | number)[][] = [["doc_id", "query_id", "system", "hit5"]];
    for (const r of readCovidqa().rows)
      rows.push([
        r.doc_id as string,
        r.query_id as string,
        names[r.system as "bm25" | "tfidf"],
        Number(r.hit5),
      ]);
    const data = writeResults("long-systems.csv", rows);
    const { file } = run("edge-long-systems", [
      "compare",
      data,
      "--system",
      "system",
      "--metric",
      "hit5",
      "--replicates",
      "0",
    ]);
    // checkPage fails on any figure text drawn outside its svg.
    const { page } = await checkPage("edge-long-systems", file);
    const labels = await markTexts(page, "m1-c1-systems", "y-axis tick label");
    expect(new Set(labels).size).toBe(2);
    for (const l of labels) expect(l).toContain("…");
    const caption = await text(page, "#m1-c1-systems figcaption");
    for (const name of Object.values(names)) expect(caption).toContain(name);
  });
});
