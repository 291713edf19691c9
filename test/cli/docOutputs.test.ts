/**
 * The outputs the README and the docs show are what the CLI prints: every block marked
 * `<!-- output of: ragci ARGS -->` is the first lines of that command's output, byte for byte.
 * `node scripts/docOutputs.mjs` (after npm run build) rewrites them when the output changes.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script, without types
import { cliLines, DOCUMENTS, outputBlocks, ROOT } from "../../scripts/docOutputs.mjs";

type Block = { args: string[]; lines: string[] };

describe("the command outputs shown in the docs", () => {
  for (const doc of DOCUMENTS as string[]) {
    const blocks = outputBlocks(readFileSync(join(ROOT, doc), "utf8")) as Block[];
    it(`${doc} marks at least one output`, () => {
      expect(blocks.length).toBeGreaterThan(0);
    });
    for (const block of blocks)
      it(`${doc}: ragci ${block.args.join(" ")}`, () => {
        expect(block.lines).toEqual(
          (cliLines(block.args) as string[]).slice(0, block.lines.length),
        );
      }, 120_000);
  }
});
