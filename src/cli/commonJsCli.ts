import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { requireIfCodeCached } from "./codeCachedRequire.js";

/** What dist/bundle/ragci.cjs exports (commonJsEntry.ts). */
export interface CommonJsCli {
  start(argv: readonly string[]): Promise<void>;
}

/**
 * The command line as one CommonJS file beside the bundle's chunks, run with the code cache
 * `npm run build` wrote when it is intact and of this Node's V8 and options, else with this
 * user's cache of the command `argv` names (a package built under another Node: the command's
 * first run writes it; userCodeCache.ts); null when neither can be, and bin.ts loads the ES
 * module chunks as before (tsc's dist/cli, which has no such file; NODE_DISABLE_COMPILE_CACHE
 * set, the variable that turns off Node's own compile cache; no cache directory that this user
 * alone can write in).
 */
export function commonJsCli(argv: readonly string[]): CommonJsCli | null {
  if (process.env.NODE_DISABLE_COMPILE_CACHE) return null;
  const file = fileURLToPath(new URL("./ragci.cjs", import.meta.url));
  if (!existsSync(file)) return null;
  return (requireIfCodeCached(file, commandOf(argv))?.exports as CommonJsCli | undefined) ?? null;
}

/** The command argv names, for the user's cache's file name: "analyze", …; "none" for options. */
export function commandOf(argv: readonly string[]): string {
  const first = argv[0] ?? "";
  return /^[a-z][a-z-]{0,31}$/.test(first) ? first : "none";
}
