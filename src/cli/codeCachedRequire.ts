import { createHash } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/**
 * A CommonJS file of the command-line bundle loaded with V8's code cache: the bytecode of its
 * functions, saved by `npm run build` after runs that called them (scripts/bundle.mjs), so that
 * a run neither parses the file's source nor compiles the functions it calls again. Node 20
 * keeps no such cache for modules (`module.enableCompileCache` came in Node 22.1).
 *
 * Why: parsing and first-compiling the CLI's JavaScript was the largest part of a small
 * `analyze` after Node's own start-up (docs/performance.md).
 *
 * The cache file is [SHA-256 of the rest][length of V8's version][V8's version][V8's cache].
 * V8 checks its cache against the source, its version and its flags, and compiles the source
 * when they differ; it does not checksum the contents in release builds
 * (`--verify-snapshot-checksum` is off), so a damaged cache, which fails the SHA-256, is never
 * given to V8 (Node 22's compile cache keeps a checksum of its own for the same reason). The
 * version lets a caller skip the file when the cache was written by another V8.
 *
 * The file has no `import()` of its own: V8 loses a cached script's dynamic-import host options
 * (Node 20 reports "A dynamic import callback was not specified"), and Node's remedy,
 * `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`, is experimental and warns on stderr. The
 * wrapper passes `importModule` instead, this module's own `import()`, which the bundle
 * uses where the code imports a package (scripts/bundle.mjs).
 */

/**
 * How the cache was used: "accepted"; "rejected" by V8 (its flags, another source);
 * "damaged" (its checksum does not match); "other-v8" (written by another V8); "absent".
 * All but the first compile the source.
 */
export type CodeCacheUse = "accepted" | "rejected" | "damaged" | "other-v8" | "absent";

export interface CodeCachedModule {
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
}

/** Bytes of the SHA-256 that starts a cache file. */
const CHECKSUM_BYTES = 32;

/** The cache of `file`: the file beside it named FILE.v8cache. */
export function codeCacheFile(file: string): string {
  return `${file}.v8cache`;
}

/**
 * Runs the CommonJS `file` as `require` would (its own module, exports, require, __filename
 * and __dirname), compiled with its code cache when there is one that this V8 wrote.
 */
export function requireCodeCached(file: string): CodeCachedModule {
  const cached = storedCache(file);
  return run(file, cached.data, cached.use);
}

/**
 * `file` run with its code cache, only if its cache is intact and was written by this V8 (a
 * caller with a faster way than compiling the whole file, such as smaller ES module chunks,
 * takes it otherwise); null, with nothing run, if not.
 */
export function requireIfCodeCached(file: string): CodeCachedModule | null {
  const cached = storedCache(file);
  return cached.data === undefined ? null : run(file, cached.data, cached.use);
}

/**
 * Runs `file`, awaits `exercise` (which calls what the commands call, so that those functions
 * are compiled), then writes the code cache beside it, atomically (a temporary file, then a
 * rename).
 */
export async function writeCodeCache(
  file: string,
  exercise: (exports: unknown) => void | Promise<void>,
): Promise<void> {
  const { script, module } = compile(file, undefined);
  await exercise(module.exports);
  const version = Buffer.from(process.versions.v8, "utf8");
  const rest = Buffer.concat([Buffer.of(version.length), version, script.createCachedData()]);
  const target = codeCacheFile(file);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([sha256(rest), rest]));
  renameSync(temporary, target);
}

/** The stored cache's V8 data, if intact and of this V8, and how it stands. */
function storedCache(file: string): { data: Buffer | undefined; use: CodeCacheUse } {
  let stored: Buffer;
  try {
    stored = readFileSync(codeCacheFile(file));
  } catch {
    return { data: undefined, use: "absent" };
  }
  const rest = stored.subarray(CHECKSUM_BYTES);
  if (stored.length <= CHECKSUM_BYTES || !sha256(rest).equals(stored.subarray(0, CHECKSUM_BYTES)))
    return { data: undefined, use: "damaged" };
  const length = rest[0] as number;
  if (rest.subarray(1, 1 + length).toString("utf8") !== process.versions.v8)
    return { data: undefined, use: "other-v8" };
  return { data: rest.subarray(1 + length), use: "accepted" };
}

function run(file: string, data: Buffer | undefined, use: CodeCacheUse): CodeCachedModule {
  const { script, module } = compile(file, data);
  const cache = data !== undefined && script.cachedDataRejected ? "rejected" : use;
  return { exports: module.exports, cache };
}

function sha256(bytes: Buffer): Buffer {
  return createHash("sha256").update(bytes).digest();
}

/** `import()` for the file's wrapper: resolved from this module's place, beside the bundle. */
function importModule(specifier: string): Promise<unknown> {
  return import(specifier);
}

/**
 * CommonJS's wrapper around the source, with `importModule` after its five arguments, compiled
 * and run in this context.
 */
function compile(
  file: string,
  cachedData: Buffer | undefined,
): { script: vm.Script; module: { exports: unknown } } {
  const source = readFileSync(file, "utf8");
  const script = new vm.Script(
    `(function (exports, require, module, __filename, __dirname, importModule) {${source}\n})`,
    { filename: file, ...(cachedData ? { cachedData } : {}) },
  );
  const module = { exports: {} as unknown };
  const runWrapper = script.runInThisContext() as (
    exports: unknown,
    require: NodeJS.Require,
    module: { exports: unknown },
    filename: string,
    dirname: string,
    load: typeof importModule,
  ) => void;
  runWrapper(module.exports, createRequire(file), module, file, path.dirname(file), importModule);
  return { script, module };
}
