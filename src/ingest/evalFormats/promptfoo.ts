// promptfoo's `-o results.json` is its OutputFile { evalId, results: EvaluateSummaryV3 (or V2),
// config, shareableUrl, metadata }; `-o results.jsonl` writes one EvaluateResult per line.
// EvaluateResult: promptIdx, testIdx, testCase (AtomicTestCase: vars, metadata), provider
// { id, label }, prompt { label }, vars, success, score, namedScores, metadata.
// Checked against promptfoo/promptfoo src/types/index.ts (interfaces OutputFile,
// EvaluateSummaryV3, EvaluateResult).
import { RagciError } from "../../core/errors.js";
import {
  docFieldMissing,
  type EvalContent,
  type EvalFormat,
  type EvalReadOptions,
  type EvalRow,
  type EvalRows,
  finiteNumber,
  valueAtPath,
} from "./evalRows.js";

type Item = Record<string, unknown>;

const isObject = (v: unknown): v is Item => v !== null && typeof v === "object";

/** An EvaluateResult: a test index and a provider are what set it apart from other tools. */
function isResult(v: unknown): v is Item {
  return isObject(v) && typeof v.testIdx === "number" && isObject(v.provider);
}

function results(content: EvalContent): readonly unknown[] | null {
  if (content.kind === "jsonl") return content.values.every(isResult) ? content.values : null;
  if (content.kind !== "json" || !isObject(content.value)) return null;
  const summary = content.value.results;
  if (!isObject(summary) || !Array.isArray(summary.results)) return null;
  return summary.results.length === 0 || summary.results.some(isResult) ? summary.results : null;
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

function promptName(item: Item): string {
  const prompt = isObject(item.prompt) ? item.prompt : {};
  const label = prompt.label ?? prompt.id;
  return typeof label === "string" && label !== "" ? label : `prompt ${item.promptIdx}`;
}

function toRows(content: EvalContent, options: EvalReadOptions): EvalRows {
  const items = (results(content) ?? []).filter(isResult);
  if (items.length === 0)
    throw new RagciError("empty-input", `${options.file}: the promptfoo results hold no results`, {
      file: options.file,
    });
  if (options.docPath === null) {
    const first = items[0] as Item;
    const fields = [
      ...Object.keys(isObject(first.vars) ? first.vars : {}).map((k) => `vars.${k}`),
      ...Object.keys(isObject(first.metadata) ? first.metadata : {}).map((k) => `metadata.${k}`),
    ];
    throw docFieldMissing(options.file, "vars.article or --doc metadata.source_doc", {
      what: "fields of the first result",
      fields,
    });
  }
  // With several prompts, a system is a provider × prompt pair (each is a column in promptfoo).
  const prompts = new Set(items.map((i) => i.promptIdx));
  const path = options.docPath;
  const rows: EvalRow[] = items.map((item) => {
    const named = isObject(item.namedScores) ? item.namedScores : {};
    const metrics: Record<string, number | null> = {
      score: finiteNumber(item.score),
      success: finiteNumber(item.success),
    };
    for (const [name, value] of Object.entries(named)) metrics[name] = finiteNumber(value);
    return {
      query: String(item.testIdx),
      doc: documentOf(item, path),
      system: prompts.size > 1 ? `${providerName(item)} · ${promptName(item)}` : providerName(item),
      metrics,
    };
  });
  return {
    rows,
    notes: [
      `promptfoo: each test (testIdx) is a query; systems are ${prompts.size > 1 ? "provider × prompt pairs" : "providers"}; metrics score, success (pass = 1) and the named scores`,
    ],
  };
}

export const promptfooFormat: EvalFormat = {
  name: "promptfoo",
  detect: (content) => results(content) !== null,
  toRows,
};
