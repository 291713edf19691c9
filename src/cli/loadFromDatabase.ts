import type { Command } from "commander";
import { type ComparisonMode, comparisonPairs } from "../core/comparisonPairs.js";
import { RagciError } from "../core/errors.js";
import { pilotStandardDeviations } from "../core/planning/pilotStandardDeviations.js";
import type { DocumentStats } from "../core/types.js";
import { oneSystemGroup } from "../ingest/readOneSystem.js";
import type { Pilot } from "../ingest/readPilot.js";
import { parseDatabaseUrl, urlForms, WAREHOUSES } from "../ingest/sql/databaseUrl.js";
import {
  type DatabaseRead,
  type ReadDatabaseOptions,
  readDatabase,
  readDatabasePairs,
} from "../ingest/sql/readDatabase.js";
import type { SqlSource } from "../ingest/sql/sourceRowsSql.js";
import type { InputDescription } from "../report/analysisReport.js";
import type { CommandIo } from "./io.js";
import type { LoadedCensus } from "./loadCensus.js";
import type { LoadedInput } from "./loadInput.js";
import type { LoadedPairs } from "./loadPairedInput.js";
import type { PlanInputOptions, PlanStart } from "./loadPlanStart.js";
import { parseSystemOption, pickSystems, type SystemOption } from "./systemFilter.js";

/** --from URL with --table T or --sql SELECT: per-query rows that stay in the database. */
export interface DatabaseOptions {
  readonly from?: string;
  readonly table?: string;
  readonly sql?: string;
}

/** Adds --from, --table and --sql to a command. */
export function withDatabaseOptions(command: Command): Command {
  return command
    .option(
      "--from <url>",
      `read through a database, aggregating there: ${urlForms()} (credentials from each client's usual environment variables; never shown)`,
    )
    .option("--table <name>", "with --from: the table of per-query results")
    .option("--sql <select>", "with --from: a SELECT giving the per-query results");
}

/**
 * Files, or --from with one of --table and --sql and a URL of a warehouse ragci reads.
 *
 * @throws RagciError on any other combination, naming what to give
 */
export function checkSources(files: readonly string[], options: DatabaseOptions): void {
  if (options.from === undefined) {
    if (options.table !== undefined || options.sql !== undefined)
      throw new RagciError("invalid-option", "--table and --sql go with --from URL");
    if (files.length === 0)
      throw new RagciError("invalid-option", "give the results files, or --from URL --table T");
    return;
  }
  if (files.length > 0)
    throw new RagciError("invalid-option", "give either files or --from, not both");
  if ((options.table === undefined) === (options.sql === undefined)) {
    throw new RagciError(
      "invalid-option",
      '--from needs the rows: --table NAME or --sql "SELECT …" (one of them)',
    );
  }
  parseDatabaseUrl(options.from);
}

/** The flags every --from read takes. */
type FromOptions = DatabaseOptions & {
  readonly doc?: string;
  readonly metric?: readonly string[];
  readonly aggregated?: boolean;
};

/** The reader's common options, after the checks every --from read shares. */
function databaseOptions(
  options: FromOptions,
  documentLabel: string | null,
): Omit<ReadDatabaseOptions, "metrics"> & { readonly metrics: readonly string[] } {
  if (options.from === undefined) throw new Error("internal: a --from read without --from");
  if (options.aggregated)
    throw new RagciError(
      "invalid-option",
      "--from aggregates in the database; leave out --aggregated",
    );
  if (documentLabel !== null)
    throw new RagciError(
      "invalid-option",
      "--from does not carry a design's stratum or psu yet; use ragci sql and --aggregated, or a file",
    );
  if (!options.metric || options.metric.length === 0)
    throw new RagciError("invalid-option", "--from: name the metric column(s) with --metric");
  const source: SqlSource =
    options.table !== undefined ? { table: options.table } : { sql: options.sql as string };
  return {
    url: options.from,
    env: process.env,
    source,
    doc: options.doc ?? null,
    metrics: options.metric,
  };
}

