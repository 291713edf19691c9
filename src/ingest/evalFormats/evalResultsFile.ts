import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { optionRef, RagciError } from "../../core/errors.js";
import type { ReadingPass } from "../readResults.js";
import { resolveMetrics } from "../resolveColumns.js";
import { isLargeRun, readLargeRun } from "../trecRun/largeRun.js";
import { readQrels } from "../trecRun/readQrels.js";
import { distinctRuns, type InputRows } from "./distinctRuns.js";
import type { EvalFormat, EvalRow, EvalRows, ToolFacets } from "./evalRows.js";
import { EVAL_FORMATS, readEvalContent, requireFormat } from "./readEvalContent.js";
import { trecRunFormat } from "./trecRun.js";

export interface EvalResultsOptions {
  /** Named by --format; else each file's tool is detected from its content. */
  readonly format: EvalFormat | null;
  /** The --doc field path, dotted. */
  readonly doc: string | null;
  /** The --metric names asked for; null: every metric the file has. */
  readonly metrics: readonly string[] | null;
  readonly docMap?: ReadonlyMap<string, string> | null;
  /** TREC runs: the qrels file (--qrels), read once for every run. */
  readonly qrels?: string | null;
  /** TREC runs: score the qrels' queries a run lacks as empty rankings (trec_eval -c). */
  readonly completeQueries?: boolean;
  /** TREC runs of this size or more are scored out of core (default LARGE_RUN_BYTES). */
  readonly largeRunBytes?: number;
  /** Told how far each pass over a run scored out of core is (0–1), by file. */
  readonly progress?: (file: string, pass: ReadingPass, fraction: number) => void;
  /** Provider errors left out (default) or kept as failures (EvalReadOptions.errors). */
  readonly errors?: "apart" | "failures";
  /** The facets asked for, by the tool's names (EvalReadOptions.facets); absent: none. */
  readonly facets?: ToolFacets;
}

/** A tool's output rewritten as a per-query JSONL table (query_id, doc, system, metrics). */
export interface EvalResultsFile {
  readonly path: string;
  /** Items read from each input, in order. */
  readonly rowsPerInput: readonly number[];
  /** The tool of each input, in order. */
  readonly tools: readonly EvalFormat["name"][];
  /** The run each input holds, when its tool records one (see distinctRuns); else null. */
  readonly runs: readonly (string | null)[];
  /** The metric columns in it, as the tool names them. */
  readonly metrics: readonly string[];
  /** How the file was read, each true of this file (shown in the report). */
  readonly notes: readonly string[];
  readonly cleanup: () => Promise<void>;
}

const COLUMNS = ["query_id", "doc", "system", "trial", "judge", "variant"];

const FACETS = ["trial", "judge", "variant"] as const;

/** The readers of runs that --qrels scores. */
const RUN_FORMATS: readonly EvalFormat["name"][] = ["trec_run", "run_json", "run_jsonl"];

function where(row: EvalRow): string {
  return `query ${row.query} of system ${row.system}`;
}

/**
 * Reads an evaluation tool's output and writes its items as per-query rows to a temporary
 * JSONL file that the ordinary readers take, after checking what they cannot word well for
 * this file: every item has a document at the --doc path and a value for each metric.
 */
