import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/**
 * A CommonJS file of the command-line bundle loaded with V8's code cache: the bytecode of its
 * functions, saved by `npm run build` after a run that called them (scripts/bundle.mjs), so
 * that a run neither parses the file's source nor compiles the functions it calls again.
 * Node 20 keeps no such cache for modules (`module.enableCompileCache` came in Node 22.1).
 *
 * Why: @stdlib's three distribution functions are about 420 small modules (0.77 MB of
 * JavaScript) whose parsing and first calls took about 20 ms of a 180 ms `analyze`; with the
 * cache, about 9 ms (docs/performance.md).
 *
 * V8 checks the cache against the source, its own version and its flags: a cache that does not
 * match (another Node, a rebuilt file) is rejected and the file is compiled from its source as
 * `require` would, with the same result. V8 does not checksum a cache's contents in release
 * builds (`--verify-snapshot-checksum` is off), so the file starts with the SHA-256 of the rest,
 * as Node 22's compile cache keeps a checksum of its own: a damaged cache is not given to V8.
 * A missing cache is not an error either.
 */

/**
 * How the cache was used: "accepted"; "rejected" by V8 (another Node, another source);
 * "damaged" (its checksum does not match); "absent". All but the first compile the source.
 */
export type CodeCacheUse = "accepted" | "rejected" | "damaged" | "absent";

/** Bytes of the SHA-256 that starts a cache file. */
const CHECKSUM_BYTES = 32;

export interface CodeCachedModule {
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
}

/** The cache of `file`: the file beside it named FILE.v8cache. */
export function codeCacheFile(file: string): string {
  return `${file}.v8cache`;
}

/**
 * Runs the CommonJS `file` as `require` would (its own module, exports, require, __filename
 * and __dirname), compiled with its code cache when there is one.
 */
export function requireCodeCached(file: string): CodeCachedModule {
  let stored: Buffer | undefined;
  try {
    stored = readFileSync(codeCacheFile(file));
  } catch {
    stored = undefined; // no cache: compiled from source
  }
  const cachedData = stored && checkedPayload(stored);
  const { script, module } = compile(file, cachedData);
  const cache: CodeCacheUse =
    stored === undefined
      ? "absent"
      : cachedData === undefined
        ? "damaged"
        : script.cachedDataRejected
          ? "rejected"
          : "accepted";
  return { exports: module.exports, cache };
}

/** The cache after its SHA-256, if the two match. */
function checkedPayload(stored: Buffer): Buffer | undefined {
  const payload = stored.subarray(CHECKSUM_BYTES);
  const sum = createHash("sha256").update(payload).digest();
  return stored.length > CHECKSUM_BYTES && sum.equals(stored.subarray(0, CHECKSUM_BYTES))
    ? payload
    : undefined;
}

/**
 * Runs `file`, lets `exercise` call what a command calls (so that those functions are compiled),
 * then writes the code cache beside it, atomically (a temporary file, then a rename).
 */
export function writeCodeCache(file: string, exercise: (exports: unknown) => void): void {
  const { script, module } = compile(file, undefined);
  exercise(module.exports);
  const target = codeCacheFile(file);
  const temporary = `${target}.${process.pid}.tmp`;
  const payload = script.createCachedData();
  writeFileSync(temporary, Buffer.concat([createHash("sha256").update(payload).digest(), payload]));
  renameSync(temporary, target);
}

/** CommonJS's wrapper around the source, compiled and run in this context. */
function compile(
  file: string,
  cachedData: Buffer | undefined,
): { script: vm.Script; module: { exports: unknown } } {
  const source = readFileSync(file, "utf8");
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as unknown };
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
  ) => void;
  run(module.exports, createRequire(file), module, file, path.dirname(file));
  return { script, module };
}
