import type { DocumentStats } from "../../core/types.js";
import { type SimulationReport, simulationBlocks } from "../simulationReport.js";
import { blocksToHtml } from "./blocksToHtml.js";
import { coverageFigure } from "./coverageFigure.js";
import { escapeHtml } from "./escapeHtml.js";
import { htmlPage } from "./pageShell.js";
import { type AggregatesDownload, provenanceSection } from "./provenanceSection.js";
import { widthFigure } from "./widthFigure.js";

export interface SimulateHtmlInput {
  readonly report: SimulationReport;
  readonly census: DocumentStats;
  readonly aggregates: AggregatesDownload;
}

/** The page of `ragci simulate --html`: coverage and width per method and K, then the tables. */
export function simulateHtml(input: SimulateHtmlInput): string {
  const { report } = input;
  const blocks = simulationBlocks(report);
  const title = blocks.find((b) => b.kind === "title");
  const c = report.census;
  const estimands = (["micro", "macro"] as const).filter((e) =>
    Object.keys(report.studies[0]?.methods ?? {}).some((k) => k.startsWith(`${e}/`)),
  );
  const figures = estimands.flatMap((e) => [
    `<h3>${escapeHtml(e)}</h3>`,
    coverageFigure({ id: `${e}-coverage`, report, estimand: e }),
    widthFigure({ id: `${e}-width`, report, estimand: e }),
  ]);
  return htmlPage({
    title: title?.kind === "title" ? title.text : "ragci simulate",
    lede: `a coverage study on the census: every interval scored against the census value (micro ${report.truth.micro.toPrecision(4)}, macro ${report.truth.macro.toPrecision(4)})`,
    body: [
      '<section id="coverage"><h2>Coverage and width</h2>',
      ...figures,
      "</section>",
      '<section id="tables"><h2>The study in numbers</h2>',
      blocksToHtml(blocks, "simulation"),
      "</section>",
      provenanceSection({
        inputs: [
          {
            file: c.file,
            sha256: c.sha256,
            detail: `census, ${c.kind}, ${c.documents} documents, ${c.results} results`,
          },
        ],
        aggregates: input.aggregates,
        digests: [],
        rerun:
          c.pair === null
            ? `Re-run the study from it: ragci simulate ${input.aggregates.fileName} --aggregated --metric ${c.metric}${c.system === null ? "" : ` --system system=${c.system}`} with the same --k, --reps, --replicates and --seed (the draws depend only on the documents, in id order, and the seed).`
            : null,
        notes: [],
      }),
    ].join("\n"),
    version: report.version,
  });
}
