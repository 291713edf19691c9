import type { OptionName } from "../core/errors.js";

/** The flag of each option core messages may name (core/errors.ts optionRef). */
const FLAGS: Readonly<Record<OptionName, string>> = {
  replicates: "--replicates",
  chunkBootstrap: "--chunk-bootstrap",
  cutoff: "--cutoff",
  lonelyPsu: "--lonely-psu",
  baseline: "--baseline",
  allPairs: "--all-pairs",
  system: "--system",
  metric: "--metric",
  population: "--population",
  aggregated: "--aggregated",
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
