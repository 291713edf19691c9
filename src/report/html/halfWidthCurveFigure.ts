import * as Plot from "@observablehq/plot";
import { halfWidthCurve } from "../../core/planning/requiredDocuments.js";
import type { SamplePlan } from "../../core/planning/samplePlan.js";
import type { Estimand } from "../../core/types.js";
import { fixed, levelPercent } from "../format.js";
import { countLogTick } from "./countTicks.js";
import { COLORS, ESTIMAND_COLORS, svgFigure } from "./svgFigure.js";

interface CurvePoint {
  readonly estimand: Estimand;
  readonly correction: "with fpc" | "without fpc";
  readonly documents: number;
  readonly halfWidth: number;
}

interface Planned {
  readonly estimands: readonly Estimand[];
  readonly documents: number;
  readonly halfWidth: number;
  readonly why: string;
}

/** About 60 whole K per decade-span, evenly spaced on a log scale from `from` to `to`. */
function logGrid(from: number, to: number): number[] {
  const steps = 120;
  const grid = Array.from({ length: steps + 1 }, (_, i) =>
    Math.round(from * (to / from) ** (i / steps)),
  );
  return [...new Set(grid)];
}

/** The planned points, one per K: estimands planned at the same K share one label. */
function plannedPoints(plan: SamplePlan): Planned[] {
  const out: Planned[] = [];
  for (const e of plan.estimands) {
    const b = plan[e];
    if (!b) continue;
    const at = (k: number) =>
      halfWidthCurve({
        sd: b.sd,
        population: plan.population,
        level: plan.level,
        documents: [k],
      })[0]?.halfWidth ?? Number.NaN;
    const add = (documents: number, halfWidth: number, why: string) => {
      const same = out.findIndex((p) => p.documents === documents && p.why === why);
      if (same >= 0) {
        const p = out[same] as Planned;
        out[same] = { ...p, estimands: [...p.estimands, e] };
      } else out.push({ estimands: [e], documents, halfWidth, why });
    };
    if (plan.halfWidth !== null && b.documents !== undefined) add(b.documents, plan.halfWidth, "");
    if (b.detect !== undefined)
      add(b.detect.documents, at(b.detect.documents), ` to detect ${b.detect.difference}`);
  }
  return out.sort((x, y) => x.documents - y.documents);
}

/**
 * The plan's half-width t(1 − α/2; K − 1)·S/√K·√(1 − K/M) against K, both axes logarithmic
 * (without the fpc the curve is a straight line of slope −½, so the region around the
 * target is as legible as the small K), drawn at every whole K of a fine grid, with the fpc
 * (solid) and without (dashed) when M is known; the report's table K as dots, the target w
 * as a horizontal line, and each planned K (for w, or to detect a difference) marked.
 */
