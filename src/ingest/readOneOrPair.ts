import { optionRef, RagciError } from "../core/errors.js";
import { inputFormat } from "./inputFormat.js";
import type { OneOrPairOptions, OneOrPairRead } from "./oneOrPair.js";
import type { FacetRead } from "./readFacetCells.js";
import { facetCellsOf } from "./readFileTables.js";
import { readOneSystem } from "./readOneSystem.js";
import { onlyDifference, readPairedResults } from "./readPairedResults.js";
import { type Selection, systemSelectionText } from "./selection.js";
import { sha256File } from "./sha256File.js";
import { type FilesSource, isDatabaseSource, type Source } from "./source.js";
import { refuseToolOutput, spoolSource } from "./spoolSource.js";

export type { OneOrPairOptions, OneOrPairRead } from "./oneOrPair.js";

/**
 * One system's per-document sums of one metric (the system named, or the source's only one),
 * or — two systems named — the per-document sums of their per-query differences b − a, from a
 * file or a database: a census, a pilot, a plan's start. Every such read goes through here.
 *
 * @throws RagciError for three systems or more (two where no pair is allowed), a pair of an
 * aggregated table, a pair without exactly one metric
 */
export async function readOneOrPair(
  source: Source,
  selection: Selection,
  options: OneOrPairOptions,
): Promise<OneOrPairRead> {
  const named = selection.systems ?? null;
  const allowPair = options.allowPair ?? true;
  if (named && named.length > (allowPair ? 2 : 1)) {
    throw new RagciError(
      "invalid-option",
      `${optionRef("system")} ${systemSelectionText(selection)}: ${allowPair ? "name one system, or two to study their paired differences" : `${options.usedBy} uses one system (COL=NAME)`}`,
      { option: "system" },
    );
  }
  const pair = named?.length === 2 ? { a: named[0] as string, b: named[1] as string } : null;
  if (pair) {
    if (!isDatabaseSource(source) && source.aggregated) {
      throw new RagciError(
        "invalid-option",
        `${optionRef("system")} COLUMN=A,B pairs per-query results on the query id; it cannot read an ${optionRef("aggregated")} table`,
        { option: "aggregated" },
      );
    }
    if (selection.metrics?.length !== 1) {
      throw new RagciError(
        "invalid-option",
        `${options.pairedUse ?? `a paired ${options.usedBy}`} uses one metric: name it with ${optionRef("metric")}`,
        { option: "metric" },
      );
    }
  }
  if (isDatabaseSource(source)) {
    // The database layer (the warehouses' adapters, the SQL) loads only for a database.
    const { readDatabaseOneOrPair } = await import("./sql/readDatabaseOneOrPair.js");
    return readDatabaseOneOrPair(source, selection, pair, options);
  }
  return readFileOneOrPair(source, selection, pair, options);
}

async function readFileOneOrPair(
  source: FilesSource,
  selection: Selection,
  pair: { readonly a: string; readonly b: string } | null,
  options: OneOrPairOptions,
): Promise<OneOrPairRead> {
  const file = source.files.length === 1 ? (source.files[0] as string) : null;
  if (file === null)
    throw new RagciError(
      "invalid-option",
      `${options.usedBy} reads one file (given ${source.files.length})`,
    );
  const spooled = await spoolSource(file, {
    ...(source.stdin ? { stdin: source.stdin } : {}),
    format: source.format ?? null,
  });
  const { displayName } = spooled;
  let faceted: FacetRead | null = null;
  try {
    // plan, strata and simulate read tables only: a tool's output, file or pipe, is refused.
    await refuseToolOutput(spooled.path, displayName, source, options.usedBy);
    options.progress?.status(`reading ${displayName}…`);
    // With facets, the cells, and the file averaged per query for the per-document sums.
    faceted = await facetCellsOf(spooled.path, displayName, null, source, selection);
    const path = faceted?.averagedPath ?? spooled.path;
    const format = faceted ? "parquet" : source.format;
    const hash = options.hash ?? true;
    const sha256 = hash ? sha256File(spooled.path, displayName) : Promise.resolve(null);
    const read = pair
      ? readPairedResults({
          inputs: [{ path, displayName }],
          format: format ?? null,
          doc: source.doc ?? null,
          query: faceted?.queryColumn ?? source.query ?? null,
          system: selection.systemColumn ?? null,
          onlySystems: [pair.a, pair.b],
          metrics: selection.metrics ?? [],
          pairs: () => [[pair.a, pair.b]],
          documentLabel: options.documentLabel ?? null,
          // plan, strata and simulate have no --intersect.
          intersect: null,
        }).then((table) => ({ ...onlyDifference(table), system: null, systemsFound: 2 }))
      : readOneSystem(
          {
            file: path,
            displayName,
            format,
            doc: source.doc,
            aggregated: source.aggregated,
            documentLabel: options.documentLabel ?? null,
          },
          selection,
          options.usedBy,
        ).then((one) => ({
          stats: one.stats,
          metric: one.metric,
          labels: one.labels,
          system: selection.systems?.[0] ?? null,
          systemsFound: one.systemsInFile,
        }));
    const [one, digest] = await Promise.all([read, sha256]);
    const systems = pair ? [pair.a, pair.b] : selection.systems;
    return {
      ...one,
      pair,
      ...(faceted
        ? {
            cells: faceted.cells.filter(
              (c) => !systems || (c.system !== null && systems.includes(c.system)),
            ),
          }
        : {}),
      description: {
        file: displayName,
        sha256: digest,
        format: inputFormat(spooled.path, source.format),
        kind: source.aggregated ? "per-document" : "per-query",
      },
    };
  } finally {
    await faceted?.cleanup();
    await spooled.cleanup();
  }
}
