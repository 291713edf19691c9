import * as Plot from "@observablehq/plot";
import type { SamplePlan } from "../../core/planning/samplePlan.js";
import { fixed } from "../format.js";
import { COLORS, svgFigure } from "./svgFigure.js";

interface CurvePoint {
  readonly estimand: string;
  readonly correction: string;
  readonly documents: number;
  readonly halfWidth: number;
}

/**
 * The plan's half-width t(1 − α/2; K − 1)·S/√K·√(1 − K/M) against K (log axis), with the fpc
 * (solid) and without (dashed) when M is known, the target w as a horizontal line and the
 * planned K of each estimand marked on it.
 */
export function halfWidthCurveFigure(options: {
  readonly id: string;
  readonly plan: SamplePlan;
}): string {
  const { plan } = options;
  const fpc = plan.population !== null;
  const points: CurvePoint[] = plan.estimands.flatMap((e) =>
    (plan[e]?.curve ?? []).flatMap((c) => [
      ...(fpc
        ? [{ estimand: e, correction: "with fpc", documents: c.documents, halfWidth: c.halfWidth }]
        : []),
      {
        estimand: e,
        correction: "without fpc",
        documents: c.documents,
        halfWidth: c.halfWidthWithoutFpc,
      },
    ]),
  );
  const series = (p: CurvePoint) => `${p.estimand} ${p.correction}`;
  const w = plan.halfWidth;
  const planned = plan.estimands.flatMap((e) => {
    const k = plan[e]?.documents;
    return w !== null && k !== undefined ? [{ estimand: e, documents: k, halfWidth: w }] : [];
  });
  const last = plan.estimands.flatMap((e) => {
    const c = plan[e]?.curve.at(-1);
    return c
      ? [
          {
            estimand: e,
            documents: c.documents,
            halfWidth: fpc ? c.halfWidth : c.halfWidthWithoutFpc,
          },
        ]
      : [];
  });
  const color = (e: string) => (e === "macro" ? COLORS.second : COLORS.accent);
  return svgFigure({
    id: options.id,
    title: `Half-width of the ${fixed(100 * plan.level, 0)}% interval against K`,
    alt: `Line chart with a logarithmic x axis: x is K, the number of documents, y the predicted half-width; one line per estimand (micro dark blue, macro dark orange)${fpc ? `, solid with the finite-population correction for M = ${plan.population}, dashed without` : ", without finite-population correction (M not given)"}${w === null ? "" : `; a horizontal line marks the target half-width ${w}, dots the planned K`}.`,
    caption: `${plan.estimands.map((e) => `${e}: S = ${fixed(plan[e]?.sd ?? Number.NaN, 3)}${plan[e]?.documents === undefined ? "" : `, K = ${plan[e]?.documents}${fpc ? ` (${plan[e]?.documentsWithoutFpc ?? "more than 10¹²"} without fpc)` : ""}`}`).join("; ")}. Half-widths at K = ${plan.curve.join(", ")}; the lines join those points.`,
    plot: {
      height: 300,
      marginRight: 70,
      x: { type: "log", label: "documents K (log scale) →", grid: true },
      y: { label: "↑ half-width", grid: true, zero: true },
      marks: [
        ...(w === null
          ? []
          : [
              Plot.ruleY([w], { stroke: COLORS.third, strokeWidth: 1.5 }),
              Plot.text([`target w = ${w}`], {
                frameAnchor: "top-right",
                dy: -4,
                fill: COLORS.third,
                fontWeight: "bold",
              }),
            ]),
        ...["with fpc", "without fpc"].map((correction) =>
          Plot.line(
            points.filter((p) => p.correction === correction),
            {
              x: "documents",
              y: "halfWidth",
              z: series,
              stroke: (p: CurvePoint) => color(p.estimand),
              strokeDasharray: correction === "without fpc" && fpc ? "5 4" : "1 0",
              strokeWidth: 2,
            },
          ),
        ),
        Plot.dot(points, {
          x: "documents",
          y: "halfWidth",
          fill: (p: CurvePoint) => color(p.estimand),
          r: 2.5,
        }),
        Plot.dot(planned, {
          x: "documents",
          y: "halfWidth",
          stroke: (p: { estimand: string }) => color(p.estimand),
          r: 6,
          strokeWidth: 2,
        }),
        ...planned.map((p) =>
          Plot.text([p], {
            x: "documents",
            y: "halfWidth",
            dy: p.estimand === "macro" ? -14 : 14,
            text: () => `${p.estimand} K = ${p.documents}`,
            fill: color(p.estimand),
            fontWeight: "bold",
          }),
        ),
        // Without a target there are no planned-K labels, so the lines are named at their ends.
        Plot.text(w === null ? last : [], {
          x: "documents",
          y: "halfWidth",
          dx: 6,
          textAnchor: "start",
          text: "estimand",
          fill: (p: { estimand: string }) => color(p.estimand),
        }),
      ],
    },
  });
}
