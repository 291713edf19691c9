/**
 * Every Markdown link from README.md and docs/*.md to a path in the repository resolves to a file
 * or folder that exists, and a `#fragment` on a Markdown page names one of its headings (GitHub's
 * anchors: lower case, punctuation dropped, spaces as hyphens). Links to the web are not followed.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

/** The page's text outside fenced code blocks (a link written inside one is not a link). */
function prose(text: string): string {
  return text.replaceAll(/^```[\s\S]*?^```/gm, "");
}

/** `[text](target)` and `![alt](target)` targets, without an optional "title". */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1] as string,
  );
}

/** GitHub's anchor of each heading of a Markdown page. */
function anchors(text: string): Set<string> {
  const slugs = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} +(.+?) *#*$/gm))
    slugs.add(
      (heading as string)
        .toLowerCase()
        .replaceAll(/[^\p{L}\p{N}\s_-]/gu, "")
        .replaceAll(" ", "-"),
    );
  return slugs;
}

/** What is wrong with each link of `page` to the repository (empty when every one resolves). */
function brokenLinks(page: string, text: string): string[] {
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [path = "", fragment] = target.split("#", 2);
    const file = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), decodeURI(path));
    if (!file.startsWith(ROOT) || !existsSync(file)) {
      broken.push(`${page}: ${target} (no ${relative(ROOT, file)})`);
      continue;
    }
    if (fragment !== undefined && file.endsWith(".md")) {
      if (!anchors(readFileSync(file, "utf8")).has(fragment))
        broken.push(`${page}: ${target} (no heading #${fragment} in ${relative(ROOT, file)})`);
    }
  }
  return broken;
}

describe("links in README.md and docs/", () => {
  it("reads every page, and the README links to every page of docs/", () => {
    expect(PAGES.length).toBeGreaterThan(10);
    const readmeTargets = linkTargets(readFileSync(join(ROOT, "README.md"), "utf8"));
    for (const page of PAGES.filter((p) => p !== "README.md"))
      expect(
        readmeTargets.some((t) => t.split("#")[0] === page),
        `README links ${page}`,
      ).toBe(true);
  });

  it.each(PAGES)("every link of %s to the repository resolves", (page) => {
    expect(brokenLinks(page, readFileSync(join(ROOT, page), "utf8"))).toEqual([]);
  });

  it("the check is real: a missing file, a path outside docs/ and a missing heading are reported", () => {
    const text = [
      "[a](missing.md) [b](analyze.md#no-such-heading) ![c](docs/analyze-report.png)",
      "[d](analyze.md#what-it-prints) [e](https://example.org/x.md)",
      "```sh",
      "[f](inside-a-code-block.md)",
      "```",
    ].join("\n");
    expect(brokenLinks("docs/page.md", text)).toEqual([
      "docs/page.md: missing.md (no docs/missing.md)",
      "docs/page.md: analyze.md#no-such-heading (no heading #no-such-heading in docs/analyze.md)",
      "docs/page.md: docs/analyze-report.png (no docs/docs/analyze-report.png)",
    ]);
  });
});
