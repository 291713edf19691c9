// promptfoo's `-o results.json` is its OutputFile { evalId, results: EvaluateSummaryV3 (or V2),
// config, shareableUrl, metadata, runtimeOptions }; `-o results.jsonl` writes one
// EvaluateResult per line. EvaluateResult: promptIdx, testIdx, testCase (AtomicTestCase: vars,
// metadata), provider { id, label }, prompt { label }, promptId, vars, success, score,
// namedScores, failureReason, metadata.
// Checked against promptfoo 0.123.1's npm package (dist/src/index.d.ts: OutputFile,
// EvaluateSummaryV3, EvaluateResult, ResultFailureReason; its evaluator's buildRunEvalOptions
// and appendRunEvalOptionsForTestCase, which number testIdx over tests × repeats × var
// combinations and promptIdx over provider × prompt columns) and on files it wrote
// (test/fixtures/realTools/promptfoo).
import { optionRef, RagciError } from "../../core/errors.js";
import {
  averagedRows,
  docFieldMissing,
  type EvalContent,
  type EvalFormat,
  type EvalReadOptions,
  type EvalRows,
  finiteNumber,
  type TrialScores,
  toolFacets,
  valueAtPath,
} from "./evalRows.js";
import { FacetRows } from "./facetRows.js";

type Item = Record<string, unknown>;

const isObject = (v: unknown): v is Item => v !== null && typeof v === "object";

/** promptfoo's ResultFailureReason.ERROR (NONE 0, ASSERT 1): the provider failed, nothing was graded. */
const PROVIDER_ERROR = 2;

/** An EvaluateResult: a test index and a provider are what set it apart from other tools. */
function isResult(v: unknown): v is Item {
  return isObject(v) && typeof v.testIdx === "number" && isObject(v.provider);
}

/** The results of a promptfoo file, and its --repeat count when the file records it. */
interface PromptfooRun {
  readonly results: readonly unknown[];
  /** OutputFile.runtimeOptions.repeat (or config.evaluateOptions.repeat); null in JSONL. */
  readonly repeat: number | null;
}

function positiveInteger(v: unknown): number | null {
  return typeof v === "number" && Number.isInteger(v) && v >= 1 ? v : null;
}

function run(content: EvalContent): PromptfooRun | null {
  if (content.kind === "jsonl")
    return content.values.every(isResult) ? { results: content.values, repeat: null } : null;
  if (content.kind !== "json" || !isObject(content.value)) return null;
  const file = content.value;
  const summary = file.results;
  if (!isObject(summary) || !Array.isArray(summary.results)) return null;
  if (summary.results.length > 0 && !summary.results.some(isResult)) return null;
  const runtime = isObject(file.runtimeOptions) ? file.runtimeOptions : {};
  const config = isObject(file.config) ? file.config : {};
  const evaluate = isObject(config.evaluateOptions) ? config.evaluateOptions : {};
  // A file that records neither ran without --repeat only if it has runtimeOptions at all.
  const repeat =
    positiveInteger(runtime.repeat) ??
    positiveInteger(evaluate.repeat) ??
    (isObject(file.runtimeOptions) ? 1 : null);
  return { results: summary.results, repeat };
}

/** The --doc path on the result, else on its test case (`metadata.x` is in either). */
function documentOf(item: Item, path: readonly string[]): string | null {
  return valueAtPath(item, path) ?? valueAtPath(item.testCase, path);
}

function providerName(item: Item): string {
  const provider = item.provider as Item;
  const name = provider.label ?? provider.id;
  return typeof name === "string" && name !== "" ? name : "provider";
}

/**
 * Which prompt template a result used: promptId (a hash of the template; promptIdx numbers
 * promptfoo's columns, provider × prompt, so it differs between providers of one prompt).
 */
function promptKey(item: Item): string {
  if (typeof item.promptId === "string" && item.promptId !== "") return item.promptId;
  return promptName(item);
}

