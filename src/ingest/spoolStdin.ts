import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { RagciError } from "../core/errors.js";

/** Copies standard input to a private temporary file so DuckDB can read (and we can hash) it. */
export async function spoolStdin(
  stdin: Readable | undefined,
  extension: string,
): Promise<{ path: string; cleanup: () => Promise<void> }> {
  if (!stdin)
    throw new RagciError("invalid-option", `"-" reads standard input: give the source's stdin`);
  const dir = await mkdtemp(join(tmpdir(), "ragci-stdin-"));
  const path = join(dir, `stdin.${extension}`);
  await pipeline(stdin, createWriteStream(path));
  return { path, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
