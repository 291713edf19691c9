import { RagciError } from "../../core/errors.js";
import { type EvalRow, meanMetrics, metricNames } from "./evalRows.js";

/** Where a row belongs: its system, query (and document), trial and judge labels. */
export interface FacetKey {
  readonly system: string;
  readonly query: string;
  readonly doc: string | null;
  /** The trial label; null when trials are not kept (then a key's values are averaged). */
  readonly trial: string | null;
  readonly judge: string | null;
}

interface Gathered {
  readonly key: FacetKey;
  readonly values: Map<string, number[]>;
}

/**
 * A tool's rows with their facets, as readers gather them when trials (or judges) are kept:
 * one row per (system, query, trial, judge). With a trial label a metric's value given twice
 * for one key is refused (a trial counted once); without, the key's values are averaged (the
 * tool's trials, not kept, reduced by their mean as the tools' default reducers do).
 */
export class FacetRows {
  private readonly items = new Map<string, Gathered>();

  constructor(private readonly file: string) {}

  add(key: FacetKey, metric: string, value: number | null): void {
    const id = JSON.stringify([key.system, key.query, key.doc, key.trial, key.judge]);
    let item = this.items.get(id);
    if (item === undefined) {
      item = { key, values: new Map() };
      this.items.set(id, item);
    }
    const values = item.values.get(metric) ?? [];
    if (key.trial !== null && values.length > 0)
      throw new RagciError(
        "invalid-value",
        `${this.file}: query ${key.query} of system ${key.system}, trial ${key.trial}${key.judge === null ? "" : `, judge ${key.judge}`} has two values of ${metric}; each trial is one result`,
        { file: this.file },
      );
    if (value !== null) values.push(value);
    item.values.set(metric, values);
  }

  rows(): EvalRow[] {
    const all = [...this.items.values()];
    const names = metricNames(all);
    return all.map(({ key, values }) => ({
      query: key.query,
      doc: key.doc,
      system: key.system,
      trial: key.trial,
      judge: key.judge,
      metrics: meanMetrics(names, values),
    }));
  }
}