function promptName(item: Item): string {
  const prompt = isObject(item.prompt) ? item.prompt : {};
  const label = prompt.label ?? prompt.id;
  if (typeof label === "string" && label !== "") return label;
  return typeof item.promptId === "string" ? `prompt ${item.promptId.slice(0, 8)}` : "prompt";
}

/**
 * Which test a result answers, the same for all its repeats. promptfoo numbers its rows
 * (testIdx) over tests × repeats × var combinations and records no repeat index, so repeats
 * are told by their test case: the same vars, description and metadata.
 */
function testKey(item: Item): string {
  const test = isObject(item.testCase) ? item.testCase : {};
  return JSON.stringify([
    test.description ?? null,
    item.vars ?? test.vars ?? null,
    test.metadata ?? null,
  ]);
}

/**
 * A testIdx read twice in one system. promptfoo gives every result of a column (promptIdx: a
 * provider × prompt) its own testIdx, repeats included: twice in one column, the file holds
 * one result twice (the same id) or results of two runs; in two columns, the columns' providers
 * (or prompts) have one name.
 */
function testSeenTwice(
  file: string,
  at: { readonly system: string; readonly testIdx: number; readonly prompts: number },
  first: Item,
  second: Item,
): RagciError {
  const head = `${file}: testIdx ${at.testIdx} of system ${at.system} appears twice`;
  const column = first.promptIdx;
  if (typeof column === "number" && column === second.promptIdx) {
    const same = typeof first.id === "string" && first.id === second.id;
    return new RagciError(
      "invalid-value",
      `${head} in promptfoo's column promptIdx ${column}${same ? `, as the same result (id ${first.id})` : ", as two results"}; promptfoo gives each result of a column its own testIdx (repeats too), so the file holds ${same ? "a result twice" : "results of more than one run"}: keep one run's results, each once`,
      { file },
    );
  }
  const columns =
    typeof column === "number" && typeof second.promptIdx === "number"
      ? ` (promptfoo's columns promptIdx ${column} and ${second.promptIdx})`
      : "";
  return new RagciError(
    "invalid-value",
    `${head}${columns}; give the providers${at.prompts > 1 ? " and prompts" : ""} distinct labels so that each result belongs to one system`,
    { file },
  );
}

/** One test's trials in one system as they are read, with the testIdx of each. */
interface GatheredTest extends TrialScores {
  readonly values: Map<string, number[]>;
  readonly rows: number[];
}

/** How many times promptfoo ran a result's test: its own options.repeat, else the run's. */
function repeatsOf(item: Item, run: number | null): number | null {
  const test = isObject(item.testCase) ? item.testCase : {};
  const own = isObject(test.options) ? positiveInteger(test.options.repeat) : null;
  return own ?? run;
}

