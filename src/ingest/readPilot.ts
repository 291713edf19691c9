import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { readOneSystem, type SystemFilter } from "./readOneSystem.js";
import { onlyDifference, readPairedResults } from "./readPairedResults.js";

/** The per-document table a plan's S comes from: one system's, or the difference of two. */
export interface Pilot {
  readonly stats: DocumentStats;
  /** The pair differenced (b − a per query, paired on the query id), if two were named. */
  readonly paired: { readonly a: string; readonly b: string; readonly metric: string } | null;
  /** One system picked by --system from a file of several. */
  readonly oneOfSeveral: boolean;
}

export interface PilotInput {
  readonly file: string;
  readonly format?: string | undefined;
  readonly doc?: string | undefined;
  readonly query?: string | undefined;
  readonly metric?: readonly string[] | undefined;
  readonly aggregated?: boolean | undefined;
  /** `--system COLUMN=VALUE` (one system) or `COLUMN=A,B` (their per-query differences). */
  readonly system: SystemFilter | null;
  /** The option as typed, for messages. */
  readonly systemText?: string | undefined;
}

/** A pilot sample or census for `ragci plan`: one system's per-document sums or a pair's. */
export async function readPilot(input: PilotInput): Promise<Pilot> {
  const filter = input.system;
  const pair = filter?.value.includes(",") ? filter.value.split(",") : null;
  if (filter && pair) {
    const [a, b] = pair;
    if (pair.length !== 2 || !a || !b || a === b) {
      throw new RagciError(
        "invalid-option",
        `--system ${input.systemText}: name one system, or two different ones to pair (e.g. ${filter.column}=bm25,tfidf)`,
      );
    }
    if (input.aggregated) {
      throw new RagciError(
        "invalid-option",
        "--system COLUMN=A,B pairs per-query results on the query id; it cannot read an --aggregated table",
      );
    }
    const metric = input.metric?.length === 1 ? input.metric[0] : undefined;
    if (metric === undefined) {
      throw new RagciError(
        "invalid-option",
        "a paired plan uses one metric: name it with --metric",
      );
    }
    const table = await readPairedResults({
      inputs: [{ path: input.file, displayName: input.file }],
      format: input.format ?? null,
      doc: input.doc ?? null,
      query: input.query ?? null,
      system: filter.column,
      metrics: [metric],
      pairs: (systems) => {
        const missing = pair.filter((s) => !systems.includes(s));
        if (missing.length > 0) {
          throw new RagciError(
            "invalid-option",
            `${input.file}: no system "${missing.join('", "')}" in column ${filter.column} (found ${systems.join(", ")})`,
          );
        }
        return [[a, b]];
      },
    });
    return { stats: onlyDifference(table).stats, paired: { a, b, metric }, oneOfSeveral: false };
  }
  const one = await readOneSystem(input, filter, "plan");
  return { stats: one.stats, paired: null, oneOfSeveral: one.systemsInFile > 1 };
}
