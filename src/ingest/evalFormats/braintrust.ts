// Braintrust experiment rows (ExperimentEvent), as a JSON array, JSON lines (BTQL fmt jsonl) or
// the fetch API's { events: [...] }: id, experiment_id, input, output, expected, scores,
// metadata, span_id, root_span_id, span_parents, is_root, span_attributes { name, type },
// origin { object_type, id }. One trace (root_span_id) per item: the root span (is_root, or no
// span_parents) has input and metadata; since SDK commit 55da5f4 the scores are logged on the
// scorer child spans (type "score"), so a trace's scores are the root's, else its spans'.
// Verified against braintrustdata/braintrust-sdk a696a72395bb5829c8579af7e108c8c52745a685:
// generated_types.json (ExperimentEvent, SpanAttributes, ObjectReferenceNullish) and
// js/src/framework.ts (root "eval" span, scorer spans); braintrustdata/braintrust-ruby
// c116e4822f1c3567f9017245ba137ebf6f0fc6a0 lib/braintrust/models/fetch_experiment_events_response.rb.
// Items: the root's dataset record (origin.id, framework.ts runEvaluator's baseEvent) or its
// input, within its document (see queryOf); trials have no index in the rows.
// Not verifiable: the UI download's exact layout, and an experiment name in the rows (the
// schema has experiment_id only), so the system is the file's base name.
import { createHash } from "node:crypto";
import { basename, extname } from "node:path";
import { RagciError } from "../../core/errors.js";
import {
  docFieldMissing,
  type EvalContent,
  type EvalFormat,
  type EvalReadOptions,
  type EvalRows,
  finiteNumber,
  isJsonObject,
  type JsonObject,
  Trials,
  valueAtPath,
} from "./evalRows.js";

/** An experiment event: span ids and the experiment it belongs to set it apart. */
const isEvent = (v: unknown): v is JsonObject =>
  isJsonObject(v) &&
  typeof v.root_span_id === "string" &&
  typeof v.span_id === "string" &&
  "experiment_id" in v;

function events(content: EvalContent): JsonObject[] | null {
  const values =
    content.kind === "jsonl"
      ? content.values
      : content.kind === "json" && Array.isArray(content.value)
        ? content.value
        : content.kind === "json" &&
            isJsonObject(content.value) &&
            Array.isArray(content.value.events)
          ? content.value.events
          : null;
  return values && values.length > 0 && values.every(isEvent) ? values.filter(isEvent) : null;
}

const isRoot = (e: JsonObject): boolean =>
  e.is_root === true ||
  (e.is_root !== false && (!Array.isArray(e.span_parents) || e.span_parents.length === 0));

/**
 * The query: the dataset record the root was run from (origin.id, the same in every experiment
 * and trial run on that dataset), else its input within its document ("<doc>: <input>"), as
 * Braintrust pairs test cases across experiments and groups trials by input. Span ids are
 * unique per run, so they would pair nothing across experiments and split an item's trials.
 */
function queryOf(root: JsonObject, doc: string | null): string {
  const origin = root.origin;
  if (isJsonObject(origin) && origin.object_type === "dataset" && typeof origin.id === "string")
    return `dataset record ${origin.id}`;
  return `${doc ?? ""}: ${inputKey(root.input)}`;
}

/** An input as a query id: its canonical JSON, long ones shortened with a hash. */
function inputKey(input: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : isJsonObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical(v[k])]),
          )
        : v;
  const text = typeof input === "string" ? input : JSON.stringify(canonical(input ?? null));
  if (text.length <= 120) return text;
  // A long input (a whole document) keeps a readable start and a hash that keeps it unique.
  return `${text.slice(0, 60)}… #${createHash("sha256").update(text).digest("hex").slice(0, 12)}`;
}

/**
 * A root span given twice (one span_id) is one result twice, not a trial: each trial is a root
 * span of its own (runEvaluator queues each datum once per trialIndex < trialCount and starts
 * an "eval" root span for each; npm braintrust 3.35.0, dist/index.js), and averaging the copies
 * would weigh that run twice among its query's trials.
 */
