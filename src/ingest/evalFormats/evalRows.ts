import { optionRef, RagciError } from "../../core/errors.js";
import type { Qrels } from "../trecRun/readQrels.js";

/**
 * What an evaluation tool's output becomes before ragci reads it: one row per scored item
 * (query × system), with the source document taken from a user-named field path.
 */
export interface EvalRow {
  /** The item's id within the run, the key that pairs systems (promptfoo's test, Inspect's sample). */
  readonly query: string;
  /** The value at the user's --doc field path; null when the item has none. */
  readonly doc: string | null;
  /** Which system produced it (provider, model, experiment, run). */
  readonly system: string;
  /** Per-item metrics by name; null where the item carries no number for that metric. */
  readonly metrics: Readonly<Record<string, number | null>>;
  /** With the trial facet asked for: the rerun (Inspect's epoch, promptfoo's repeat, evalite's trial). */
  readonly trial?: string | null;
  /** With the judge facet asked for: the judge (Inspect's scorer). */
  readonly judge?: string | null;
  /** With the variant facet asked for: the prompt wording. */
  readonly variant?: string | null;
}

/** One tool's reader: recognise its output from content, and turn it into rows. */
export interface EvalFormat {
  readonly name: EvalFormatName;
  /** Whether a parsed JSON document (or, for text formats, the text) looks like this tool's. */
  readonly detect: (content: EvalContent) => boolean;
  /** @throws RagciError naming the file and what is missing */
  readonly toRows: (content: EvalContent, options: EvalReadOptions) => EvalRows;
}

export type EvalFormatName =
  | "promptfoo"
  | "inspect"
  | "deepeval"
  | "braintrust"
  | "evalite"
  | "trec_eval"
  | "trec_run"
  | "run_json"
  | "run_jsonl";

/** A file's content: parsed JSON (a .json file or the lines of a .jsonl file), raw text or tables. */
export type EvalContent =
  /** `text`: the file as read, when the reader keeps it (a JSON run checks its keys in it). */
  | { readonly kind: "json"; readonly value: unknown; readonly text?: string }
  | { readonly kind: "jsonl"; readonly values: readonly unknown[] }
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "members"; readonly members: ReadonlyMap<string, unknown> }
  /** A SQLite database's tables, each as its rows (evalite's store). */
  | { readonly kind: "sqlite"; readonly tables: ReadonlyMap<string, readonly JsonObject[]> };

export interface EvalReadOptions {
  /** Shown in messages. */
  readonly file: string;
  /** The --doc field path, split on dots ("metadata.source_doc" → ["metadata", "source_doc"]). */
  readonly docPath: readonly string[] | null;
  /** trec_eval, TREC runs: query id → document, from --doc-map. */
  readonly docMap?: ReadonlyMap<string, string> | null;
  /** TREC runs: the judgements they are scored against, from --qrels. */
  readonly qrels?: Qrels | null;
  /**
   * TREC runs: also score the qrels' queries a run does not retrieve, as empty rankings
   * (trec_eval -c, --complete-queries); by default only the queries in both are scored.
   */
  readonly completeQueries?: boolean;
  /** The --metric names asked for (TREC runs compute a cut-off asked for, e.g. hit@3). */
  readonly metrics?: readonly string[] | null;
  /**
   * Items the tool records as errors of the system under test (promptfoo's failureReason 2):
   * "apart" (default) leaves them out, counted in a note; "failures" keeps them as failures.
   */
  readonly errors?: "apart" | "failures";
  /**
   * The facets asked for (FilesSource.trial, .judge, .variant, by the tool's name for them):
   * a reader that has them keeps each trial (judge) as a row with its label instead of
   * averaging, and refuses a name it does not have (toolFacets).
   */
  readonly facets?: ToolFacets;
}

/** The facets asked of a tool's output, by the names the user gave (null: not asked). */
export interface ToolFacets {
  readonly trial: string | null;
  readonly judge: string | null;
  readonly variant: string | null;
}

/**
 * Which facets a tool's output is asked for, checked against the names the tool has for them
 * (e.g. Inspect: trial "epoch", judge "scorer"); a facet the tool does not have is refused.
 */
export function toolFacets(
  options: EvalReadOptions,
  tool: string,
  has: { readonly [F in keyof ToolFacets]?: readonly string[] },
): { readonly trial: boolean; readonly judge: boolean; readonly variant: boolean } {
  const asked = options.facets ?? { trial: null, judge: null, variant: null };
  const check = (facet: keyof ToolFacets): boolean => {
    const name = asked[facet];
    if (name === null) return false;
    const names = has[facet] ?? [];
    if (names.includes(name)) return true;
    throw new RagciError(
      "invalid-option",
      names.length > 0
        ? `${options.file}: ${tool} output has no ${facet} "${name}"; its ${facet} is ${optionRef(facet)} ${names.join(" or ")}`
        : `${options.file}: ${tool} output records no ${facet}; leave out ${optionRef(facet)}`,
      { file: options.file, option: facet },
    );
  };
  return { trial: check("trial"), judge: check("judge"), variant: check("variant") };
}

