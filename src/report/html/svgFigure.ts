import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { escapeHtml } from "./escapeHtml.js";

export interface FigureSpec {
  /** Unique on the page; the figure's elements are named after it. */
  readonly id: string;
  readonly title: string;
  /** The text alternative: what is drawn, for a reader who cannot see it. */
  readonly alt: string;
  /** What the figure shows about these data (visible under it). */
  readonly caption: string;
  readonly plot: Plot.PlotOptions;
}

const SVG = "http://www.w3.org/2000/svg";

/** The little of the DOM used here (the project's lib has no DOM types; linkedom provides it). */
interface DomElement {
  readonly tagName: string;
  readonly outerHTML: string;
  readonly firstChild: unknown;
  textContent: string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  querySelector(selector: string): DomElement | null;
  insertBefore(node: DomElement, before: unknown): void;
}

/**
 * Colours on white: the ones that also colour text have at least 4.5:1 contrast; `light`, for
 * the bars of "the rest", has 3.4:1, the least WCAG asks of graphical objects.
 */
export const COLORS = {
  accent: "#1f4e79",
  second: "#a33b00",
  third: "#2e6b30",
  muted: "#6b6b6b",
  light: "#8c8c8c",
} as const;

/** Each estimand keeps its colour on every figure of a page: micro dark blue, macro orange. */
export const ESTIMAND_COLORS = { micro: COLORS.accent, macro: COLORS.second } as const;

/**
 * One figure drawn by Observable Plot into a linkedom document (Plot needs a DOM; linkedom is
 * one without a browser), serialised as inline SVG. Labels stay <text> elements (real text a
 * screen reader and a search can find); the svg is an image labelled by the title and
 * described by the text alternative.
 */
export function svgFigure(spec: FigureSpec): string {
  const { document } = parseHTML("<!doctype html><html><body></body></html>");
  const node = Plot.plot({
    width: 760,
    ...spec.plot,
    document: document as unknown as Plot.PlotOptions["document"],
    style: { fontSize: "12px", fontFamily: "system-ui, sans-serif", color: "#1a1a1a" },
  }) as unknown as DomElement;
  const svg = node.tagName.toLowerCase() === "svg" ? node : node.querySelector("svg");
  if (!svg) throw new Error("internal: Plot drew no svg");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-labelledby", `${spec.id}-title`);
  svg.setAttribute("aria-describedby", `${spec.id}-desc`);
  svg.removeAttribute("aria-description");
  const title = document.createElementNS(SVG, "title") as unknown as DomElement;
  title.setAttribute("id", `${spec.id}-svgtitle`);
  title.textContent = spec.title;
  const desc = document.createElementNS(SVG, "desc") as unknown as DomElement;
  desc.textContent = spec.alt;
  svg.insertBefore(desc, svg.firstChild);
  svg.insertBefore(title, svg.firstChild);
  return `<figure id="${escapeHtml(spec.id)}" class="plot">
<h4 id="${escapeHtml(spec.id)}-title">${escapeHtml(spec.title)}</h4>
<div class="plot-scroll" tabindex="0" aria-labelledby="${escapeHtml(spec.id)}-title">${node.outerHTML}</div>
<figcaption>${escapeHtml(spec.caption)}<span class="alt" id="${escapeHtml(spec.id)}-desc">${escapeHtml(spec.alt)}</span></figcaption>
</figure>`;
}