function requireDoc(items: readonly Item[], options: EvalReadOptions): readonly string[] {
  if (options.docPath !== null) return options.docPath;
  const first = items[0] as Item;
  const fields = [
    ...Object.keys(isObject(first.vars) ? first.vars : {}).map((k) => `vars.${k}`),
    ...Object.keys(isObject(first.metadata) ? first.metadata : {}).map((k) => `metadata.${k}`),
  ];
  throw docFieldMissing(options.file, `vars.article or ${optionRef("doc")} metadata.source_doc`, {
    what: "fields of the first result",
    fields,
  });
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const found = run(content);
  const items = (found?.results ?? []).filter(isResult);
  const repeat = found?.repeat ?? null;
  if (items.length === 0)
    throw new RagciError("empty-input", `${options.file}: the promptfoo results hold no results`, {
      file: options.file,
    });
  const path = requireDoc(items, options);
  const keepErrors = options.errors === "failures";
  // A system is the provider; with several prompts, each provider × prompt is one (promptfoo's columns).
  const prompts = new Map<string, string>();
  for (const item of items) prompts.set(promptKey(item), promptName(item));
  const systemOf = (item: Item) =>
    prompts.size > 1 ? `${providerName(item)} · ${promptName(item)}` : providerName(item);
  // The item of a result: its testIdx when the file says each test ran once; else its test
  // case, named by its first testIdx so that every system's repeats of one test pair up.
  const byTestIdx = items.every((i) => repeatsOf(i, repeat) === 1);
  const ownRepeats = items.some((i) => repeatsOf(i, null) !== null);
  const firstRow = new Map<string, number>();
  if (!byTestIdx)
    for (const item of items) {
      const key = testKey(item);
      firstRow.set(
        key,
        Math.min(firstRow.get(key) ?? Number.POSITIVE_INFINITY, item.testIdx as number),
      );
    }
  const queryOf = (item: Item) => String(byTestIdx ? item.testIdx : firstRow.get(testKey(item)));
  const named = new Set(
    items.flatMap((i) => Object.keys(isObject(i.namedScores) ? i.namedScores : {})),
  );
  const trials = new Map<string, GatheredTest>();
  // With the trial facet, each repeat is a row of its own, numbered 1, 2, … in testIdx order.
  const facets = toolFacets(options, "promptfoo", { trial: ["repeat"], judge: ["grader"] });
  const keep = facets.trial;
  const judges = facets.judge ? graderJudges(items, options.file) : null;
  const graderErrors = { errors: 0, total: 0 };
  const kept = new FacetRows(options.file);
  const seen = new Map<string, Item>();
  const errors = new Map<string, number>();
  const total = new Map<string, number>();
  for (const item of items) {
    const system = systemOf(item);
    const query = queryOf(item);
    const testIdx = item.testIdx as number;
    const at = JSON.stringify([system, testIdx]);
    const first = seen.get(at);
    if (first !== undefined)
      throw testSeenTwice(options.file, { system, testIdx, prompts: prompts.size }, first, item);
    seen.set(at, item);
    total.set(system, (total.get(system) ?? 0) + 1);
    const error = item.failureReason === PROVIDER_ERROR;
    if (error) errors.set(system, (errors.get(system) ?? 0) + 1);
    if (error && !keepErrors) continue;
    const key = JSON.stringify([system, query]);
    let trial = trials.get(key);
    const doc = documentOf(item, path);
    if (trial === undefined) {
      trial = { query, doc, system, values: new Map(), rows: [] };
      trials.set(key, trial);
    } else if (trial.doc !== doc)
      throw new RagciError(
        "invalid-value",
        `${options.file}: testIdx ${trial.rows[0]} and ${testIdx} of system ${system} have the same test case but documents ${trial.doc} and ${doc} at ${optionRef("doc")} ${path.join(".")}; name a field that is the same for every repeat of a test`,
        { file: options.file },
      );
    const limit = repeatsOf(item, repeat);
    if (limit !== null && trial.rows.length >= limit)
      throw new RagciError(
        "invalid-value",
        `${options.file}: testIdx ${[...trial.rows, testIdx].join(", ")} of system ${system} have the same vars, description and metadata, more than the ${limit} repeats promptfoo ran; ragci cannot tell them apart: give each test a distinct var (e.g. an id)`,
        { file: options.file },
      );
    trial.rows.push(testIdx);
    if (judges !== null) {
      // Each grader's grade is a row of its own (judge = the grader), the repeats kept or averaged.
      const at = { system, query, doc, trial: keep ? String(trial.rows.length) : null };
      const file = options.file;
      for (const grade of gradesOf(item, error, judges, { file, keepErrors }, graderErrors))
        if (grade !== null) kept.add({ ...at, judge: grade.judge }, grade.metric, grade.value);
      continue;
    }
    // A provider error kept as a failure: promptfoo's own score 0 and success false, and each
    // named score 0 (no assertion ran, so promptfoo records none).
    const scores = isObject(item.namedScores) ? item.namedScores : {};
    const metrics: [string, number | null][] = [
      ["score", error ? 0 : finiteNumber(item.score)],
      ["success", error ? 0 : finiteNumber(item.success)],
      ...[...named].map((n): [string, number | null] => [n, error ? 0 : finiteNumber(scores[n])]),
    ];
    for (const [name, value] of metrics) {
      if (keep) {
        const at = { system, query, doc, trial: String(trial.rows.length), judge: null };
        kept.add(at, name, value);
        continue;
      }
      const values = trial.values.get(name) ?? [];
      if (value !== null) values.push(value);
      trial.values.set(name, values);
    }
  }
  if (trials.size === 0)
    throw new RagciError(
      "empty-input",
      `${options.file}: all ${items.length} promptfoo results are provider errors (failureReason 2); there is nothing to analyse`,
      { file: options.file },
    );
  return {
    rows: keep || judges !== null ? kept.rows() : averagedRows(trials.values()),
    notes: [
      ...systemNotes(prompts, judges !== null),
      ...(judges === null ? [] : graderNotes(judges, graderErrors, keepErrors)),
      ...repeatNotes(
        [...trials.values()].map((t) => t.rows.length),
        repeat,
        ownRepeats,
        keep,
      ),
      ...[...errors].map(([system, n]) => errorNote(system, n, total.get(system) ?? n, keepErrors)),
    ],
  };
}

