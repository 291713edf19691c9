import * as Plot from "@observablehq/plot";
import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { COLORS, svgFigure } from "../../../src/report/html/svgFigure.js";

/** WCAG 2 contrast ratio of a #rrggbb colour against white. */
function contrastOnWhite(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(1 + 2 * i, 3 + 2 * i), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
  return 1.05 / (luminance + 0.05);
}

describe("svgFigure(spec)", () => {
  it("is a figure whose svg is an image labelled by its heading and described by its text alternative", () => {
    const out = svgFigure({
      id: "f1",
      title: "A <title> & more",
      alt: "Dots at 1, 2 and 3.",
      caption: "Three values.",
      plot: { marks: [Plot.dot([1, 2, 3], { x: (d: number) => d, y: (d: number) => d })] },
    });
    const { document } = parseHTML(`<html><body>${out}</body></html>`);
    const svg = document.querySelector("figure#f1 svg");
    expect(svg?.getAttribute("role")).toBe("img");
    expect(document.getElementById(svg?.getAttribute("aria-labelledby") ?? "")?.textContent).toBe(
      "A <title> & more",
    );
    expect(document.getElementById(svg?.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Dots at 1, 2 and 3.",
    );
    expect(svg?.querySelector("title")?.textContent).toBe("A <title> & more");
    expect(svg?.querySelector("desc")?.textContent).toBe("Dots at 1, 2 and 3.");
    expect(svg?.querySelectorAll("circle")).toHaveLength(3);
    expect([...(svg?.querySelectorAll("text") ?? [])].length).toBeGreaterThan(0);
    expect(out).not.toMatch(/<script/i);
  });

  it("uses colours with at least 4.5:1 contrast for marks that carry text, 3:1 for the light bars", () => {
    for (const name of ["accent", "second", "third", "muted"] as const)
      expect(contrastOnWhite(COLORS[name]), name).toBeGreaterThanOrEqual(4.5);
    expect(contrastOnWhite(COLORS.light)).toBeGreaterThanOrEqual(3);
  });
});
