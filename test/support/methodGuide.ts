/**
 * What the method guide's studies wrote (bench/method-guide/*.json, *.md) and the sections of
 * docs/choosing-an-interval.md they fill: the tests that hold the advice and the docs to them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "../..");

/** A study's results file, bench/method-guide/`file`, parsed (the caller states its shape). */
export function methodGuideJson<T>(file: string): T {
  return JSON.parse(readFileSync(join(ROOT, "bench/method-guide", file), "utf8")) as T;
}

/** A study's Markdown, bench/method-guide/`file`. */
export function methodGuideText(file: string): string {
  return readFileSync(join(ROOT, "bench/method-guide", file), "utf8");
}

/** The last line of a study's Markdown, its "In short: …" summary, without those words. */
export function methodGuideSummary(file: string): string {
  const last = methodGuideText(file).trim().split("\n").at(-1) ?? "";
  if (!last.startsWith("In short: ")) throw new Error(`${file} does not end with its summary`);
  return last.slice("In short: ".length);
}

/** The text between `<!-- name:start -->` and `<!-- name:end -->` of docs/choosing-an-interval.md. */
export function guidePageSection(name: string): string {
  const page = readFileSync(join(ROOT, "docs/choosing-an-interval.md"), "utf8");
  const start = page.indexOf(`<!-- ${name}:start -->`);
  const end = page.indexOf(`<!-- ${name}:end -->`);
  if (start < 0 || end < start)
    throw new Error(`docs/choosing-an-interval.md has no ${name} markers`);
  return page.slice(start, end);
}
