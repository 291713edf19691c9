import type { OptionName } from "../core/errors.js";

/** The flag of each option core and ingest messages may name (core/errors.ts optionRef): the one table of library option → flag. */
const FLAGS: Readonly<Record<OptionName, string>> = {
  replicates: "--replicates",
  chunkBootstrap: "--chunk-bootstrap",
  cutoff: "--cutoff",
  allocation: "--allocation",
  lonelyPsu: "--lonely-psu",
  baseline: "--baseline",
  allPairs: "--all-pairs",
  system: "--system",
  metric: "--metric",
  doc: "--doc",
  query: "--query",
  format: "--format",
  aggregated: "--aggregated",
  censusAggregated: "--census-aggregated",
  docMap: "--doc-map",
  errorsAsFailures: "--errors-as-failures",
  qrels: "--qrels",
  completeQueries: "--complete-queries",
  intersect: "--intersect",
  url: "--from",
  table: "--table",
  sql: "--sql",
  writeAggregates: "--write-aggregates",
  census: "--census",
  population: "--population",
  sd: "--sd",
  sdMacro: "--sd-macro",
  sdMicro: "--sd-micro",
  documents: "--documents",
  dialect: "--dialect",
  design: "--design",
  sampling: "--sampling",
  stratum: "--stratum",
  psu: "--psu",
  documentLabel: "--label",
  k: "--k",
  units: "--units",
  perUnit: "--per-unit",
  reps: "--reps",
  pair: "--pair",
  curve: "--curve",
  trial: "--trial",
  judge: "--judge",
  variant: "--variant",
  failIfWorse: "--fail-if-worse",
  requireNoninferior: "--require-noninferior",
  margin: "--margin",
  lowerIsBetter: "--lower-is-better",
  halfWidth: "--half-width",
  difference: "--difference",
  power: "--power",
  cost: "--cost",
  budget: "--budget",
  level: "--level",
  fpc: "--fpc",
};

/**
 * Rewrites core's option references (`replicates`) as the CLI's flags (--replicates). The flags
 * hold no quote or backslash, so this is safe on rendered JSON, Markdown and terminal text.
 */
export function withFlags(text: string): string {
  return text.replace(/`([A-Za-z]+)`/g, (whole, name: string) =>
    Object.hasOwn(FLAGS, name) ? (FLAGS[name as OptionName] as string) : whole,
  );
}
