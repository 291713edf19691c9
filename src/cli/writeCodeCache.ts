import { writeFile } from "node:fs/promises";
import { writeAtomicWith } from "../ingest/index.js";
import { codeCacheFile, compile, encodedCache } from "./codeCachedRequire.js";

/**
 * Runs `file`, awaits `exercise` (which calls what the commands call, so that those functions
 * are compiled), then writes the code cache beside it (codeCachedRequire.ts reads it) through
 * the project's atomic writer. Only the build calls it (scripts/write-code-caches.mjs), so the
 * command's start-up does not load it.
 */
export async function writeCodeCache(
  file: string,
  exercise: (exports: unknown) => void | Promise<void>,
): Promise<void> {
  const { script, module } = compile(file, undefined);
  await exercise(module.exports);
  const cache = encodedCache(script.createCachedData());
  await writeAtomicWith(codeCacheFile(file), (temporary) => writeFile(temporary, cache));
}