export function halfWidthCurveFigure(options: {
  readonly id: string;
  readonly plan: SamplePlan;
}): string {
  const { plan } = options;
  const m = plan.population;
  const fpc = m !== null;
  const planned = plannedPoints(plan);
  const tableK = plan.curve;
  const from = Math.max(2, Math.min(...tableK, ...planned.map((p) => p.documents)));
  const to = Math.max(...tableK, ...planned.map((p) => Math.ceil(p.documents * 1.25)), from + 1);
  const grid = logGrid(from, fpc ? Math.min(to, m) : to);
  const line = (e: Estimand, sd: number): CurvePoint[] =>
    halfWidthCurve({ sd, population: m, level: plan.level, documents: grid }).flatMap((c) => [
      ...(fpc
        ? [
            {
              estimand: e,
              correction: "with fpc" as const,
              documents: c.documents,
              halfWidth: c.halfWidth,
            },
          ]
        : []),
      {
        estimand: e,
        correction: "without fpc" as const,
        documents: c.documents,
        halfWidth: c.halfWidthWithoutFpc,
      },
    ]);
  const sds = plan.estimands.map((e) => plan[e]?.sd ?? 0);
  // With one S for both estimands their curves coincide: one line, named for both.
  const same = plan.estimands.length === 2 && sds[0] === sds[1];
  const drawn = (same ? plan.estimands.slice(0, 1) : plan.estimands).flatMap((e) =>
    line(e, plan[e]?.sd ?? 0),
  );
  // A census (K = M) has half-width 0, which a log axis cannot show; S = 0 draws linearly.
  const log = drawn.some((p) => p.halfWidth > 0) && sds.every((s) => s > 0);
  const points = log ? drawn.filter((p) => p.halfWidth > 0) : drawn;
  const dots = plan.estimands.flatMap((e) =>
    (plan[e]?.curve ?? [])
      .map((c) => ({ estimand: e, documents: c.documents, halfWidth: c.halfWidth }))
      .filter((c) => !log || c.halfWidth > 0),
  );
  const name = (p: Planned) => `${p.estimands.join(" and ")} K = ${p.documents}${p.why}`;
  const ends = (same ? plan.estimands.slice(0, 1) : plan.estimands).flatMap((e) => {
    const last = points
      .filter((p) => p.estimand === e && p.correction === (fpc ? "with fpc" : "without fpc"))
      .at(-1);
    return last ? [{ ...last, text: same ? "both" : e }] : [];
  });
  const color = (e: Estimand) => (same ? "#1a1a1a" : ESTIMAND_COLORS[e]);
  const w = plan.halfWidth;
  const detecting = planned.some((p) => p.why !== "");
  return svgFigure({
    id: options.id,
    title: `Half-width of the ${levelPercent(plan.level)} interval against K`,
    alt: `Line chart, both axes logarithmic: x is K, the number of documents, y the predicted half-width; ${same ? `${plan.estimands.join(" and ")} have the same S, so one black line serves both` : "one line per estimand (micro dark blue, macro dark orange)"}${fpc ? `, solid with the finite-population correction for M = ${m}, dashed without` : ", without finite-population correction (M not given)"}; dots at the K of the table${w === null ? "" : `; a horizontal green line marks the target half-width ${w}`}${planned.length > 0 ? `; circles mark the planned K (${planned.map(name).join("; ")})` : ""}.`,
    caption: `${plan.estimands
      .map((e) => {
        const b = plan[e];
        if (!b) return e;
        const forW =
          b.documents === undefined
            ? ""
            : `, K = ${b.documents}${fpc ? ` (${b.documentsWithoutFpc ?? "more than 10¹²"} without fpc)` : ""}`;
        const toDetect =
          b.detect === undefined
            ? ""
            : `, K = ${b.detect.documents} to detect ${b.detect.difference} with power ${b.detect.power}${fpc ? ` (${b.detect.documentsWithoutFpc ?? "more than 10¹²"} without fpc)` : ""}`;
        return `${e}: S = ${fixed(b.sd, 3)}${forW}${toDetect}`;
      })
      .join(
        "; ",
      )}.${same ? " Both estimands have the same S, so their curves are one line." : ""} The curve is drawn at every K; the dots are the table's K = ${tableK.join(", ")}.${detecting ? " A circle to detect a difference sits at the half-width that K gives." : ""}`,
    plot: {
      height: 320,
      marginTop: 30,
      marginLeft: 50,
      marginRight: 90,
      x: {
        type: "log",
        label: "documents K (log scale) →",
        grid: true,
        tickFormat: countLogTick(to),
      },
      y: log
        ? { type: "log", label: "↑ half-width (log scale)", grid: true, tickFormat: "~g" }
        : { label: "↑ half-width", grid: true, zero: true },
      marks: [
        ...(w === null
          ? []
          : [
              Plot.ruleY([w], { stroke: COLORS.third, strokeWidth: 1.5 }),
              Plot.text([`target w = ${w}`], {
                frameAnchor: "top-right",
                dy: -18,
                fill: COLORS.third,
                fontWeight: "bold",
              }),
            ]),
        ...(["with fpc", "without fpc"] as const).map((correction) =>
          Plot.line(
            points.filter((p) => p.correction === correction),
            {
              x: "documents",
              y: "halfWidth",
              z: "estimand",
              stroke: (p: CurvePoint) => color(p.estimand),
              strokeDasharray: correction === "without fpc" && fpc ? "5 4" : "1 0",
              strokeWidth: 2,
            },
          ),
        ),
        Plot.dot(dots, {
          x: "documents",
          y: "halfWidth",
          fill: (p: { estimand: Estimand }) => color(p.estimand),
          r: 2.5,
        }),
        Plot.dot(planned, {
          x: "documents",
          y: "halfWidth",
          stroke: (p: Planned) =>
            p.estimands.length > 1 ? "#1a1a1a" : color(p.estimands[0] as Estimand),
          r: 6,
          strokeWidth: 2,
        }),
        // The curves fall to the right, so below-left and above-right of a point are clear of
        // them: the smallest planned K is named below-left, the others above-right, stacked.
        ...planned.map((p, i) => {
          const left = i === 0 && planned.length > 1;
          return Plot.text([p], {
            x: "documents",
            y: "halfWidth",
            dx: left ? -10 : 10,
            dy: left ? 16 : -12 - 14 * Math.max(0, i - 1),
            textAnchor: left ? "end" : "start",
            text: () => name(p),
            fill: p.estimands.length > 1 ? "#1a1a1a" : color(p.estimands[0] as Estimand),
            fontWeight: "bold",
          });
        }),
        // Each line is named at its right end.
        Plot.text(ends, {
          x: "documents",
          y: "halfWidth",
          dx: 6,
          textAnchor: "start",
          text: "text",
          fill: (p: { estimand: Estimand }) => color(p.estimand),
        }),
      ],
    },
  });
}
