export type { AnalysisEntry, AnalysisReport, InputDescription } from "./analysisReport.js";
export { ANALYSIS_SCHEMA, analysisJson, formatReportJson, reportJson } from "./json.js";
export { markdownReport } from "./markdown.js";
export { type TerminalOptions, terminalAnalysis, terminalReport } from "./terminal.js";
