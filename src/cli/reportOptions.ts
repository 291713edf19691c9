import { RagciError } from "../core/errors.js";
import { type NamedOutput, refuseUnsafeOutputs } from "../ingest/index.js";
import { writeHtmlReport } from "./htmlOutput.js";
import type { CommandIo } from "./io.js";

/** The output flags every command shares. */
export interface ReportOptions {
  readonly json?: boolean;
  readonly markdown?: boolean;
  readonly output?: string;
  /** --html FILE: a self-contained HTML report, written besides the chosen output. */
  readonly html?: string;
}

export type ReportFormat = "json" | "markdown" | "terminal";

/** @throws RagciError when both --json and --markdown are given */
export function reportFormat(options: ReportOptions): ReportFormat {
  if (options.json && options.markdown)
    throw new RagciError("invalid-option", "choose one of --json and --markdown");
  return options.json ? "json" : options.markdown ? "markdown" : "terminal";
}

/**
 * Refuses, before any work, every output (-o and the command's own, such as --write-aggregates)
 * that would land on one of the inputs or on another output.
 */
export async function refuseUnsafe(
  inputs: readonly (string | undefined | null)[],
  options: ReportOptions,
  others: readonly (NamedOutput | null)[] = [],
): Promise<void> {
  await refuseUnsafeOutputs(
    inputs.filter((f): f is string => typeof f === "string"),
    [
      ...(options.output ? [{ flag: "-o", path: options.output }] : []),
      ...(options.html ? [{ flag: "--html", path: options.html }] : []),
      ...others.filter((o): o is NamedOutput => o !== null),
    ],
  );
}

/** A named output when its flag was given, for refuseUnsafe. */
export function namedOutput(flag: string, path: string | undefined): NamedOutput | null {
  return path ? { flag, path } : null;
}

/** A report's three renderings: JSON, Markdown and terminal text (colour only on a TTY). */
export interface ReportRenderers<R> {
  readonly json: (report: R) => string;
  readonly markdown: (report: R) => string;
  readonly terminal: (report: R, options: { readonly color: boolean }) => string;
}

/**
 * The report in the chosen format, after writing the --html page when asked for (its renderer
 * is loaded only then). Colour is for a terminal, never for -o.
 */
export async function renderReport<R>(
  report: R,
  format: ReportFormat,
  renderers: ReportRenderers<R>,
  how: {
    readonly options: ReportOptions;
    readonly io: CommandIo;
    readonly html?: (path: string) => Promise<string>;
  },
): Promise<string> {
  const { options, io, html } = how;
  if (options.html && html) {
    const path = options.html;
    await writeHtmlReport(path, () => html(path));
  }
  if (format === "json") return renderers.json(report);
  if (format === "markdown") return renderers.markdown(report);
  return renderers.terminal(report, { color: io.color && !options.output });
}
