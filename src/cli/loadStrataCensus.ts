import { RagciError } from "../core/errors.js";
import type { DocumentStats } from "../core/types.js";
import { readOneSystem } from "../ingest/readOneSystem.js";
import { sha256File } from "../ingest/sha256File.js";
import type { CensusInputOptions } from "./censusFileOptions.js";
import { checkSources } from "./databaseSource.js";
import type { CommandIo } from "./io.js";
import { parseSystemFilter, parseSystemOption } from "./systemFilter.js";

/** strata's census: one system × metric, and how its source is named and digested. */
export interface StrataCensus {
  readonly stats: DocumentStats;
  readonly metric: string;
  /** The file, or the database URL (password hidden) with its table or "(--sql)". */
  readonly source: string;
  /** The file's SHA-256 (read only when the HTML page asks), or the statement's. */
  readonly sha256: () => Promise<string>;
}

/**
 * The census strata splits: one system's per-document sums of one metric, from the file or
 * through the database with --from.
 *
 * @throws RagciError for neither or both sources, or two systems named with --system
 */
export async function loadStrataCensus(
  file: string | undefined,
  options: CensusInputOptions,
  io: CommandIo,
): Promise<StrataCensus> {
  checkSources(file === undefined ? [] : [file], options, "the census file");
  const values = parseSystemOption(options.system)?.values;
  if (values && values.length > 1)
    throw new RagciError(
      "invalid-option",
      `--system ${options.system}: strata uses one system (COL=NAME)`,
    );
  if (file === undefined) {
    const { oneSystemFromDatabase } = await import("./oneSystemFromDatabase.js");
    const { stats, metric, read } = await oneSystemFromDatabase(options, "strata", io);
    return { stats, metric, source: read.name, sha256: async () => read.sqlSha256 };
  }
  io.progress.update(`reading ${file}…`);
  const filter = parseSystemFilter(options.system);
  const { stats, metric } = await readOneSystem({ ...options, file }, filter, "strata");
  return { stats, metric, source: file, sha256: () => sha256File(file) };
}