export interface EvalRows {
  readonly rows: readonly EvalRow[];
  /** How the tool's output was read, stated in the report (e.g. how epochs were combined). */
  readonly notes: readonly string[];
  /** Notes stated only when the metric is analysed (e.g. trec_eval's counts), by metric. */
  readonly metricNotes?: Readonly<Record<string, string>>;
  /** Why a name the file has is not a per-item metric (e.g. trec_eval's relstring), by name. */
  readonly notMetrics?: Readonly<Record<string, string>>;
  /** Which run of the tool the file holds, when the tool records it (see distinctRuns). */
  readonly run?: RunIdentity;
  /**
   * Why items may have no number for a metric, by metric, when the tool says (e.g. Inspect's
   * NaN for a score not given): what the tool meant and what to do, said if one has none.
   */
  readonly missingReasons?: Readonly<Record<string, string>>;
}

/**
 * A file's run: `key` is the same for two files that hold the same run (refused when given
 * together); `label` is added to the system names when two runs hold systems of one name.
 */
export interface RunIdentity {
  readonly key: string;
  readonly label: string;
}

/** A JSON object as the tools write it. */
export type JsonObject = Record<string, unknown>;

/** A JSON object, not null and not an array. */
export function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * The error for a tool's output read without --doc: which field to name, with an example path
 * and the fields the first item has.
 */
export function docFieldMissing(
  file: string,
  example: string,
  seen: { readonly what: string; readonly fields: readonly string[] },
): RagciError {
  return new RagciError(
    "missing-column",
    `${file}: name the document field with ${optionRef("doc")} (e.g. ${optionRef("doc")} ${example}); ${seen.what}: ${seen.fields.join(", ") || "none"}`,
    { file },
  );
}

/** A query's results in one system: each metric's values over its trials (epochs, repeats). */
export interface TrialScores {
  readonly query: string;
  readonly doc: string | null;
  readonly system: string;
  readonly values: ReadonlyMap<string, readonly number[]>;
}

/** One query's trials in one system, as they are gathered. */
interface GatheredTrials extends TrialScores {
  readonly values: Map<string, number[]>;
}

/** The trials of each system's queries, gathered in the order first seen, for averagedRows. */
export class Trials {
  private readonly items = new Map<string, GatheredTrials>();

  /** The trials of `query` in `system`; its document is read (`doc()`) when first seen. */
  of(system: string, query: string, doc: () => string | null): GatheredTrials {
    const key = JSON.stringify([system, query]);
    let item = this.items.get(key);
    if (item === undefined) {
      item = { query, doc: doc(), system, values: new Map() };
      this.items.set(key, item);
    }
    return item;
  }

  /** Like `of`, with the document in the key: one query in two documents is two items. */
  ofDocument(system: string, doc: string | null, query: string): GatheredTrials {
    const key = JSON.stringify([system, query, doc]);
    let item = this.items.get(key);
    if (item === undefined) {
      item = { query, doc, system, values: new Map() };
      this.items.set(key, item);
    }
    return item;
  }

  /** One trial's value of a metric; null makes the metric known without a value. */
  static add(item: GatheredTrials, name: string, value: number | null): void {
    const values = item.values.get(name) ?? [];
    if (value !== null) values.push(value);
    item.values.set(name, values);
  }

  rows(): EvalRow[] {
    return averagedRows(this.items.values());
  }
}

/**
 * One row per query and system, each metric the mean of its trials (the tools' default
 * reducer); a metric that no trial of the query scored is null.
 */
export function averagedRows(items: Iterable<TrialScores>): EvalRow[] {
  const all = [...items];
  const names = metricNames(all);
  return all.map((item) => ({
    query: item.query,
    doc: item.doc,
    system: item.system,
    metrics: meanMetrics(names, item.values),
  }));
}

/** Every metric any item has a value list for, in the order first seen. */
export function metricNames(
  items: readonly { readonly values: ReadonlyMap<string, readonly number[]> }[],
): string[] {
  return [...new Set(items.flatMap((i) => [...i.values.keys()]))];
}

/** Each metric of `names` as the mean of its values; null where it has none. */
export function meanMetrics(
  names: readonly string[],
  values: ReadonlyMap<string, readonly number[]>,
): Record<string, number | null> {
  return Object.fromEntries(
    names.map((n) => {
      const v = values.get(n) ?? [];
      return [n, v.length ? v.reduce((a, b) => a + b, 0) / v.length : null];
    }),
  );
}

/**
 * The value at a dotted field path inside an item, as text; null when any step is missing.
 * Numbers and booleans are written as JSON writes them, so ids read the same from every tool.
 */
export function valueAtPath(item: unknown, path: readonly string[]): string | null {
  let here: unknown = item;
  for (const step of path) {
    if (here === null || typeof here !== "object") return null;
    here = (here as Record<string, unknown>)[step];
  }
  if (here === null || here === undefined) return null;
  if (typeof here === "string") return here;
  if (typeof here === "number" || typeof here === "boolean") return String(here);
  return null;
}

/** A score as a finite number, or null (absent, NaN, non-numeric). */
export function finiteNumber(value: unknown): number | null {
  if (typeof value === "boolean") return value ? 1 : 0;
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}
