// DeepEval test runs as DeepEval saves them: TestRun.model_dump(by_alias=True) in
// `.deepeval/.latest_run_full.json` and `test_run_<timestamp>.json` (results_folder), or wrapped
// as { testRunData: TestRun } in `.deepeval/.latest_test_run.json`. TestRun: testCases[] and
// conversationalTestCases[] ({ name, success, order, metadata, metricsData: [MetricData { name,
// score, success, error, ... }] }), identifier, hyperparameters, testPassed, metricsScores.
// snake_case names (test_cases, metrics_data) are accepted for dumps made without by_alias.
// Verified against confident-ai/deepeval a2e0d4cfd3118352d321c1c84bdeba17d4a201bc:
// deepeval/test_run/test_run.py (TestRun, save_test_run), deepeval/test_run/api.py
// (LLMApiTestCase, ConversationalApiTestCase), deepeval/tracing/api.py (MetricData),
// deepeval/test_case/api.py (default names test_case_<order>), deepeval/evaluate/local_store.py.
// Traced runs (evals_iterator, the integrations) put a TraceApi in each case's `trace`:
// metricsData of trace-level metrics (deepeval/tracing/api.py TraceApi.metrics_data; each is
// also appended to the case's metricsData by update_metric_data, deepeval/evaluate/execute/
// agentic.py and trace_scope.py) and five span lists baseSpans, agentSpans, llmSpans,
// retrieverSpans, toolSpans (BaseApiSpan { name, metricsData }), whose metrics are only there.
import { basename, extname } from "node:path";
import { RagciError } from "../../core/errors.js";
import {
  docFieldMissing,
  type EvalContent,
  type EvalFormat,
  type EvalReadOptions,
  type EvalRow,
  type EvalRows,
  finiteNumber,
  isJsonObject,
  type JsonObject,
  valueAtPath,
} from "./evalRows.js";

const list = (o: JsonObject, ...keys: string[]): JsonObject[] => {
  for (const k of keys) if (Array.isArray(o[k])) return (o[k] as unknown[]).filter(isJsonObject);
  return [];
};

const casesOf = (run: JsonObject): JsonObject[] => [
  ...list(run, "testCases", "test_cases"),
  ...list(run, "conversationalTestCases", "conversational_test_cases"),
];

const metricsDataOf = (c: JsonObject): JsonObject[] => list(c, "metricsData", "metrics_data");

const traceOf = (c: JsonObject): JsonObject | null => (isJsonObject(c.trace) ? c.trace : null);

/** TraceApi's span lists (deepeval/tracing/api.py), by alias and by field name. */
const SPAN_LISTS = [
  ["baseSpans", "base_spans", "base"],
  ["agentSpans", "agent_spans", "agent"],
  ["llmSpans", "llm_spans", "llm"],
  ["retrieverSpans", "retriever_spans", "retriever"],
  ["toolSpans", "tool_spans", "tool"],
] as const;

/** A TestRun: test cases carrying metricsData or a trace, or the run's own summary fields. */
function testRun(content: EvalContent): JsonObject | null {
  if (content.kind !== "json" || !isJsonObject(content.value)) return null;
  const run = isJsonObject(content.value.testRunData) ? content.value.testRunData : content.value;
  const hasCases = ["testCases", "test_cases", "conversationalTestCases"].some((k) =>
    Array.isArray(run[k]),
  );
  if (!hasCases) return null;
  const summary = ["metricsScores", "metrics_scores", "testPassed", "test_passed"].some(
    (k) => k in run,
  );
  return summary ||
    casesOf(run).some((c) => Array.isArray(c.metricsData ?? c.metrics_data) || traceOf(c))
    ? run
    : null;
}

/** One case's metrics: its own, its trace's, and its spans' as `<span name>/<metric>`. */
interface CaseMetrics {
  readonly metrics: Record<string, number | null>;
  /** Span metrics found in several spans of this case (averaged), with how many. */
  readonly repeated: Map<string, number>;
  readonly errored: number;
}

function caseMetrics(c: JsonObject, file: string, caseName: string): CaseMetrics {
  const metrics: Record<string, number | null> = {};
  let errored = 0;
  const put = (name: string, m: JsonObject) => {
    if (typeof m.error === "string") errored++;
    metrics[name] = finiteNumber(m.score);
    metrics[`${name}.success`] = finiteNumber(m.success);
  };
  for (const m of metricsDataOf(c)) {
    if (String(m.name) in metrics)
      throw new RagciError(
        "invalid-value",
        `${file}: test case ${caseName} scores ${m.name} twice in its metricsData; each metric needs one score per test case`,
        { file },
      );
    put(String(m.name), m);
  }
  const trace = traceOf(c);
  if (trace === null) return { metrics, repeated: new Map(), errored };
  // Trace-level metrics are copies of case-level ones (update_metric_data); read once.
  for (const m of metricsDataOf(trace)) {
    const name = String(m.name);
    if (!(name in metrics)) put(name, m);
    else if (metrics[name] !== finiteNumber(m.score))
      throw new RagciError(
        "invalid-value",
        `${file}: test case ${caseName} scores ${name} ${metrics[name]} in its metricsData and ${finiteNumber(m.score)} in its trace's; DeepEval writes one score per trace metric, so the file was changed or mixes runs`,
        { file },
      );
  }
  // Span metrics are named by their span, so they never merge with a case-level one nor with
  // another span's; one span name scored twice in a case (a loop) is averaged, with a note.
  const spans = new Map<string, { score: number[]; success: number[]; seen: number }>();
  for (const [alias, field, kind] of SPAN_LISTS)
    for (const span of list(trace, alias, field))
      for (const m of metricsDataOf(span)) {
        if (typeof m.error === "string") errored++;
        const spanName = typeof span.name === "string" && span.name !== "" ? span.name : kind;
        const name = `${spanName}/${m.name}`;
        const entry = spans.get(name) ?? { score: [], success: [], seen: 0 };
        const score = finiteNumber(m.score);
        const success = finiteNumber(m.success);
        if (score !== null) entry.score.push(score);
        if (success !== null) entry.success.push(success);
        entry.seen++;
        spans.set(name, entry);
      }
  const repeated = new Map<string, number>();
  const mean = (v: number[]) => (v.length ? v.reduce((a, b) => a + b, 0) / v.length : null);
  for (const [name, entry] of spans) {
    if (name in metrics)
      throw new RagciError(
        "invalid-value",
        `${file}: test case ${caseName} has a metric named ${name} and a span metric of that name; rename the metric or the span`,
        { file },
      );
    metrics[name] = mean(entry.score);
    metrics[`${name}.success`] = mean(entry.success);
    if (entry.seen > 1) repeated.set(name, entry.seen);
  }
  return { metrics, repeated, errored };
}

