import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { requireIfCodeCached } from "./codeCachedRequire.js";

/** What dist/bundle/ragci.cjs exports (commonJsEntry.ts). */
export interface CommonJsCli {
  start(argv: readonly string[]): Promise<void>;
}

/**
 * The command line as one CommonJS file with the code cache `npm run build` wrote, beside the
 * bundle's chunks, when that cache is intact and was written by this Node's V8 under the same
 * options; else null, and bin.ts loads the ES module chunks as before (another Node, as after
 * an install of a package built elsewhere; other V8 flags in NODE_OPTIONS; tsc's dist/cli, which
 * has no such file; NODE_DISABLE_COMPILE_CACHE set, the variable that turns off Node's own
 * compile cache).
 */
export function commonJsCli(): CommonJsCli | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return null;
  const file = fileURLToPath(new URL("./ragci.cjs", import.meta.url));
  if (!existsSync(file)) return null;
  return (requireIfCodeCached(file)?.exports as CommonJsCli | undefined) ?? null;
}
