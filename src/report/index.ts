export type { AnalysisEntry, AnalysisReport, InputDescription } from "./analysisReport.js";
export { ANALYSIS_SCHEMA, analysisJson, reportJson, formatReportJson } from "./json.js";
export { terminalReport, terminalAnalysis, type TerminalOptions } from "./terminal.js";
export { markdownReport } from "./markdown.js";
