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
    lede: `the smallest K with t(1 − α/2; K − 1)·S/√K·√(1 − K/M) ≤ w, for ${plan.estimands.join(" and ")}`,
    body: body.join("\n"),
    version: report.version,
  });
}
