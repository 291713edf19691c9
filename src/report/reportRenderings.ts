import { RagciError } from "../core/errors.js";
import type { AnalysisReport } from "./analysisReport.js";
import { comparisonReportJson } from "./comparisonJson.js";
import { comparisonMarkdown } from "./comparisonMarkdown.js";
import type { ComparisonReport } from "./comparisonReport.js";
import { comparisonTerminal } from "./comparisonTerminal.js";
import { analysisReportJson } from "./json.js";
import { analysisReportMarkdown } from "./markdown.js";
import { type PlanReport, planJson, planMarkdown, planTerminal } from "./planReport.js";
import {
  type FacetSimulationReport,
  facetSimulationJson,
  facetSimulationMarkdown,
  facetSimulationTerminal,
} from "./simulationFacetsReport.js";
import {
  type SimulationReport,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "./simulationReport.js";
import { type StrataReport, strataJson, strataMarkdown, strataTerminal } from "./strataReport.js";
import { analysisReportTerminal, type TerminalOptions } from "./terminal.js";

/**
 * A report of analyze (`analyzeSource`), compare (`compareSource`), plan (`planSample`, with
 * `planSizeStratified` and `facetPilotPlan` when asked), strata (`sizeStrataDesign`) or simulate
 * (`simulateSource`, on a census or a faceted pilot): what the three renderers below take, each
 * told apart by the field only it has.
 */
export type RagciReport =
  | AnalysisReport
  | ComparisonReport
  | PlanReport
  | StrataReport
  | SimulationReport
  | FacetSimulationReport;

/** Each command's renderings, chosen by the report's own shape. */
function renderingsOf(report: RagciReport) {
  if ("entries" in report)
    return {
      json: () => analysisReportJson(report),
      markdown: () => analysisReportMarkdown(report),
      terminal: (o: TerminalOptions) => analysisReportTerminal(report, o),
    };
  if ("metrics" in report)
    return {
      json: () => comparisonReportJson(report),
      markdown: () => comparisonMarkdown(report),
      terminal: (o: TerminalOptions) => comparisonTerminal(report, o),
    };
  if ("study" in report)
    return {
      json: () => facetSimulationJson(report),
      markdown: () => facetSimulationMarkdown(report),
      terminal: () => facetSimulationTerminal(report),
    };
  if ("studies" in report)
    return {
      json: () => simulationJson(report),
      markdown: () => simulationMarkdown(report),
      terminal: () => simulationTerminal(report),
    };
  if ("plan" in report)
    return {
      json: () => planJson(report),
      markdown: () => planMarkdown(report),
      terminal: () => planTerminal(report),
    };
  if (!("design" in report && "file" in report))
    throw new RagciError(
      "invalid-option",
      "not a report ragci renders: give analyzeSource's, compareSource's or simulateSource's report, { version, plan, stratified } or { version, file, system, design, sample }",
    );
  return {
    json: () => strataJson(report),
    markdown: () => strataMarkdown(report),
    terminal: () => strataTerminal(report),
  };
}

/**
 * The report as the command's `--json` writes it, as an object: analyze's, compare's, plan's,
 * strata's or simulate's shape (schemas/*.v2.json; `JSON.stringify(…, null, 2)` plus a newline
 * is the command's text).
 *
 * @throws RagciError for an object that is none of the five reports (as do the two below)
 *
 * @example // one analysis of the four documents of the cr2 example
 *   reportJson({ command: "ragci analyze", version: "0.1.0", inputs: [], entries: [{ metric: "hit", system: null, analysis: analyze(documentStats({ ids: ["a", "b", "c", "d"], n: [2, 3, 5, 4], s: [1, 3, 2, 1] }), { replicates: 0 }), aggregatesSha256: "" }], aggregatesFile: null, summation: "exact", notices: [] }).schema
 *   // => "ragci/schemas/analyze.v2.json"
 */
export function reportJson(report: RagciReport): Record<string, unknown> {
  return renderingsOf(report).json();
}

/**
 * The report as the command prints it to a terminal (ANSI colour when `options.color`).
 *
 * @example // a plan for ±0.05 from a standard deviation of 0.4 between documents; its first line
 *   terminalReport({ version: "0.1.0", plan: planSample({ sd: { macro: 0.4 }, halfWidth: 0.05, population: null, level: 0.95, source: { kind: "given" } }), stratified: null }, { color: false }).split("\n")[0]
 *   // => "ragci plan · S given · half-width 0.05 at 95% · no fpc"
 */
export function terminalReport(report: RagciReport, options: TerminalOptions): string {
  return renderingsOf(report).terminal(options);
}

/**
 * The report as the command's `--markdown` writes it.
 *
 * @example // strata of a six-document census split at 5 results, for K = 4; its third line
 *   markdownReport({ version: "0.1.0", file: "census.csv", system: null, design: sizeStrataDesign(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [1, 2, 3, 10, 20, 30], s: [1, 1, 2, 5, 10, 20] }), 4, 5), sample: null }).split("\n")[2]
 *   // => "cutoff 5: 3 documents have more than 5 results and hold 91% of all results"
 */
export function markdownReport(report: RagciReport): string {
  return renderingsOf(report).markdown();
}