/** The report's description of a database input: the statement's digest and the K rows. */
function described(read: DatabaseRead<unknown>): InputDescription {
  return {
    file: read.name,
    sha256: read.sqlSha256,
    format: read.warehouse,
    rows: read.rowsReturned,
    kind: "per-document",
  };
}

const aggregating = (url: string) =>
  `aggregating in ${WAREHOUSES[parseDatabaseUrl(url).warehouse].label}…`;

/**
 * The per-document table of the --from source: the GROUP BY and the row checks run in the
 * database, only K rows per system × metric come back, and they are read as --aggregated.
 */
export async function loadFromDatabase(
  options: FromOptions & { readonly system?: string },
  io: CommandIo,
  designColumn: string | null,
): Promise<LoadedInput> {
  const common = databaseOptions(options, designColumn);
  const system = parseSystemOption(options.system);
  io.progress.update(aggregating(common.url));
  const read = await readDatabase({
    ...common,
    system: system?.column ?? null,
    systems: system?.values ?? null,
  });
  return {
    table: { ...read.table, groups: pickSystems(read.table.groups, system, read.name) },
    description: described(read),
  };
}

/**
 * compare --from: the systems joined on the query and differenced inside the database (each
 * system's and each pair's per-document sums come back), pairs chosen by core's policy once
 * the systems are known; the same shape as loadPairedInput's.
 */
export async function loadPairedFromDatabase(
  options: FromOptions & {
    readonly query?: string;
    readonly baseline?: string;
    readonly allPairs?: boolean;
    readonly intersect?: boolean;
  },
  metrics: readonly string[],
  systemOption: SystemOption | null,
  documentLabel: string | null,
  io: CommandIo,
): Promise<LoadedPairs> {
  const common = databaseOptions({ ...options, metric: metrics }, documentLabel);
  if (!systemOption)
    throw new RagciError(
      "invalid-option",
      "--from: name the system column with --system COL (or COL=A,B)",
    );
  let mode: ComparisonMode = "two";
  const pairs = (systems: readonly string[]): (readonly [string, string])[] => {
    const chosen = comparisonPairs(systems, {
      baseline: options.baseline ?? null,
      allPairs: options.allPairs ?? false,
    });
    mode = chosen.mode;
    return chosen.pairs;
  };
  io.progress.update(aggregating(common.url));
  const read = await readDatabasePairs({
    ...common,
    system: systemOption.column,
    systems: systemOption.values,
    query: options.query ?? null,
    intersect: options.intersect ?? false,
    pairs,
  });
  return { table: read.table, inputs: [described(read)], notices: [], mode, pairs };
}

/** One system's, or two systems' paired, per-document sums of one metric (plan, simulate). */
async function oneOrPair(
  options: FromOptions & { readonly system?: string; readonly query?: string },
  command: string,
): Promise<{
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly pair: { readonly a: string; readonly b: string } | null;
  readonly system: string | null;
  readonly systemsFound: number;
  readonly read: DatabaseRead<unknown>;
}> {
  const common = databaseOptions(options, null);
  const system = parseSystemOption(options.system);
  const values = system?.values ?? null;
  if (system && values && values.length > 2) {
    throw new RagciError(
      "invalid-option",
      `--system ${options.system}: name one system, or two to study their paired differences`,
    );
  }
  if (common.metrics.length !== 1)
    throw new RagciError("invalid-option", `${command} uses one metric: name it with --metric`);
  if (system && values?.length === 2) {
    const [a, b] = values as [string, string];
    if (a === b)
      throw new RagciError(
        "invalid-option",
        `--system ${options.system}: name two different systems to pair`,
      );
    const read = await readDatabasePairs({
      ...common,
      system: system.column,
      systems: [a, b],
      query: options.query ?? null,
      pairs: () => [[a, b]],
    });
    const difference = read.table.differences[0];
    if (!difference) throw new Error("internal: no paired difference");
    return {
      stats: difference.stats,
      metric: difference.metric,
      pair: { a, b },
      system: null,
      systemsFound: 2,
      read,
    };
  }
  // Every system's K rows come back, so a misspelt system is named with those found.
  const read = await readDatabase({
    ...common,
    system: system?.column ?? null,
    systemIfPresent: system ? null : "system",
  });
  const filter = system ? { column: system.column, value: values?.[0] ?? "" } : null;
  const group = oneSystemGroup(read.table, filter, read.name, command);
  return {
    stats: group.stats,
    metric: group.metric,
    pair: null,
    system: values?.[0] ?? null,
    systemsFound: new Set(read.table.groups.map((g) => g.system)).size,
    read,
  };
}

