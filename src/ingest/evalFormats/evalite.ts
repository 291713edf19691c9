// evalite's results, from its `--outputPath` export or from its SQLite store
// (node_modules/.evalite/cache.sqlite, all a run leaves without --outputPath).
// Export (Evalite.Exported.Output): { run: { id, runType, createdAt }, evals: [{ id, name,
// filepath, status, variantName, variantGroup, results: [{ id, input, output, expected, status,
// colOrder, averageScore, scores: [{ id, name, score }] }] }] }, the latest full run only.
// Store: tables runs (id, runType), evals (id, run_id, name, status, variant_name), results (id,
// eval_id, input, output, expected — JSON text —, col_order, status, trial_index) and scores
// (id, result_id, name, score); traces are not read.
// An item is a position in the eval's dataset: evalite runs data point i's trial t as
// col_order i × trialCount + t (trial_index t, null when trialCount is 1). The store has
// trial_index; the export has not, so there the trials are the runs of equal data points
// (input and expected) in colOrder (their common length). Never the input: one question asked
// of ten articles is ten items. Results carry no metadata, so the document is in the input or
// the expected value (--doc input.article, --doc expected.article).
// An eval's name is "<name> [<variant>]" for evalite.each variants.
// Verified against mattpocock/evalite e18a793789400b9292f92465d1084344340aef9b (0.19.0):
// packages/evalite/src/types.ts (namespace Exported), packages/evalite/src/run-evalite.ts
// (exportResultsToJSON), packages/evalite/src/storage/sqlite.ts (the tables, trial_index),
// packages/evalite/src/evalite.ts (names, the trials' order).
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
  toolFacets,
  valueAtPath,
} from "./evalRows.js";
import { FacetRows } from "./facetRows.js";

/** One result as the export writes it (the store's rows are turned into the same shape). */
interface Result {
  readonly value: JsonObject;
  readonly colOrder: number;
  /** The store's trial_index; undefined in the export, which does not carry it. */
  readonly trialIndex: number | null | undefined;
  readonly scores: readonly { readonly name: string; readonly score: number | null }[];
}

interface Eval {
  readonly name: string;
  /** The eval file; two files may hold evals of one name. */
  readonly filepath: string;
  readonly results: readonly Result[];
}

interface Read {
  readonly evals: readonly Eval[];
  readonly notes: readonly string[];
}

/** The export: a run with a runType beside evals whose results hold scores arrays. */
function exported(content: EvalContent): JsonObject[] | null {
  if (content.kind !== "json" || !isJsonObject(content.value)) return null;
  const { run, evals } = content.value;
  if (!isJsonObject(run) || typeof run.runType !== "string" || !Array.isArray(evals)) return null;
  const all = evals.filter(isJsonObject);
  return all.every((e) => Array.isArray(e.results)) ? all : null;
}

const STORE_TABLES = ["runs", "evals", "results", "scores"];

function isStore(content: EvalContent): boolean {
  return content.kind === "sqlite" && STORE_TABLES.every((t) => content.tables.has(t));
}

function fromExport(evals: readonly JsonObject[]): Read {
  return {
    evals: evals.map((e) => ({
      name: String(e.name),
      filepath: String(e.filepath ?? ""),
      results: (e.results as unknown[]).filter(isJsonObject).map((r) => ({
        value: r,
        colOrder: Number(r.colOrder),
        trialIndex: undefined,
        scores: (Array.isArray(r.scores) ? r.scores.filter(isJsonObject) : []).map((s) => ({
          name: String(s.name),
          score: finiteNumber(s.score),
        })),
      })),
    })),
    notes: [],
  };
}