/** A grading assertion of a result: componentResults[i] with the assertion it graded. */
interface Grade {
  readonly judge: string;
  readonly metric: string;
  readonly value: number | null;
}

/**
 * Who graded a component result: its assertion's grading provider (label, else id), else the
 * assertion's place in the test's list and its type. promptfoo's AssertionsResult keeps each
 * assertion's result in componentResults (flattening assert-sets), with the assertion itself.
 */
function graderOf(component: Item, index: number): string {
  const assertion = isObject(component.assertion) ? component.assertion : {};
  const provider = assertion.provider;
  if (typeof provider === "string" && provider !== "") return provider;
  if (isObject(provider)) {
    const name = provider.label ?? provider.id;
    if (typeof name === "string" && name !== "") return name;
  }
  const type = typeof assertion.type === "string" ? assertion.type : "assertion";
  return `assertion ${index + 1} (${type})`;
}

function metricOf(component: Item): string {
  const assertion = isObject(component.assertion) ? component.assertion : {};
  return typeof assertion.metric === "string" && assertion.metric !== ""
    ? assertion.metric
    : "score";
}

function componentsOf(item: Item): Item[] {
  const grading = isObject(item.gradingResult) ? item.gradingResult : {};
  return Array.isArray(grading.componentResults) ? grading.componentResults.filter(isObject) : [];
}

/** Every metric's judges in the file, to give a provider error kept as a failure to each. */
function graderJudges(items: readonly Item[], file: string): Map<string, Set<string>> {
  const judges = new Map<string, Set<string>>();
  for (const item of items)
    componentsOf(item).forEach((c, i) => {
      const metric = metricOf(c);
      const named = judges.get(metric) ?? new Set<string>();
      named.add(graderOf(c, i));
      judges.set(metric, named);
    });
  if (judges.size === 0)
    throw new RagciError(
      "invalid-option",
      `${file}: the promptfoo results have no grading results (gradingResult.componentResults), so there are no graders to read as judges; leave out ${optionRef("judge")}`,
      { file, option: "judge" },
    );
  return judges;
}

/**
 * A result's grades, one per (judge, metric). A grader error (metadata.graderError: the grading
 * provider failed, promptfoo records score 0) is no grade: left out, or a failure when errors
 * are kept as failures. A provider error was never graded: with errors kept, 0 from each judge.
 */