export async function evalResultsFile(
  inputs: readonly { readonly path: string; readonly file: string }[],
  options: EvalResultsOptions,
): Promise<EvalResultsFile> {
  const file = inputs.map((i) => i.file).join(" + ");
  const docPath = options.doc ? options.doc.split(".") : null;
  const rows: EvalRow[] = [];
  const notes: string[] = [];
  const tools: EvalFormat["name"][] = [];
  const rowsPerInput: number[] = [];
  const metricNotes = new Map<string, string[]>();
  const notMetrics = new Map<string, string>();
  const missingReasons = new Map<string, string>();
  const reads: InputRows[] = [];
  const qrels = options.qrels ? await readQrels(options.qrels, options.qrels) : null;
  for (const input of inputs) {
    const readOptions = {
      file: input.file,
      docPath,
      docMap: options.docMap ?? null,
      qrels,
      completeQueries: options.completeQueries ?? false,
      metrics: options.metrics,
      errors: options.errors ?? "apart",
      ...(options.facets ? { facets: options.facets } : {}),
    } as const;
    let format: EvalFormat;
    let read: EvalRows;
    // A TREC run too large to read whole is scored out of core (trecRun/largeRun.ts).
    if (await isLargeRun(input.path, options.format, options.largeRunBytes)) {
      format = trecRunFormat;
      const progress = options.progress;
      read = await readLargeRun(
        input.path,
        readOptions,
        progress ? (pass, fraction) => progress(input.file, pass, fraction) : undefined,
      );
    } else {
      const content = await readEvalContent(input.path, input.file);
      const found = options.format ?? EVAL_FORMATS.find((f) => f.detect(content)) ?? null;
      if (found === null)
        throw new RagciError(
          "invalid-value",
          `${input.file}: not the output of a tool ragci reads (${EVAL_FORMATS.map((f) => f.name).join(", ")}); name it with ${optionRef("format")}`,
          { file: input.file },
        );
      format = found;
      requireFormat(format, content, input.file);
      read = format.toRows(content, readOptions);
    }
    // A facet asked of a tool whose reader does not carry it is refused, never left out.
    for (const facet of FACETS)
      if (options.facets?.[facet] && read.rows.some((r) => (r[facet] ?? null) === null))
        throw new RagciError(
          "invalid-option",
          `${input.file}: ragci reads no ${facet} from ${format.name} output; leave out ${optionRef(facet)}`,
          { file: input.file, option: facet },
        );
    reads.push({
      file: input.file,
      tool: format.name,
      rows: read.rows,
      ...(read.run ? { run: read.run } : {}),
    });
    rowsPerInput.push(read.rows.length);
    for (const note of read.notes) if (!notes.includes(note)) notes.push(note);
    for (const [name, reason] of Object.entries(read.notMetrics ?? {}))
      notMetrics.set(name, reason);
    for (const [metric, reason] of Object.entries(read.missingReasons ?? {}))
      missingReasons.set(metric, reason);
    for (const [metric, note] of Object.entries(read.metricNotes ?? {}))
      metricNotes.set(metric, [...(metricNotes.get(metric) ?? []), note]);
    tools.push(format.name);
  }
  // --qrels scores runs (TREC or JSON); given with other tools' outputs it would be ignored.
  if (options.qrels && !tools.some((t) => RUN_FORMATS.includes(t)))
    throw new RagciError(
      "invalid-option",
      `${file}: ${optionRef("qrels")} scores run files (TREC or JSON), and this is ${tools[0]} output; leave ${optionRef("qrels")} out`,
      { file },
    );
  // Two runs holding systems of one name stay two systems (or are refused as one run twice).
  const distinct = distinctRuns(reads);
  for (const r of distinct.rows) rows.push(...r);
  notes.push(...distinct.notes);
  if (rows.length === 0)
    throw new RagciError("empty-input", `${file}: no scored items; there is nothing to analyse`, {
      file,
    });
  const available = [...new Set(rows.flatMap((r) => Object.keys(r.metrics)))];
  const clash = available.find((m) => COLUMNS.includes(m));
  if (clash)
    throw new RagciError(
      "invalid-value",
      `${file}: a metric is named ${clash}, which ragci uses for the item's ${clash === "doc" ? "document" : clash === "query_id" ? "id" : clash}; rename it in the tool's output`,
      { file },
    );
  if (!options.metrics && available.length !== 1)
    throw new RagciError(
      "missing-column",
      `${file}: name the metric with ${optionRef("metric")} (the file's metrics: ${available.join(", ") || "none"})`,
      { file },
    );
  const asked = options.metrics?.find((m) => !available.includes(m) && notMetrics.has(m));
  if (asked !== undefined)
    throw new RagciError("missing-column", `${file}: ${notMetrics.get(asked)}`, {
      file,
      column: asked,
    });
  const metrics = options.metrics ? resolveMetrics(options.metrics, available, file) : available;
  for (const metric of metrics)
    for (const note of metricNotes.get(metric) ?? []) if (!notes.includes(note)) notes.push(note);
  const noDoc = rows.filter((r) => r.doc === null || r.doc.trim() === "");
  if (noDoc.length > 0) {
    const source = options.docMap
      ? `in ${optionRef("docMap")}`
      : `at ${optionRef("doc")} ${options.doc}`;
    throw new RagciError(
      "invalid-value",
      `${file}: ${noDoc.length} of ${rows.length} items have no document ${source} (first: ${where(noDoc[0] as EvalRow)}); every item needs one`,
      { file },
    );
  }
  for (const metric of metrics) {
    const missing = rows.filter(
      (r) => r.metrics[metric] === null || r.metrics[metric] === undefined,
    );
    if (missing.length > 0)
      throw new RagciError(
        "invalid-value",
        `${file}: metric ${metric} has no number for ${missing.length} of ${rows.length} items (first: ${where(missing[0] as EvalRow)}); every result needs a finite value${missingReasons.has(metric) ? `, and ${missingReasons.get(metric)}` : ""}`,
        { file, column: metric },
      );
  }
  const dir = await mkdtemp(join(tmpdir(), "ragci-eval-"));
  const out = join(dir, "results.jsonl");
  const lines = rows.map((r) =>
    JSON.stringify({
      query_id: r.query,
      doc: r.doc,
      system: r.system,
      ...Object.fromEntries(FACETS.filter((f) => options.facets?.[f]).map((f) => [f, r[f]])),
      ...Object.fromEntries(metrics.map((m) => [m, r.metrics[m] ?? null])),
    }),
  );
  await writeFile(out, `${lines.join("\n")}\n`);
  return {
    path: out,
    tools,
    runs: reads.map((r) => (r.run ? `${r.tool} ${r.run.key}` : null)),
    rowsPerInput,
    metrics,
    notes,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
