import { createHash } from "node:crypto";
import { basename, extname } from "node:path";
import {
  AGGREGATE_COLUMNS,
  aggregatesCsv,
  type MetricAggregates,
  writeFileAtomic,
} from "../ingest/index.js";
import type { AggregatesDownload } from "../report/html/provenanceSection.js";
import { withFlags } from "./flagHints.js";

/** "report.html" → "report-aggregates.csv": the name the embedded table downloads as. */
export function aggregatesFileName(htmlPath: string): string {
  const name = basename(htmlPath, extname(htmlPath));
  return `${name || "ragci"}-aggregates.csv`;
}

/**
 * The per-document table as --write-aggregates writes it (CSV), to embed in the page, with
 * the SHA-256 of exactly those bytes so a reader can check the file they download.
 */
export function aggregatesDownload(
  htmlPath: string,
  groups: readonly MetricAggregates[],
  labelColumn: string | null = null,
): AggregatesDownload {
  const csv = aggregatesCsv(groups, labelColumn);
  return {
    fileName: aggregatesFileName(htmlPath),
    csv,
    sha256: createHash("sha256").update(csv, "utf8").digest("hex"),
    documents: groups.reduce((t, g) => t + g.stats.ids.length, 0),
    columns: [...AGGREGATE_COLUMNS, ...(labelColumn ? [labelColumn] : [])],
  };
}

/**
 * Renders the page (the renderers, Observable Plot and linkedom load only when --html is
 * given, so other runs start as fast as before) and writes it atomically. Core's option
 * references (`chunkBootstrap`) become the CLI's flags (--chunk-bootstrap), as in every other
 * output of the command.
 */
export async function writeHtmlReport(path: string, render: () => Promise<string>): Promise<void> {
  await writeFileAtomic(path, withFlags(await render()));
}
