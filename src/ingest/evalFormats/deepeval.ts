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

/** A TestRun: test cases carrying metricsData, or the run's own summary fields. */
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
  return summary || casesOf(run).some((c) => Array.isArray(c.metricsData ?? c.metrics_data))
    ? run
    : null;
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
  const names = new Set(cases.flatMap((c) => metricsDataOf(c).map((m) => String(m.name))));
  const missing = new Map<string, number>();
  let errored = 0;
  const rows: EvalRow[] = cases.map((c, i) => {
    const name = String(c.name);
    const metrics: Record<string, number | null> = { success: finiteNumber(c.success) };
    for (const n of names) metrics[n] = null;
    for (const m of metricsDataOf(c)) {
      if (typeof m.error === "string") errored++;
      metrics[String(m.name)] = finiteNumber(m.score);
      metrics[`${m.name}.success`] = finiteNumber(m.success);
    }
    for (const n of names) if (metrics[n] === null) missing.set(n, (missing.get(n) ?? 0) + 1);
    const repeated = (counts.get(name) ?? 0) > 1;
    return {
      query: repeated ? `${name}#${c.order ?? i}` : name,
      doc: valueAtPath(c, path),
      system,
      metrics,
    };
  });
  const notes = [
    `DeepEval: each test case (name) is a query; the system is ${from} (${system}); metrics are each metric's score, <metric>.success and the case's success (pass = 1)`,
  ];
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
