import type { DocumentStats } from "../../core/types.js";
import { type StrataReport, strataBlocks } from "../strataReport.js";
import { blocksToHtml } from "./blocksToHtml.js";
import { htmlPage } from "./pageShell.js";
import { type AggregatesDownload, provenanceSection } from "./provenanceSection.js";
import { strataAllocationFigure } from "./strataAllocationFigure.js";
import { strataSizesFigure } from "./strataSizesFigure.js";

export interface StrataHtmlInput {
  readonly report: StrataReport;
  readonly census: DocumentStats;
  readonly sha256: string;
  readonly aggregates: AggregatesDownload;
}

/** The page of `ragci strata --html`: the split, each allocation, the predicted se's. */
export function strataHtml(input: StrataHtmlInput): string {
  const { report } = input;
  const blocks = strataBlocks(report);
  const title = blocks.find((b) => b.kind === "title");
  const d = report.design;
  return htmlPage({
    title: title?.kind === "title" ? title.text : "ragci strata",
    lede: `size strata from a census: K = ${d.documents} of M = ${d.population} documents, split at ${d.cutoff} results`,
    body: [
      '<section id="strata"><h2>Size strata</h2>',
      strataSizesFigure({ id: "strata-sizes", census: input.census, design: d }),
      strataAllocationFigure({ id: "strata-allocations", design: d }),
      blocksToHtml(blocks, "strata"),
      "</section>",
      provenanceSection({
        inputs: [
          { file: report.file, sha256: input.sha256, detail: `census, ${d.population} documents` },
        ],
        aggregates: input.aggregates,
        digests: [],
        rerun: null,
        notes: report.sample ? [`The sample was written to ${report.sample.path}.`] : [],
      }),
    ].join("\n"),
    version: report.version,
  });
}
