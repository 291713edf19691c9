import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";
import { ROOT } from "./runCli.js";

/** Where the browser tests leave their screenshots and PDFs (gitignored; not committed). */
export const ARTIFACTS = join(ROOT, "test-artifacts", "html");

/** Debian's chromium, headless, with every background network feature off. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export interface OpenedPage {
  readonly page: Page;
  /** Every request the page made other than the page itself and data: URLs. */
  readonly foreignRequests: readonly string[];
  /** Console errors, CSP violations included, and uncaught page errors. */
  readonly errors: readonly string[];
}

/** Opens a report file, recording every request and every console error while it loads. */
export async function openReport(
  browser: Browser,
  file: string,
  viewport = { width: 1000, height: 900 },
): Promise<OpenedPage> {
  const page = await browser.newPage({ viewport });
  const url = pathToFileURL(file).href;
  const foreignRequests: string[] = [];
  const errors: string[] = [];
  page.on("request", (r) => {
    if (r.url() !== url && !r.url().startsWith("data:")) foreignRequests.push(r.url());
  });
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: "load" });
  return { page, foreignRequests, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

export interface FigureFacts {
  readonly id: string;
  readonly width: number;
  readonly height: number;
  readonly title: string;
  readonly desc: string;
  readonly caption: string;
  readonly labelledBy: string;
  readonly texts: number;
  /** Mark name (Plot's aria-label, axes and grids left out) → drawn elements in it. */
  readonly marks: Readonly<Record<string, number>>;
}

/** What the browser laid out for every figure: size, accessible names and the marks drawn. */
export function figureFacts(page: Page): Promise<FigureFacts[]> {
  return page.$$eval("figure.plot", (figures) =>
    figures.map((f) => {
      const svg = f.querySelector("svg");
      const box = svg?.getBoundingClientRect();
      const marks: Record<string, number> = {};
      for (const g of svg?.querySelectorAll("g[aria-label]") ?? []) {
        const name = g.getAttribute("aria-label") ?? "";
        if (/axis|grid/.test(name)) continue;
        marks[name] =
          (marks[name] ?? 0) + g.querySelectorAll("rect, circle, line, path, text").length;
      }
      const labelled = svg?.getAttribute("aria-labelledby") ?? "";
      return {
        id: f.id,
        width: box?.width ?? 0,
        height: box?.height ?? 0,
        title: svg?.querySelector("title")?.textContent ?? "",
        desc: svg?.querySelector("desc")?.textContent ?? "",
        caption: f.querySelector("figcaption")?.textContent ?? "",
        labelledBy: f.ownerDocument.getElementById(labelled)?.textContent ?? "",
        texts: svg?.querySelectorAll("text").length ?? 0,
        marks,
      };
    }),
  );
}

export interface LayoutFacts {
  /** The document's width: more than the viewport means the page itself scrolls sideways. */
  readonly scrollWidth: number;
  /** Number and interval cells whose text the layout broke over more than one line. */
  readonly brokenNumbers: readonly string[];
  /** The smallest rendered size of a figure's 12-unit labels, in CSS px. */
  readonly smallestLabelPx: number;
  /** Figures drawn wider than their box can show without a scroll bar of their own. */
  readonly unscrollableFigures: readonly string[];
}

/**
 * How the page is laid out at the current viewport and media: whether the page scrolls
 * sideways, whether a number was split over lines (a column of single digits on a phone),
 * how small the figures' labels came out, and whether a figure wider than its box can scroll.
 */
export function layoutFacts(page: Page): Promise<LayoutFacts> {
  // Run in the page (a string: the project's TypeScript has no DOM types).
  return page.evaluate<LayoutFacts>(`(() => {
    const lines = (e) => {
      const range = document.createRange();
      range.selectNodeContents(e);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    };
    const cells = [...document.querySelectorAll('td.num, td[data-field="interval"]')];
    const brokenNumbers = cells
      .filter((c) => (c.textContent ?? "").trim() !== "" && lines(c) > 1)
      .map((c) => c.textContent ?? "");
    let smallestLabelPx = Infinity;
    const unscrollableFigures = [];
    for (const f of document.querySelectorAll("figure.plot")) {
      const svg = f.querySelector("svg");
      if (!svg) continue;
      const drawn = svg.viewBox.baseVal.width || Number(svg.getAttribute("width"));
      smallestLabelPx = Math.min(smallestLabelPx, (12 * svg.getBoundingClientRect().width) / drawn);
      const box = svg.parentElement;
      const scrolls = ["auto", "scroll"].includes(getComputedStyle(box).overflowX);
      if (box.scrollWidth > box.clientWidth + 1 && !scrolls) unscrollableFigures.push(f.id);
    }
    return {
      scrollWidth: document.documentElement.scrollWidth,
      brokenNumbers,
      smallestLabelPx,
      unscrollableFigures,
    };
  })()`);
}

/**
 * The figures' texts drawn (partly) outside their svg, which the browser cuts off: a label at
 * an axis's end or longer than its margin. "figure-id: text".
 */
export function textsOutsideFigures(page: Page): Promise<string[]> {
  return page.$$eval("figure.plot svg", (svgs) =>
    svgs.flatMap((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll("text")]
        .filter((t) => {
          const r = t.getBoundingClientRect();
          return r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1);
        })
        .map((t) => `${svg.closest("figure")?.id}: ${t.textContent}`);
    }),
  );
}