function gradesOf(
  item: Item,
  providerError: boolean,
  judges: ReadonlyMap<string, ReadonlySet<string>>,
  { file, keepErrors }: { readonly file: string; readonly keepErrors: boolean },
  count: { errors: number; total: number },
): (Grade | null)[] {
  if (providerError)
    return [...judges].flatMap(([metric, named]) =>
      [...named].map((judge) => ({ judge, metric, value: 0 })),
    );
  const seen = new Set<string>();
  return componentsOf(item).map((c, i) => {
    const judge = graderOf(c, i);
    const metric = metricOf(c);
    const at = JSON.stringify([judge, metric]);
    if (seen.has(at))
      throw new RagciError(
        "invalid-value",
        `${file}: testIdx ${item.testIdx}: two assertions of metric ${metric} are graded by ${judge}, which promptfoo averages; ragci counts each judge's grade once: give each assertion its own metric name or grading provider label`,
        { file, option: "judge" },
      );
    seen.add(at);
    count.total += 1;
    const failed = isObject(c.metadata) && c.metadata.graderError === true;
    if (failed) count.errors += 1;
    // A grade left out is no row: its (query, judge) cell is missing, as an unbalanced design's.
    if (failed && !keepErrors) return null;
    return { judge, metric, value: failed ? 0 : finiteNumber(c.score) };
  });
}

function graderNotes(
  judges: ReadonlyMap<string, ReadonlySet<string>>,
  errors: { errors: number; total: number },
  kept: boolean,
): string[] {
  const listed = [...judges]
    .map(([metric, named]) => `${metric} (${[...named].join(", ")})`)
    .join("; ");
  const notes = [
    `promptfoo: with ${optionRef("judge")} grader, each grading assertion is a judge (its grading provider's label, else its id, else its place and type), and a metric is the assertions' metric name (score without one): ${listed}; the result-level score, success and named scores, which average the judges, are not read`,
  ];
  if (errors.errors > 0)
    notes.push(
      `promptfoo: ${errors.errors} of ${errors.total} grades were grader errors (metadata.graderError: the grading provider failed and promptfoo recorded score 0), ${kept ? `kept as failures (${optionRef("errorsAsFailures")})` : `left out; ${optionRef("errorsAsFailures")} keeps them as failures`}`,
    );
  return notes;
}

function systemNotes(prompts: ReadonlyMap<string, string>, graders: boolean): string[] {
  // With graders as judges, the metrics are the graders' (graderNotes says which).
  const metrics = graders ? "" : "; metrics score, success (pass = 1) and the named scores";
  if (prompts.size <= 1)
    return [
      `promptfoo: each test is a query; systems are the providers (label, else id)${metrics}`,
    ];
  return [
    `promptfoo: each test is a query; the file has ${prompts.size} prompts (${[...prompts.values()].join(", ")}), so each provider × prompt is a system, named "provider · prompt label"${metrics}`,
  ];
}

function repeatNotes(
  trialCounts: readonly number[],
  repeat: number | null,
  ownRepeats: boolean,
  kept: boolean,
): string[] {
  const most = trialCounts.reduce((a, b) => Math.max(a, b), Number.NEGATIVE_INFINITY);
  if (most <= 1) return [];
  const source =
    repeat === null
      ? "the file does not record promptfoo's --repeat (JSONL does not): results whose test case (vars, description, metadata) is the same are read as repeats of one test"
      : `promptfoo ran each test ${repeat} times (--repeat ${repeat}${ownRepeats ? ", or the test's own options.repeat" : ""})`;
  return [
    `${source}; a test's repeats are trials of one query, ${kept ? "kept as trials 1, 2, … in testIdx order and averaged per query for the interval" : "averaged"} (up to ${most} per query)`,
  ];
}

function errorNote(system: string, n: number, total: number, kept: boolean): string {
  const what = `promptfoo: ${n} of ${total} items of system ${system} were provider errors (promptfoo's failureReason 2, which its summary counts as errors, not failures)`;
  return kept
    ? `${what}, kept as failures (${optionRef("errorsAsFailures")}): score 0 and success 0 as promptfoo records them, and each named score 0 (no assertion ran)`
    : `${what}, left out; ${optionRef("errorsAsFailures")} keeps them as failures`;
}

export const promptfooFormat: EvalFormat = {
  name: "promptfoo",
  detect: (content) => run(content) !== null,
  toRows,
};