/**
 * simulate --from: the census the study draws from, one system's per-document sums or a
 * pair's differences, as loadCensus returns it (a two-stage unit column is not read yet).
 */
export async function loadCensusFromDatabase(
  options: FromOptions & { readonly system?: string; readonly query?: string },
  unitColumn: string | null,
): Promise<LoadedCensus & { readonly input: InputDescription }> {
  if (unitColumn !== null)
    throw new RagciError(
      "invalid-option",
      "--from does not read a two-stage study's units yet; use ragci sql and --aggregated, or a file",
    );
  const one = await oneOrPair(options, "simulate");
  return {
    stats: one.stats,
    metric: one.metric,
    system: one.system,
    pair: one.pair,
    labels: null,
    input: described(one.read),
  };
}

/** strata --from: the census's one system × metric, as readOneSystem returns it. */
export async function readOneSystemFromDatabase(
  options: FromOptions & { readonly system?: string },
  command: string,
): Promise<{
  readonly stats: DocumentStats;
  readonly metric: string;
  readonly systemsInFile: number;
  readonly labels: null;
  readonly input: InputDescription;
}> {
  const system = parseSystemOption(options.system);
  if (system?.values && system.values.length > 1)
    throw new RagciError(
      "invalid-option",
      `--system ${options.system}: ${command} uses one system (COL=NAME)`,
    );
  const one = await oneOrPair(options, command);
  return {
    stats: one.stats,
    metric: one.metric,
    systemsInFile: one.systemsFound,
    labels: null,
    input: described(one.read),
  };
}

/** plan --from: a pilot or census's S (one system, or a pair's differences), as planStartFromFile. */
export async function planStartFromDatabase(
  options: PlanInputOptions & DatabaseOptions,
  io: CommandIo,
): Promise<PlanStart> {
  if (options.sd !== undefined || options.sdMacro !== undefined || options.sdMicro !== undefined) {
    throw new RagciError("invalid-option", "give either --from or --sd, not both");
  }
  io.progress.update(aggregating(options.from as string));
  const one = await oneOrPair(options, "plan");
  io.progress.done();
  const pilot: Pilot = {
    stats: one.stats,
    paired: one.pair ? { ...one.pair, metric: one.metric } : null,
    oneOfSeveral: !one.pair && one.systemsFound > 1,
  };
  const s = pilotStandardDeviations(pilot.stats);
  let population = options.population ?? null;
  if (options.census) {
    if (population !== null && population !== s.documents) {
      throw new RagciError(
        "invalid-option",
        `--census: ${one.read.name} has ${s.documents} documents but --population says ${population}`,
      );
    }
    population = s.documents;
  }
  return {
    sd: { macro: s.macro, micro: s.micro },
    population,
    source: {
      kind: options.census ? "census" : "pilot",
      file: one.read.name,
      documents: s.documents,
      sha256: one.read.sqlSha256,
      ...(pilot.paired ? { difference: pilot.paired } : {}),
    },
    census: pilot.stats,
    oneSystemForDifference:
      options.difference !== undefined && !pilot.paired && pilot.oneOfSeveral
        ? (options.system ?? null)
        : null,
  };
}
