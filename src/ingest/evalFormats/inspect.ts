// Inspect (inspect_ai) eval logs. A `.json` log is an EvalLog { version, status, eval: EvalSpec
// { task, model, run_id, task_id, config: EvalConfig { epochs, epochs_reducer } }, samples:
// [EvalSample { id, epoch, scores: { <scorer>: Score { value } }, metadata }], reductions:
// [EvalSampleReductions { scorer, reducer, samples: [{ sample_id, value }] }] }. `samples` is
// absent (null) in a header-only log (--no-log-samples, log_samples=False). A `.eval` log is a
// zip: the spec in `header.json` (current versions), `_journal/start.json` or `start.json`
// (older), one `samples/<id>_epoch_<n>.json` per sample and `reductions.json`. Score values
// become numbers as Inspect's value_to_float does: numbers and booleans as they are, "C" 1,
// "P" 0.5, "I" and "N" 0, "yes"/"true" 1, "no"/"false" 0, numeric strings.
// Checked against UKGovernmentBEIS/inspect_ai 499e6152e7b8fc8cbd8ac5283536572aa6e4ab17:
// src/inspect_ai/log/_log.py (EvalLog, EvalSpec, EvalConfig, EvalSample, EvalSampleReductions;
// results.sample_reductions in older logs), src/inspect_ai/scorer/_metric.py (Score,
// value_to_float), src/inspect_ai/log/_recorders/eval.py (member names).
import { basename } from "node:path";
import { optionRef, RagciError } from "../../core/errors.js";
import {
  docFieldMissing,
  type EvalContent,
  type EvalFormat,
  type EvalReadOptions,
  type EvalRow,
  type EvalRows,
  Trials,
  toolFacets,
  valueAtPath,
} from "./evalRows.js";
import { FacetRows } from "./facetRows.js";

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

/** An Inspect log as ragci reads it; `samples` is null when the log holds none (header only). */
interface InspectLog {
  readonly spec: Item;
  readonly samples: readonly Item[] | null;
  readonly reductions: readonly Item[] | null;
}

const objects = (v: unknown): Item[] | null => (Array.isArray(v) ? v.filter(isObject) : null);

/** The log's spec, samples and reductions, from a JSON log or a .eval zip's members. */
function parts(content: EvalContent): InspectLog | null {
  if (content.kind === "json" && isSpec(content.value)) {
    const log = content.value;
    const results = isObject(log.results) ? log.results : {};
    return {
      spec: log,
      samples: objects(log.samples),
      reductions: objects(log.reductions) ?? objects(results.sample_reductions),
    };
  }
  if (content.kind !== "members") return null;
  const spec = ["header.json", "_journal/start.json", "start.json"]
    .map((name) => content.members.get(name))
    .find(isSpec);
  if (!spec) return null;
  const samples = [...content.members.entries()]
    .filter(([name]) => /^samples\/.+\.json$/.test(name))
    .map(([, value]) => value)
    .filter(isObject);
  return {
    spec,
    samples: samples.length > 0 ? samples : null,
    reductions: objects(content.members.get("reductions.json")),
  };
}

/** Numbers of one score value: one per scorer, or `scorer.key` for a dict value. */
function scoreMetrics(name: string, value: unknown, into: Record<string, number | null>): void {
  if (isObject(value) && !Array.isArray(value)) {
    for (const [key, v] of Object.entries(value)) into[`${name}.${key}`] = inspectValue(v);
  } else {
    into[name] = inspectValue(value);
  }
}

/**
 * Inspect's mark of a score its scorer did not give (Score.unscored): NaN, for the whole value
 * or a dict's key, which its reducers and metrics leave out (inspect_ai
 * design/nan-serialization.md). Written as the constant NaN, read by pythonJson.ts.
 */
const isUnscored = (v: unknown): boolean => typeof v === "number" && Number.isNaN(v);

/** The metrics (named as scoreMetrics names them) a score value leaves unscored. */
function unscoredNames(name: string, value: unknown): string[] {
  if (isObject(value) && !Array.isArray(value))
    return Object.entries(value)
      .filter(([, v]) => isUnscored(v))
      .map(([key]) => `${name}.${key}`);
  return isUnscored(value) ? [name] : [];
}

