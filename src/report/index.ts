export type { AnalysisEntry, AnalysisReport, InputDescription } from "./analysisReport.js";
export {
  COMPARISON_SCHEMA,
  comparisonReportJson,
  formatComparisonJson,
} from "./comparisonJson.js";
export { comparisonMarkdown } from "./comparisonMarkdown.js";
export type { ComparisonReport, MetricComparisons } from "./comparisonReport.js";
export { comparisonTerminal } from "./comparisonTerminal.js";
export { gateAdjustment, gateJson } from "./gateJson.js";
export { gateAnnotations, gateStepSummary } from "./gateReport.js";
export { ANALYSIS_SCHEMA, analysisJson, formatReportJson, reportJson } from "./json.js";
export { jsonText } from "./jsonText.js";
export { markdownReport } from "./markdown.js";
export {
  PLAN_SCHEMA,
  type PlanReport,
  planJson,
  planMarkdown,
  planTerminal,
} from "./planReport.js";
export {
  SIMULATION_SCHEMA,
  type SimulationReport,
  simulationJson,
  simulationMarkdown,
  simulationTerminal,
} from "./simulationReport.js";
export {
  STRATA_SCHEMA,
  type StrataReport,
  strataJson,
  strataMarkdown,
  strataTerminal,
} from "./strataReport.js";
export { type TerminalOptions, terminalAnalysis, terminalReport } from "./terminal.js";