function refuseRepeatedRoot(roots: readonly JsonObject[], file: string): void {
  const seen = new Set<string>();
  for (const root of roots) {
    const span = String(root.span_id);
    if (!seen.has(span)) {
      seen.add(span);
      continue;
    }
    throw new RagciError(
      "invalid-value",
      `${file}: root span ${span} appears twice in the Braintrust rows; a root span is one result (each trial has its own), so the file holds a row twice: keep each row once`,
      { file },
    );
  }
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  const all = events(content);
  if (!all)
    throw new RagciError(
      "invalid-value",
      `${file}: not Braintrust experiment rows (each needs span_id, root_span_id and experiment_id); export the experiment as JSON`,
      { file },
    );
  const roots = all.filter(isRoot);
  if (roots.length === 0)
    throw new RagciError(
      "empty-input",
      `${file}: the Braintrust rows hold no root spans (one per evaluated item)`,
      { file },
    );
  refuseRepeatedRoot(roots, file);
  if (options.docPath === null) {
    const first = roots[0] as JsonObject;
    const fields = ["input", "expected", "metadata"].flatMap((f) => {
      const v = first[f];
      return isJsonObject(v)
        ? Object.keys(v).map((k) => `${f}.${k}`)
        : typeof v === "string"
          ? [f]
          : [];
    });
    throw docFieldMissing(file, "metadata.source_doc", {
      what: "fields seen in the first item",
      fields,
    });
  }
  const path = options.docPath;
  // Scores of the spans under each root, by trace: used where the root carries none.
  const spanScores = new Map<string, Map<string, number[]>>();
  for (const e of all) {
    if (isRoot(e) || !isJsonObject(e.scores)) continue;
    const trace = spanScores.get(String(e.root_span_id)) ?? new Map<string, number[]>();
    for (const [name, v] of Object.entries(e.scores)) {
      const x = finiteNumber(v);
      if (x !== null) trace.set(name, [...(trace.get(name) ?? []), x]);
    }
    spanScores.set(String(e.root_span_id), trace);
  }
  const experiments = new Set(roots.map((r) => String(r.experiment_id)));
  const base = basename(file, extname(file));
  // An item is a query in a document: roots of one query in one document are its trials
  // (Braintrust's trialCount), averaged; the same query in two documents is two items.
  const trials = new Trials();
  for (const root of roots) {
    const system = experiments.size > 1 ? String(root.experiment_id) : base;
    const doc = valueAtPath(root, path);
    const item = trials.ofDocument(system, doc, queryOf(root, doc));
    const own = isJsonObject(root.scores) ? root.scores : {};
    const fromSpans = spanScores.get(String(root.root_span_id)) ?? new Map<string, number[]>();
    const names = new Set([...Object.keys(own), ...fromSpans.keys()]);
    for (const name of names) {
      const x = finiteNumber(own[name]);
      const spans = fromSpans.get(name) ?? [];
      const value = x ?? (spans.length ? spans.reduce((a, b) => a + b, 0) / spans.length : null);
      Trials.add(item, name, value);
    }
  }
  const rows = trials.rows();
  const notes = [
    `Braintrust: each root span is a result; its query is its dataset record (origin.id) or else its document and input (long inputs shortened with a hash); the system is ${experiments.size > 1 ? "the experiment_id" : `the file's name (${base})`}; metrics are the scores, taken from the root span or else from its scorer spans`,
  ];
  const repeats = roots.length - rows.length;
  if (repeats > 0)
    notes.push(
      `Braintrust: ${repeats} ${repeats === 1 ? "result repeats" : "results repeat"} a query of the same document and experiment (trials) in ${file}; their scores are averaged`,
    );
  return { rows, notes };
}

export const braintrustFormat: EvalFormat = {
  name: "braintrust",
  detect: (content) => events(content) !== null,
  toRows,
};