/** How many epoch scores of each metric are unscored (NaN); `judge`: named as judges' scores. */
function unscoredCounts(samples: readonly Item[], judge: boolean): Map<string, number> {
  const counts = new Map<string, number>();
  for (const sample of samples) {
    const scores = isObject(sample.scores) ? sample.scores : {};
    for (const [scorer, score] of Object.entries(scores))
      for (const name of unscoredNames(
        judge ? "score" : scorer,
        isObject(score) ? score.value : undefined,
      ))
        counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

const UNSCORED =
  "Inspect writes NaN for a score its scorer did not give (Score.unscored), which its metrics leave out: re-score those samples (inspect score) or analyse another metric";

/**
 * What the reader says of unscored values: why a metric may have no number (each metric whose
 * name, or scorer, has a NaN), and a note on the NaN epochs left out of a mean (`averaged`).
 */
function unscoredReport(
  rows: readonly EvalRow[],
  unscored: ReadonlyMap<string, number>,
  averaged: boolean,
): Pick<EvalRows, "missingReasons" | "metricNotes"> {
  if (unscored.size === 0) return {};
  const names = new Set(rows.flatMap((r) => Object.keys(r.metrics)));
  const missingReasons: Record<string, string> = {};
  const metricNotes: Record<string, string> = {};
  for (const name of names) {
    // A scorer's whole value NaN leaves each of its keys (scorer.key) unscored.
    const scorer = name.split(".")[0] as string;
    const count = (unscored.get(name) ?? 0) + (scorer === name ? 0 : (unscored.get(scorer) ?? 0));
    if (count === 0) continue;
    missingReasons[name] = UNSCORED;
    if (averaged)
      metricNotes[name] =
        `Inspect: ${count} epoch score${count === 1 ? " is" : "s are"} NaN for ${name} (unscored, Score.unscored), left out of the sample's mean over its epochs as Inspect's reducers leave them out`;
  }
  return { missingReasons, metricNotes };
}

/** A sample's numbers: one per scorer, or `scorer.key` for a scorer whose value is a dict. */
function sampleMetrics(sample: Item): Record<string, number | null> {
  const metrics: Record<string, number | null> = {};
  const scores = isObject(sample.scores) ? sample.scores : {};
  for (const [scorer, score] of Object.entries(scores))
    scoreMetrics(scorer, isObject(score) ? score.value : undefined, metrics);
  return metrics;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/**
 * The system's name: the task, the model and the run (its id, else the file's name), so that
 * two logs of one task and model (two runs, two solvers) stay two systems.
 */
export function inspectSystem(spec: Item, file: string): string {
  const evalSpec = spec.eval as Item;
  const run = text(evalSpec.run_id) || basename(file);
  return [text(evalSpec.task), String(evalSpec.model), run].filter((p) => p !== "").join(" · ");
}

/** The epochs reducers the log names (eval.config.epochs_reducer); Inspect's default is mean. */
function reducersOf(spec: Item): string[] {
  const config = isObject((spec.eval as Item).config) ? ((spec.eval as Item).config as Item) : {};
  const named = Array.isArray(config.epochs_reducer)
    ? config.epochs_reducer.filter((r): r is string => typeof r === "string")
    : [];
  return named.length > 0 ? named : ["mean"];
}

/** Why a log holds no samples, as one line with what to do. */
function noSamples(log: InspectLog, file: string): RagciError {
  const status = text(log.spec.status);
  const error = isObject(log.spec.error) ? text(log.spec.error.message).split("\n")[0] : "";
  const message =
    status === "success" || status === ""
      ? `${file}: the Inspect log holds no samples (a header-only log, as --no-log-samples or log_samples=False writes); re-run the eval with samples logged`
      : `${file}: the Inspect log holds no samples (status ${status}${error ? `: ${error}` : ""}); re-run the eval with samples logged`;
  return new RagciError("empty-input", message, { file });
}

/** Each sample's reduced numbers from the log's reductions, by sample id. */
function reducedMetrics(
  reductions: readonly Item[],
  file: string,
  unscored: Map<string, number>,
): Map<string, Record<string, number | null>> {
  const perScorer = new Map<string, number>();
  for (const r of reductions)
    perScorer.set(text(r.scorer), (perScorer.get(text(r.scorer)) ?? 0) + 1);
  const bySample = new Map<string, Record<string, number | null>>();
  for (const r of reductions) {
    const scorer = text(r.scorer);
    // Several reducers of one scorer (epochs_reducer ["mean", "max"]) give one metric each.
    const name = (perScorer.get(scorer) ?? 0) > 1 ? `${scorer}.${text(r.reducer)}` : scorer;
    for (const s of objects(r.samples) ?? []) {
      const id = String(s.sample_id);
      const metrics = bySample.get(id) ?? {};
      const added: Record<string, number | null> = {};
      scoreMetrics(name, s.value, added);
      for (const n of unscoredNames(name, s.value)) unscored.set(n, (unscored.get(n) ?? 0) + 1);
      if (Object.keys(added).some((k) => k in metrics))
        throw new RagciError(
          "invalid-value",
          `${file}: the Inspect log's reductions give sample ${id} two values of ${name}; each sample needs one reduction per scorer and reducer`,
          { file },
        );
      bySample.set(id, Object.assign(metrics, added));
    }
  }
  return bySample;
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  const log = parts(content);
  if (!log)
    throw new RagciError(
      "invalid-value",
      `${file}: not an Inspect log (no eval.model in the log or in header.json); pass a .json or .eval log`,
      { file },
    );
  if (log.samples === null || log.samples.length === 0) throw noSamples(log, file);
  const samples = log.samples;
  if (options.docPath === null) {
    const first = samples[0] as Item;
    const fields = Object.keys(isObject(first.metadata) ? first.metadata : {});
    throw docFieldMissing(file, "metadata.source_doc", {
      what: "metadata of the first sample",
      fields,
    });
  }
  const path = options.docPath;
  const system = inspectSystem(log.spec, file);
  const reducers = reducersOf(log.spec);
  const nonMean = reducers.filter((r) => r !== "mean");
  if (nonMean.length > 0 && log.reductions === null)
    throw new RagciError(
      "invalid-value",
      `${file}: the Inspect log reduces epochs with ${reducers.join(", ")} but holds no reductions to read, and ragci would average them (mean); re-run with --epochs-reducer mean`,
      { file },
    );
  // A (sample id, epoch) is one trial: the same one twice is refused, never counted twice.
  const seen = new Set<string>();
  let epochs = 0;
  for (const sample of samples) {
    const key = JSON.stringify([String(sample.id), Number(sample.epoch ?? 1)]);
    if (seen.has(key))
      throw new RagciError(
        "invalid-value",
        `${file}: sample ${String(sample.id)} epoch ${Number(sample.epoch ?? 1)} appears twice in the Inspect log; each sample's epoch is one trial, so the log must hold it once`,
        { file },
      );
    seen.add(key);
    epochs = Math.max(epochs, Number(sample.epoch ?? 1));
  }
  const notes = [
    `Inspect: each sample is a query; the system is the task, the model and the run id (else the file's name): ${system}`,
  ];
  const status = text(log.spec.status);
  if (status !== "success")
    notes.push(
      `Inspect: ${file} has status ${status || "unknown"}, not success; its ${seen.size} logged sample epochs are read as they are, and any samples the run did not finish are absent`,
    );
  const facets = toolFacets(options, "Inspect", { trial: ["epoch"], judge: ["scorer"] });
  if (facets.trial || facets.judge) {
    // Kept facets read each epoch's own scores, whose mean is Inspect's mean reduction.
    if (nonMean.length > 0)
      throw new RagciError(
        "invalid-value",
        `${file}: the Inspect log reduces epochs with ${reducers.join(", ")}, not their mean, so its epochs are not trials of one mean; re-run with --epochs-reducer mean, or leave out ${optionRef("trial")} and ${optionRef("judge")}`,
        { file, option: facets.trial ? "trial" : "judge" },
      );
    const rows = new FacetRows(file);
    for (const sample of samples) {
      const query = String(sample.id);
      const doc = valueAtPath(sample, path);
      const trial = facets.trial ? String(Number(sample.epoch ?? 1)) : null;
      const scores = isObject(sample.scores) ? sample.scores : {};
      for (const [scorer, score] of Object.entries(scores)) {
        const values: Record<string, number | null> = {};
        // With judges, each scorer is a judge of one metric, "score" (or score.key for a dict).
        scoreMetrics(
          facets.judge ? "score" : scorer,
          isObject(score) ? score.value : undefined,
          values,
        );
        const judge = facets.judge ? scorer : null;
        for (const [name, value] of Object.entries(values))
          rows.add({ system, query, doc, trial, judge }, name, value);
      }
    }
    notes.push(
      [
        facets.trial
          ? `Inspect: each epoch is a trial (${epochs} epoch${epochs === 1 ? "" : "s"}), kept as cells and averaged per sample for the interval`
          : `Inspect: ${epochs} epochs per sample averaged per scorer, as Inspect's default reducer (mean) does`,
        ...(facets.judge
          ? [
              "each scorer is a judge of one metric, score (score.key for a scorer whose value is a dict)",
            ]
          : []),
      ].join("; "),
    );
    const facetRows = rows.rows();
    return {
      rows: facetRows,
      notes,
      run: inspectRun(log.spec, file),
      ...unscoredReport(facetRows, unscoredCounts(samples, facets.judge), !facets.trial),
    };
  }
  let rows: EvalRow[];
  let report: Pick<EvalRows, "missingReasons" | "metricNotes">;
  if (log.reductions !== null) {
    // Inspect's own per-sample reductions (what its metrics are computed from), whatever the
    // reducer; the samples give the identity and the document.
    const unscored = unscoredCounts(samples, false);
    const reduced = reducedMetrics(log.reductions, file, unscored);
    const names = new Set([...reduced.values()].flatMap((m) => Object.keys(m)));
    const trials = new Trials();
    for (const sample of samples)
      trials.of(system, String(sample.id), () => valueAtPath(sample, path));
    rows = trials.rows().map((row) => {
      const metrics = reduced.get(row.query) ?? {};
      return {
        ...row,
        metrics: Object.fromEntries([...names].map((n) => [n, metrics[n] ?? null])),
      };
    });
    const ids = new Set(rows.map((r) => r.query));
    const orphans = [...reduced.keys()].filter((id) => !ids.has(id)).length;
    notes.push(
      `Inspect: each sample's values are the log's own reductions over its epochs (${epochs} epoch${epochs === 1 ? "" : "s"}; reducer ${reducers.join(", ")})`,
    );
    if (orphans > 0)
      notes.push(
        `Inspect: ${file} has reductions for ${orphans} sample ids with no logged sample; they are not read`,
      );
    // The reductions are Inspect's, NaN epochs already left out: only a NaN reduction matters.
    report = unscoredReport(rows, unscored, false);
  } else {
    // Epochs of one sample are trials, averaged as Inspect's default reducer (mean) does.
    const trials = new Trials();
    for (const sample of samples) {
      const entry = trials.of(system, String(sample.id), () => valueAtPath(sample, path));
      for (const [name, value] of Object.entries(sampleMetrics(sample)))
        if (value !== null) Trials.add(entry, name, value);
    }
    rows = trials.rows();
    report = unscoredReport(rows, unscoredCounts(samples, false), true);
    if (epochs > 1)
      notes.push(
        `Inspect: ${epochs} epochs per sample averaged into one result, as Inspect's default reducer (mean) does`,
      );
  }
  return { rows, notes, run: inspectRun(log.spec, file), ...report };
}

/**
 * The log's run: one task of one run is (run_id, task_id), which an eval-set retry keeps, so
 * two files with both are one evaluation; the file's name tells apart two tasks of one name.
 */
function inspectRun(spec: Item, file: string): { key: string; label: string } {
  const evalSpec = spec.eval as Item;
  const runId = text(evalSpec.run_id);
  const key = runId === "" ? `file:${file}` : `run:${runId}/${text(evalSpec.task_id)}`;
  return { key, label: basename(file) };
}

export const inspectFormat: EvalFormat = {
  name: "inspect",
  detect: (content) => parts(content) !== null,
  toRows,
};