function parsedJson(text: unknown): unknown {
  if (typeof text !== "string") return text ?? null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The store's latest completed run of each eval (by name and file), as the export would write
 * it. evalite keeps every run; its UI shows each eval's latest, and a watch-mode run re-runs
 * some evals only.
 */
function fromStore(tables: ReadonlyMap<string, readonly JsonObject[]>): Read {
  const rows = (t: string) => tables.get(t) ?? [];
  const latest = new Map<string, JsonObject>();
  const runsOf = new Map<string, Set<string>>();
  for (const e of rows("evals")) {
    // "running" is an eval that never finished (the export also takes fail and success only).
    if (e.status !== "success" && e.status !== "fail") continue;
    const key = JSON.stringify([e.name, e.filepath]);
    runsOf.set(key, (runsOf.get(key) ?? new Set()).add(String(e.run_id)));
    const seen = latest.get(key);
    if (seen === undefined || Number(e.id) > Number(seen.id)) latest.set(key, e);
  }
  const scores = new Map<string, { name: string; score: number | null }[]>();
  for (const s of rows("scores")) {
    const key = String(s.result_id);
    const list = scores.get(key) ?? [];
    list.push({ name: String(s.name), score: finiteNumber(s.score) });
    scores.set(key, list);
  }
  const results = new Map<string, Result[]>();
  for (const r of rows("results")) {
    const key = String(r.eval_id);
    const list = results.get(key) ?? [];
    results.set(key, list);
    const value: JsonObject = {
      id: r.id,
      input: parsedJson(r.input),
      output: parsedJson(r.output),
      expected: parsedJson(r.expected),
      status: r.status,
      colOrder: r.col_order,
    };
    list.push({
      value,
      colOrder: Number(r.col_order),
      trialIndex:
        r.trial_index === null || r.trial_index === undefined ? null : Number(r.trial_index),
      scores: scores.get(String(r.id)) ?? [],
    });
  }
  const chosen = [...latest.values()];
  const earlier = [...latest.entries()].filter(([key]) => (runsOf.get(key)?.size ?? 0) > 1);
  const notes =
    earlier.length > 0
      ? [
          `evalite store: ${earlier.length} of ${chosen.length} evals ran more than once (${earlier.map(([key, e]) => `${e.name}: runs ${[...(runsOf.get(key) ?? [])].join(", ")}`).join("; ")}); each eval's latest run is read (${chosen.map((e) => `${e.name}: run ${e.run_id}`).join("; ")}), the earlier ones are left out`,
        ]
      : [];
  return {
    evals: chosen.map((e) => ({
      name: String(e.name),
      filepath: String(e.filepath ?? ""),
      results: results.get(String(e.id)) ?? [],
    })),
    notes,
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * The trials per item: from the store's trial_index (its largest + 1); in the export, the
 * common length of the runs of equal data points (input and expected) in colOrder, as evalite
 * writes an item's trials one after another; 1 when the runs have no common length above 1.
 */
function trialCount(results: readonly Result[]): { count: number; repeats: number } {
  const indexes = results.map((r) => r.trialIndex);
  if (indexes.some((t) => t !== undefined))
    return { count: 1 + indexes.reduce<number>((a, t) => Math.max(a, t ?? 0), 0), repeats: 0 };
  const points = results.map((r) =>
    JSON.stringify([r.value.input ?? null, r.value.expected ?? null]),
  );
  let common = 0;
  let run = 1;
  let repeats = 0;
  for (let i = 1; i <= points.length; i++) {
    if (i < points.length && points[i] === points[i - 1]) {
      run++;
      repeats++;
    } else {
      common = gcd(common, run);
      run = 1;
    }
  }
  return { count: Math.max(common, 1), repeats };
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  const fromFile = exported(content);
  const read = fromFile
    ? fromExport(fromFile)
    : isStore(content)
      ? fromStore(tablesOf(content))
      : null;
  if (read === null)
    throw new RagciError(
      "invalid-value",
      `${file}: not an evalite export (run and evals[].results[]) nor its store (tables runs, evals, results, scores); write it with evalite --outputPath, or give node_modules/.evalite/cache.sqlite`,
      { file },
    );
  const all = read.evals.flatMap((e) => e.results);
  if (all.length === 0)
    throw new RagciError(
      "empty-input",
      `${file}: the evalite ${fromFile ? "export" : "store"} holds no results`,
      { file },
    );
  if (options.docPath === null) {
    const first = all[0]?.value ?? {};
    const fields = ["input", "expected"].flatMap((f) => {
      const v = first[f];
      return isJsonObject(v) ? Object.keys(v).map((k) => `${f}.${k}`) : v === undefined ? [] : [f];
    });
    throw docFieldMissing(file, "input.article", { what: "fields seen in the first item", fields });
  }
  const path = options.docPath;
  // Two runs of one eval must stay two systems: the eval's name with the file's base name.
  const base = basename(file, extname(file));
  const trials = new Trials();
  // With the trial facet, each trial is a row of its own (its index within the item).
  const keep = toolFacets(options, "evalite", { trial: ["trial", "trial_index"] }).trial;
  const kept = new FacetRows(file);
  const repeated: string[] = [];
  const unpaired: string[] = [];
  // Evals of one name in two files stay two systems: their file then joins the name.
  const named = new Map<string, number>();
  for (const e of read.evals) named.set(e.name, (named.get(e.name) ?? 0) + 1);
  for (const e of read.evals) {
    const results = [...e.results].sort((a, b) => a.colOrder - b.colOrder);
    const { count, repeats } = trialCount(results);
    if (count > 1) repeated.push(`${e.name}: ${count}`);
    else if (repeats > 0) unpaired.push(`${e.name}: ${repeats}`);
    const system =
      (named.get(e.name) ?? 0) > 1 ? `${e.name} [${e.filepath}] (${base})` : `${e.name} (${base})`;
    for (const r of results) {
      // The item's position in the eval's dataset (see the header).
      const position = Math.floor(r.colOrder / count);
      if (keep) {
        const trial = String(r.trialIndex ?? r.colOrder % count);
        const key = {
          system,
          query: String(position),
          doc: valueAtPath(r.value, path),
          trial,
          judge: null,
        };
        for (const s of r.scores) kept.add(key, s.name, s.score);
        continue;
      }
      const item = trials.of(system, String(position), () => valueAtPath(r.value, path));
      for (const s of r.scores) Trials.add(item, s.name, s.score);
    }
  }
  const rows = keep ? kept.rows() : trials.rows();
  const notes = [
    `evalite: each item is its position in its eval's dataset (the query id), never its input; systems are the evals' names with the file's name (${base}); metrics are the scorers' scores`,
    ...read.notes,
  ];
  if (repeated.length > 0)
    notes.push(
      `evalite: items ran several times (trialCount ${repeated.join(", ")}${fromFile ? ", read from the runs of equal data points, as the export has no trial index" : ""}); ${keep ? "each trial is kept as a row of its trial column, and averaged per item for the interval" : "each item's scores are averaged over its trials"}`,
    );
  if (unpaired.length > 0)
    notes.push(
      `evalite: some results repeat the data point before them, but not in runs of one length as trials would (${unpaired.join(", ")}); each is read as an item of its own`,
    );
  const missing = rows.filter((r) => Object.values(r.metrics).some((v) => v === null)).length;
  if (missing > 0) notes.push(`evalite: ${missing} items in ${file} lack a score for some scorer`);
  return { rows, notes };
}

function tablesOf(content: EvalContent): ReadonlyMap<string, readonly JsonObject[]> {
  return content.kind === "sqlite" ? content.tables : new Map();
}

export const evaliteFormat: EvalFormat = {
  name: "evalite",
  detect: (content) => exported(content) !== null || isStore(content),
  toRows,
};
