// The command outputs the docs show, kept equal to what the CLI prints.
//
// A fenced block right after a line `<!-- output of: ragci ARGS -->` holds the first lines of
// what `ragci ARGS` prints (run from the repository's root through dist/bundle; ARGS split on
// spaces, no quoting). test/cli/docOutputs.test.ts checks every such block; this script, run
// after `npm run build`, rewrites them from the CLI, each with as many lines as it has now:
//   node scripts/docOutputs.mjs
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const DOCUMENTS = ["README.md", "docs/analyze.md", "docs/compare.md", "docs/designs.md", "docs/simulate.md"];
const MARKER = /<!-- output of: ragci (.+?) -->\n```\n([\s\S]*?)```/g;

/** Every marked block of a document: its command's arguments, its lines, and where it sits. */
export function outputBlocks(text) {
  return [...text.matchAll(MARKER)].map((m) => ({
    args: (m[1] ?? "").split(" "),
    lines: (m[2] ?? "").replace(/\n$/, "").split("\n"),
    start: (m.index ?? 0) + m[0].indexOf("```\n") + 4,
    end: (m.index ?? 0) + m[0].length - 3,
  }));
}

/** What `ragci ARGS` prints on stdout, as lines. */
export function cliLines(args) {
  const out = execFileSync(process.execPath, [join(ROOT, "dist/bundle/ragci.js"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    maxBuffer: 1 << 26,
  });
  return out.replace(/\n$/, "").split("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const doc of DOCUMENTS) {
    const path = join(ROOT, doc);
    let text = readFileSync(path, "utf8");
    // From the last block back, so that the earlier blocks' offsets still hold.
    for (const block of outputBlocks(text).reverse()) {
      const lines = cliLines(block.args).slice(0, block.lines.length);
      text = `${text.slice(0, block.start)}${lines.join("\n")}\n${text.slice(block.end)}`;
    }
    writeFileSync(path, text);
    console.error(`${doc}: ${outputBlocks(text).length} blocks`);
  }
}
