// Inspect (inspect_ai) eval logs. A `.json` log is an EvalLog { version, status, eval: EvalSpec
// { model, task, … }, samples: [EvalSample { id, epoch, scores: { <scorer>: Score { value } },
// metadata }] }. A `.eval` log is a zip: the spec in `header.json` (current versions),
// `_journal/start.json` or `start.json` (older), and one `samples/<id>_epoch_<n>.json` per
// sample. Score values become numbers as Inspect's value_to_float does: numbers and booleans
// as they are, "C" 1, "P" 0.5, "I" and "N" 0, "yes"/"true" 1, "no"/"false" 0, numeric strings.
// Checked against UKGovernmentBEIS/inspect_ai src/inspect_ai/log/_log.py (EvalLog, EvalSample),
// src/inspect_ai/scorer/_metric.py (Score, value_to_float) and
// src/inspect_ai/log/_recorders/eval.py (member names).
import { RagciError } from "../../core/errors.js";
import {
  docFieldMissing,
  type EvalContent,
  type EvalFormat,
  type EvalReadOptions,
  type EvalRows,
  Trials,
  valueAtPath,
} from "./evalRows.js";

type Item = Record<string, unknown>;

const isObject = (v: unknown): v is Item => v !== null && typeof v === "object";

const isSpec = (v: unknown): v is Item =>
  isObject(v) && isObject(v.eval) && typeof (v.eval as Item).model === "string";

/** Inspect's value_to_float for the default C/I/P/N values; null where it would warn. */
export function inspectValue(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value !== "string") return null;
  if (value === "C") return 1;
  if (value === "P") return 0.5;
  if (value === "I" || value === "N") return 0;
  const lower = value.toLowerCase();
  if (lower === "yes" || lower === "true") return 1;
  if (lower === "no" || lower === "false") return 0;
  const number = Number(lower);
  return lower.trim() !== "" && Number.isFinite(number) ? number : null;
}

/** The log's spec and samples, from a JSON log or a .eval zip's members. */
function parts(content: EvalContent): { spec: Item; samples: readonly Item[] } | null {
  if (content.kind === "json" && isSpec(content.value) && Array.isArray(content.value.samples))
    return { spec: content.value, samples: content.value.samples.filter(isObject) };
  if (content.kind !== "members") return null;
  const spec = ["header.json", "_journal/start.json", "start.json"]
    .map((name) => content.members.get(name))
    .find(isSpec);
  if (!spec) return null;
  const samples = [...content.members.entries()]
    .filter(([name]) => /^samples\/.+\.json$/.test(name))
    .map(([, value]) => value)
    .filter(isObject);
  return { spec, samples };
}

/** A sample's numbers: one per scorer, or `scorer.key` for a scorer whose value is a dict. */
function sampleMetrics(sample: Item): Record<string, number | null> {
  const metrics: Record<string, number | null> = {};
  const scores = isObject(sample.scores) ? sample.scores : {};
  for (const [scorer, score] of Object.entries(scores)) {
    const value = isObject(score) ? score.value : undefined;
    if (isObject(value) && !Array.isArray(value)) {
      for (const [key, v] of Object.entries(value)) metrics[`${scorer}.${key}`] = inspectValue(v);
    } else {
      metrics[scorer] = inspectValue(value);
    }
  }
  return metrics;
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const log = parts(content);
  if (!log || log.samples.length === 0)
    throw new RagciError(
      "empty-input",
      `${options.file}: the Inspect log holds no samples (was it written with log_samples off?)`,
      { file: options.file },
    );
  if (options.docPath === null) {
    const first = log.samples[0] as Item;
    const fields = Object.keys(isObject(first.metadata) ? first.metadata : {});
    throw docFieldMissing(options.file, "metadata.source_doc", {
      what: "metadata of the first sample",
      fields,
    });
  }
  const system = String((log.spec.eval as Item).model);
  const path = options.docPath;
  // Epochs of one sample are averaged, as Inspect's default reducer ("mean") does.
  const trials = new Trials();
  let epochs = 0;
  for (const sample of log.samples) {
    const entry = trials.of(system, String(sample.id), () => valueAtPath(sample, path));
    for (const [name, value] of Object.entries(sampleMetrics(sample)))
      if (value !== null) Trials.add(entry, name, value);
    epochs = Math.max(epochs, Number(sample.epoch ?? 1));
  }
  const rows = trials.rows();
  return {
    rows,
    notes: [
      `Inspect: each sample is a query, the system is the model (${system})${epochs > 1 ? `; ${epochs} epochs per sample averaged into one result, as Inspect's default reducer (mean) does` : ""}`,
    ],
  };
}

export const inspectFormat: EvalFormat = {
  name: "inspect",
  detect: (content) => parts(content) !== null,
  toRows,
};