/** The run's identifier, else hyperparameters.model, else the file's base name. */
function systemOf(run: JsonObject, file: string): { system: string; from: string } {
  if (typeof run.identifier === "string" && run.identifier !== "")
    return { system: run.identifier, from: "the run's identifier" };
  const model = isJsonObject(run.hyperparameters) ? run.hyperparameters.model : undefined;
  if (typeof model === "string" && model !== "")
    return { system: model, from: "hyperparameters.model" };
  return { system: basename(file, extname(file)), from: "the file's name" };
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  const run = testRun(content);
  if (!run)
    throw new RagciError(
      "invalid-value",
      `${file}: not a DeepEval test run (no testCases with metricsData); pass the test_run_*.json or .deepeval/.latest_run_full.json file`,
      { file },
    );
  const cases = casesOf(run);
  if (cases.length === 0)
    throw new RagciError("empty-input", `${file}: the DeepEval test run holds no test cases`, {
      file,
    });
  if (options.docPath === null) {
    const first = cases[0] as JsonObject;
    const fields = [
      ...Object.keys(first).filter((k) => typeof first[k] === "string"),
      ...Object.keys(isJsonObject(first.metadata) ? first.metadata : {}).map(
        (k) => `metadata.${k}`,
      ),
    ];
    throw docFieldMissing(file, "metadata.source_doc", {
      what: "fields seen in the first item",
      fields,
    });
  }
  const path = options.docPath;
  const { system, from } = systemOf(run, file);
  // Names pair test cases across runs (goldens keep theirs; default test_case_<order>);
  // a name used twice in one run is told apart by the case's order.
  const counts = new Map<string, number>();
  for (const c of cases) counts.set(String(c.name), (counts.get(String(c.name)) ?? 0) + 1);
  const perCase = cases.map((c, i) => {
    const name = String(c.name);
    const repeated = (counts.get(name) ?? 0) > 1;
    const query = repeated ? `${name}#${c.order ?? i}` : name;
    return { c, query, read: caseMetrics(c, file, query) };
  });
  const names = new Set(
    perCase.flatMap((p) => Object.keys(p.read.metrics).filter((n) => !n.endsWith(".success"))),
  );
  const missing = new Map<string, number>();
  const averaged = new Map<string, { cases: number; most: number }>();
  let errored = 0;
  const rows: EvalRow[] = perCase.map(({ c, query, read }) => {
    const metrics: Record<string, number | null> = { success: finiteNumber(c.success) };
    for (const n of names) metrics[n] = null;
    Object.assign(metrics, read.metrics);
    errored += read.errored;
    for (const n of names) if (metrics[n] === null) missing.set(n, (missing.get(n) ?? 0) + 1);
    for (const [n, k] of read.repeated) {
      const a = averaged.get(n) ?? { cases: 0, most: 0 };
      averaged.set(n, { cases: a.cases + 1, most: Math.max(a.most, k) });
    }
    return { query, doc: valueAtPath(c, path), system, metrics };
  });
  const notes = [
    `DeepEval: each test case (name) is a query; the system is ${from} (${system}); metrics are each metric's score, <metric>.success and the case's success (pass = 1); a trace's span metrics are <span name>/<metric>`,
  ];
  for (const [n, a] of averaged)
    notes.push(
      `DeepEval: ${n} scores several spans of one test case (${a.cases} cases, up to ${a.most} spans); each case's value is their mean`,
    );
  const repeats = [...counts.values()].filter((n) => n > 1).length;
  if (repeats > 0)
    notes.push(
      `DeepEval: ${repeats} test case names repeat in ${file}; those cases are named <name>#<order>`,
    );
  for (const [n, k] of missing)
    notes.push(`DeepEval: metric ${n} has no score for ${k} test cases in ${file}`);
  if (errored > 0) notes.push(`DeepEval: ${errored} metric results in ${file} ended in an error`);
  return { rows, notes };
}

export const deepevalFormat: EvalFormat = {
  name: "deepeval",
  detect: (content) => testRun(content) !== null,
  toRows,
};
