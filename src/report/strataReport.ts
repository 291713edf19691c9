import type { SizeStrataDesign } from "../core/designs/sizeStrataDesign.js";
import { percent, significant } from "./format.js";
import { blocksToMarkdown, blocksToTerminal, type ReportBlock } from "./reportBlocks.js";

/** The `schema` of `ragci strata --json`: the package path of its JSON Schema. */
export const STRATA_SCHEMA = "ragci/schemas/strata.v2.json";

export interface StrataReport {
  readonly version: string;
  readonly file: string;
  /** The system filter, as "column value", when one was used. */
  readonly system: string | null;
  readonly design: SizeStrataDesign;
  /** Where the sample was written (and how it was drawn), or null. */
  readonly sample: {
    readonly path: string;
    readonly seed: number;
    readonly allocation: string;
  } | null;
  /** Where the sample's design file was written (each stratum's M_h), or null. */
  readonly designFile?: string | null;
}

/** strata's JSON: the census, the cutoff, the strata, SRS's se and each allocation's. */
export function strataJson(report: StrataReport): Record<string, unknown> {
  const d = report.design;
  const [large] = d.strata;
  return {
    schema: STRATA_SCHEMA,
    command: "ragci strata",
    ragci: report.version,
    file: report.file,
    system: report.system,
    documents: d.documents,
    population: d.population,
    results: d.results,
    cutoff: d.cutoff,
    cutoffProposed: d.cutoffProposed,
    strata: d.strata.map((h) => ({ name: h.name, documents: h.documents.length })),
    shareOfResultsAbove: large.results / d.results,
    srs: d.srs,
    allocations: d.allocations.map((r) => ({
      rule: r.rule,
      estimand: r.estimand ?? null,
      sampled: Object.fromEntries(d.strata.map((h, i) => [h.name, r.sampled[i]])),
      predicted: r.predicted,
    })),
    sample: report.sample?.path ?? null,
    designFile: report.designFile ?? null,
  };
}

export function strataTerminal(report: StrataReport): string {
  return blocksToTerminal(strataBlocks(report));
}

export function strataMarkdown(report: StrataReport): string {
  return blocksToMarkdown(strataBlocks(report));
}

export function strataBlocks(report: StrataReport): ReportBlock[] {
  const d = report.design;
  const [large] = d.strata;
  const rows: string[][] = [
    ["design", "large", "small", "se micro", "se macro"],
    ["SRS", "", "", significant(d.srs.micro), significant(d.srs.macro)],
  ];
  for (const r of d.allocations)
    rows.push([
      r.estimand ? `${r.rule} (${r.estimand} S_h)` : r.rule,
      String(r.sampled[0]),
      String(r.sampled[1]),
      significant(r.predicted.micro),
      significant(r.predicted.macro),
    ]);
  const sample = report.sample;
  return [
    {
      kind: "title",
      text: `ragci strata ${report.file}${report.system ? ` · ${report.system}` : ""} · census of ${d.population} documents, ${d.results} results · K = ${d.documents}`,
    },
    {
      kind: "text",
      text: `cutoff ${d.cutoff}${d.cutoffProposed ? " (proposed: smallest predicted micro se under Neyman)" : ""}: ${large.documents.length === 1 ? "1 document has" : `${large.documents.length} documents have`} more than ${d.cutoff} results and ${large.documents.length === 1 ? "holds" : "hold"} ${percent(large.results / d.results)} of all results`,
    },
    { kind: "table", rows, align: ["l", "r", "r", "r", "r"] },
    {
      kind: "bullets",
      items: [
        "Predicted from the census with the stratified estimators (combined ratio for micro); the strata are fixed and documents are drawn by SRS inside each.",
        "Neyman allocates on each estimand's own S_h, so it has a row for each: the micro row is best for micro's se, the macro row for macro's (as in ragci plan --cutoff); --write-sample with neyman uses the micro row.",
        ...d.strata
          .filter((h) => h.documents.length === 1)
          .map(
            (h) =>
              `The ${h.name} stratum holds one document, which every allocation takes whole (a certainty stratum): it is in every sample and adds no sampling variance; the design's ν is K − 2 = ${d.documents - 2}.`,
          ),
        "Stratifying makes each document count more; it does not replace having more documents.",
        ...(sample
          ? [
              `sample written to ${sample.path} (seed ${sample.seed}, ${sample.allocation} allocation)`,
            ]
          : []),
        ...(report.designFile
          ? [
              `design written to ${report.designFile} (each stratum's M_h): once the sample is labelled, ragci analyze it with --design ${report.designFile}; its stratum column is the design's`,
            ]
          : []),
      ],
    },
  ];
}
