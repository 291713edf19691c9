import type { SamplePlan } from "../../core/planning/samplePlan.js";
import { type PlanReport, planBlocks } from "../planReport.js";
import { blocksToHtml } from "./blocksToHtml.js";
import { escapeHtml } from "./escapeHtml.js";
import { halfWidthCurveFigure } from "./halfWidthCurveFigure.js";
import { htmlPage } from "./pageShell.js";
import { type AggregatesDownload, provenanceSection } from "./provenanceSection.js";

export interface PlanHtmlInput {
  readonly report: PlanReport;
  readonly aggregates: AggregatesDownload | null;
}

/** The rule this plan applied, as a formula: only the parts it used (w, power, the fpc). */
function planRule(plan: SamplePlan): string {
  const fpc = plan.population === null ? "" : "·√(1 − K/M)";
  const rules = [
    ...(plan.halfWidth === null ? [] : [`t(1 − α/2; K − 1)·S/√K${fpc} ≤ w = ${plan.halfWidth}`]),
    ...(plan.difference === null
      ? []
      : [
          `(t(1 − α/2; K − 1) + t(power; K − 1))·S/√K${fpc} ≤ |d| = ${Math.abs(plan.difference)}, power ${plan.power}`,
        ]),
  ];
  return `the smallest K with ${rules.join(", and with ")}, for ${plan.estimands.join(" and ")}${plan.population === null ? " (no finite-population correction: M not given)" : ` (M = ${plan.population})`}`;
}

/** The page of `ragci plan --html`: the plan's tables, the half-width curve, where S came from. */
export function planHtml(input: PlanHtmlInput): string {
  const { report } = input;
  const { plan } = report;
  const blocks = planBlocks(report);
  const title = blocks.find((b) => b.kind === "title");
  const source = plan.source;
  const from =
    source.kind === "given"
      ? "S was given (--sd), so nothing was read and no per-document data entered this plan."
      : `S is the ${source.difference ? `per-document difference ${source.difference.b} − ${source.difference.a} in ${source.difference.metric} of the` : ""} ${source.kind} ${source.file} (K = ${source.documents} documents)${source.kind === "pilot" ? "; a pilot's S is itself uncertain, so the planned K is too" : ""}.`;
  const body = [
    `<section id="plan"><h2>Plan</h2><p>${escapeHtml(from)}</p>`,
    halfWidthCurveFigure({ id: "plan-curve", plan }),
    blocksToHtml(blocks, "plan"),
    "</section>",
    source.kind === "given"
      ? ""
      : provenanceSection({
          inputs: [
            {
              file: source.file,
              sha256: source.sha256,
              detail: `${source.kind}, ${source.documents} documents`,
            },
          ],
          aggregates: input.aggregates,
          digests: [],
          rerun: null,
          notes: [],
        }),
  ];
  return htmlPage({
    title: title?.kind === "title" ? title.text : "ragci plan",
    lede: planRule(plan),
    body: body.join("\n"),
    version: report.version,
  });
}
