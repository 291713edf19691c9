// evalite's `--outputPath` export (Evalite.Exported.Output): { run: { id, runType, createdAt },
// evals: [{ id, name, filepath, variantName?, variantGroup?, results: [{ id, input, output,
// expected, status, colOrder, averageScore, scores: [{ id, name, score }] }] }] }. Results carry
// no metadata, so the document is in input (--doc input.article). Result ids are database row
// ids and colOrder counts trials too, so neither pairs items across runs: the input does.
// An eval's name is "<name> [<variant>]" for evalite.each variants.
// Verified against mattpocock/evalite e18a793789400b9292f92465d1084344340aef9b:
// packages/evalite/src/types.ts (namespace Exported), packages/evalite/src/run-evalite.ts
// (exportResultsToJSON), packages/evalite/src/evalite.ts (names, trials, order).
import { basename, extname } from "node:path";
import { RagciError } from "../../core/errors.js";
import { inputKey } from "./braintrust.js";
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

/** The export: a run with a runType beside evals whose results hold scores arrays. */
function output(content: EvalContent): JsonObject[] | null {
  if (content.kind !== "json" || !isJsonObject(content.value)) return null;
  const { run, evals } = content.value;
  if (!isJsonObject(run) || typeof run.runType !== "string" || !Array.isArray(evals)) return null;
  const all = evals.filter(isJsonObject);
  return all.every((e) => Array.isArray(e.results)) ? all : null;
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const file = options.file;
  const evals = output(content);
  if (!evals)
    throw new RagciError(
      "invalid-value",
      `${file}: not an evalite export (run and evals[].results[]); write it with evalite --outputPath`,
      { file },
    );
  const results = evals.flatMap((e) =>
    (e.results as unknown[]).filter(isJsonObject).map((r) => ({ e, r })),
  );
  if (results.length === 0)
    throw new RagciError("empty-input", `${file}: the evalite export holds no results`, { file });
  if (options.docPath === null) {
    const input = results[0]?.r.input;
    const fields = isJsonObject(input) ? Object.keys(input).map((k) => `input.${k}`) : ["input"];
    throw docFieldMissing(file, "input.article", { what: "fields seen in the first item", fields });
  }
  const path = options.docPath;
  // Two runs of one eval must stay two systems: the eval's name with the file's base name.
  const base = basename(file, extname(file));
  const trials = new Trials();
  for (const { e, r } of results) {
    const system = `${String(e.name)} (${base})`;
    const item = trials.of(system, inputKey(r.input), () => valueAtPath(r, path));
    for (const s of Array.isArray(r.scores) ? r.scores.filter(isJsonObject) : [])
      Trials.add(item, String(s.name), finiteNumber(s.score));
  }
  const rows = trials.rows();
  const notes = [
    `evalite: each result's input is the query (long inputs shortened with a hash); systems are the evals' names with the file's name (${base}); metrics are the scorers' scores`,
  ];
  if (rows.length < results.length)
    notes.push(
      `evalite: ${results.length - rows.length} repeated inputs (trials) in ${file}; their scores are averaged`,
    );
  const missing = rows.filter((r) => Object.values(r.metrics).some((v) => v === null)).length;
  if (missing > 0)
    notes.push(`evalite: ${missing} results in ${file} lack a score for some scorer`);
  return { rows, notes };
}

export const evaliteFormat: EvalFormat = {
  name: "evalite",
  detect: (content) => output(content) !== null,
  toRows,
};
