import * as Plot from "@observablehq/plot";
import type { SizeStrataDesign } from "../../core/designs/sizeStrataDesign.js";
import { significant } from "../format.js";
import { COLORS, svgFigure } from "./svgFigure.js";

/** The row names the strata report's table uses. */
function ruleName(r: SizeStrataDesign["allocations"][number]): string {
  return r.estimand ? `${r.rule} (${r.estimand} S_h)` : r.rule;
}

/**
 * Each allocation of K to the strata as a stacked bar (large dark, small light, counts inside)
 * with its predicted micro and macro se beside it, SRS's se in the caption for comparison.
 */
export function strataAllocationFigure(options: {
  readonly id: string;
  readonly design: SizeStrataDesign;
}): string {
  const { design } = options;
  const names = design.allocations.map(ruleName);
  const parts = design.allocations.flatMap((r) =>
    design.strata.map((h, i) => ({
      rule: ruleName(r),
      stratum: h.name,
      sampled: r.sampled[i] as number,
    })),
  );
  const ses = design.allocations.map((r) => ({
    rule: ruleName(r),
    text: `se micro ${significant(r.predicted.micro)} · macro ${significant(r.predicted.macro)}`,
  }));
  return svgFigure({
    id: options.id,
    title: `Each allocation of K = ${design.documents} documents to the two strata`,
    alt: "Stacked horizontal bars, one per allocation rule: the dark part is the number of large documents sampled, the light part the small ones (counts written inside); the text at the right gives the predicted standard errors.",
    caption: `Predicted se under SRS of ${design.documents} documents: micro ${significant(design.srs.micro)}, macro ${significant(design.srs.macro)}. ${design.allocations.map((r) => `${ruleName(r)}: ${r.sampled[0]} large + ${r.sampled[1]} small`).join("; ")}.`,
    plot: {
      height: 50 + 34 * names.length,
      marginLeft: 170,
      marginRight: 230,
      x: { label: "documents sampled →", domain: [0, design.documents] },
      y: { label: null, domain: names },
      color: { domain: ["large", "small"], range: [COLORS.accent, COLORS.light] },
      marks: [
        Plot.barX(
          parts,
          Plot.stackX({ y: "rule", x: "sampled", fill: "stratum", order: ["large", "small"] }),
        ),
        Plot.text(
          parts,
          Plot.stackX({
            y: "rule",
            x: "sampled",
            order: ["large", "small"],
            text: (p: { stratum: string; sampled: number }) =>
              // A narrow segment has room for its count only.
              p.sampled === 0
                ? ""
                : p.sampled < 0.2 * design.documents
                  ? String(p.sampled)
                  : `${p.sampled} ${p.stratum}`,
            fill: (p: { stratum: string }) => (p.stratum === "large" ? "#ffffff" : "#1a1a1a"),
          }),
        ),
        Plot.text(ses, {
          y: "rule",
          frameAnchor: "right",
          dx: 226,
          textAnchor: "end",
          text: "text",
        }),
      ],
    },
  });
}
