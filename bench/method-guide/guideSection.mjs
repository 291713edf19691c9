// The method guide's studies each write their summary into docs/choosing-an-interval.md,
// between a pair of markers that the page keeps: <!-- name:start --> … <!-- name:end -->.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const GUIDE = join(
  resolve(dirname(fileURLToPath(import.meta.url)), "../.."),
  "docs",
  "choosing-an-interval.md",
);

/** Replaces what stands between the guide's `name` markers with `text`; throws without them. */
export function writeGuideSection(name, text) {
  const page = readFileSync(GUIDE, "utf8");
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const a = page.indexOf(start);
  const b = page.indexOf(end);
  if (a < 0 || b < a) throw new Error(`docs/choosing-an-interval.md has no ${name} markers`);
  writeFileSync(GUIDE, `${page.slice(0, a + start.length)}\n${text}\n${page.slice(b)}`);
}
