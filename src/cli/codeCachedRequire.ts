import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";
import { userCodeCacheFile, writeCacheFileSync } from "./userCodeCache.js";

/**
 * A CommonJS file of the command-line bundle loaded with V8's code cache: the bytecode of its
 * functions, saved by `npm run build` after runs that called them (scripts/bundle.mjs), so that
 * a run neither parses the file's source nor compiles the functions it calls again. Node 20
 * keeps no such cache for modules (`module.enableCompileCache` came in Node 22.1).
 *
 * Why: parsing and first-compiling the CLI's JavaScript was the largest part of a small
 * `analyze` after Node's own start-up (docs/performance.md).
 *
 * The cache file is [SHA-256 of the rest][2-byte length][runtime][V8's cache], the runtime
 * being V8's version and the process's options (runtimeOptions). V8 checks its cache against
 * the source, its version and its flags, and compiles the source when they differ; it does not
 * checksum the contents in release builds (`--verify-snapshot-checksum` is off), so a damaged
 * cache, which fails the SHA-256, is never given to V8 (Node 22's compile cache keeps a
 * checksum of its own for the same reason). The runtime lets a caller skip the file when V8
 * would reject its cache: another V8, or other options (V8's flags come from them:
 * `--max-old-space-size` in NODE_OPTIONS is enough), without paying for a whole parse first.
 * Under another runtime (a package built under another Node), this user's cache of the file
 * is read instead, written by the first run that compiled it (userCodeCache.ts).
 *
 * The file has no `import()` of its own: V8 loses a cached script's dynamic-import host options
 * (Node 20 reports "A dynamic import callback was not specified"), and Node's remedy,
 * `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`, is experimental and warns on stderr. The
 * wrapper passes `importModule` instead, this module's own `import()`, which the bundle
 * uses where the code imports a package (scripts/bundle.mjs).
 */

/**
 * How the cache was used: "accepted"; "rejected" by V8 (another source); "damaged" (its
 * checksum does not match); "other-runtime" (written by another V8 or under other options);
 * "absent". All but the first compile the source.
 */
export type CodeCacheUse = "accepted" | "rejected" | "damaged" | "other-runtime" | "absent";

export interface CodeCachedModule {
  readonly exports: unknown;
  readonly cache: CodeCacheUse;
  /**
   * Whose cache: the build's, beside the file, or this user's (userCodeCache.ts), tried when
   * the build's is not of this runtime; without one of this runtime, the user's is written when
   * the process exits with code 0.
   */
  readonly store: "build" | "user";
}

/** Bytes of the SHA-256 that starts a cache file. */
const CHECKSUM_BYTES = 32;

/** The cache of `file`: the file beside it named FILE.v8cache. */
export function codeCacheFile(file: string): string {
  return `${file}.v8cache`;
}

/**
 * Runs the CommonJS `file` as `require` would (its own module, exports, require, __filename
 * and __dirname), compiled with its code cache when it has one of this runtime (V8, options):
 * the build's, else this user's for `command` (userCodeCache.ts).
 */
export function requireCodeCached(file: string, command?: string): CodeCachedModule {
  return run(file, foundCache(file, command));
}

/**
 * `file` run with a code cache of this runtime, the build's or this user's, or run to write
 * the user's one (see CodeCachedModule.store); null, with nothing run, when neither can be (a
 * caller with a faster way than compiling the whole file, such as smaller ES module chunks,
 * takes it then).
 */
export function requireIfCodeCached(file: string, command?: string): CodeCachedModule | null {
  const found = foundCache(file, command);
  return found.data === undefined && found.writeTo === undefined ? null : run(file, found);
}

/** A cache file for V8's cache `data`: [SHA-256 of the rest][2-byte length][runtime][data]. */
export function encodedCache(data: Buffer): Buffer {
  const runtime = Buffer.from(runtimeOptions(), "utf8");
  const length = Buffer.alloc(2);
  length.writeUInt16LE(runtime.length);
  const rest = Buffer.concat([length, runtime, data]);
  return Buffer.concat([sha256(rest), rest]);
}

/**
 * V8's version and the options of this process (its command line's and NODE_OPTIONS', where
 * V8's flags come from), less those that only preload modules (--require, --import), one per
 * line.
 */
export function runtimeOptions(): string {
  const given = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)].filter(
    (option) => option !== "",
  );
  const kept: string[] = [];
  for (let i = 0; i < given.length; i++) {
    const option = given[i] as string;
    if (option === "--require" || option === "-r" || option === "--import") i++;
    else if (!/^--(require|import)=/.test(option)) kept.push(option);
  }
  return [process.versions.v8, ...kept].join("\n");
}

interface FoundCache {
  readonly data: Buffer | undefined;
  readonly use: CodeCacheUse;
  readonly store: "build" | "user";
  /** The user's cache file, written at exit unless `data` was accepted. */
  readonly writeTo?: string;
}

/** The build's cache if intact and of this runtime, else the user's (or where to write it). */
function foundCache(file: string, command: string | undefined): FoundCache {
  const { checksum, ...stored } = storedCache(codeCacheFile(file));
  if (stored.data !== undefined) return { ...stored, store: "build" };
  const user =
    checksum === undefined
      ? undefined
      : userCodeCacheFile(file, checksum, runtimeOptions(), command);
  if (user === undefined) return { ...stored, store: "build" };
  const { data, use } = storedCache(user);
  return { data, use, store: "user", writeTo: user };
}

/**
 * The stored cache's V8 data, if intact and of this runtime, how it stands, and the checksum
 * that starts it (which names the user's caches of the same build).
 */
function storedCache(cacheFile: string): {
  data: Buffer | undefined;
  use: CodeCacheUse;
  checksum?: Buffer;
} {
  let stored: Buffer;
  try {
    stored = readFileSync(cacheFile);
  } catch {
    return { data: undefined, use: "absent" };
  }
  if (stored.length <= CHECKSUM_BYTES) return { data: undefined, use: "damaged" };
  const checksum = stored.subarray(0, CHECKSUM_BYTES);
  const rest = stored.subarray(CHECKSUM_BYTES);
  const length = rest.length >= 2 ? rest.readUInt16LE(0) : 0;
  // the runtime first: another one's cache is not used, so its 1 MB need not be hashed
  if (rest.subarray(2, 2 + length).toString("utf8") !== runtimeOptions())
    return { data: undefined, use: "other-runtime", checksum };
  if (!sha256(rest).equals(checksum)) return { data: undefined, use: "damaged", checksum };
  return { data: rest.subarray(2 + length), use: "accepted", checksum };
}

function run(file: string, found: FoundCache): CodeCachedModule {
  const { script, module } = compile(file, found.data);
  const rejected = found.data !== undefined && script.cachedDataRejected === true;
  const target = found.writeTo;
  if (target !== undefined && (found.data === undefined || rejected))
    // at exit, after the command: the cache then holds every function the run compiled
    process.once("exit", (code) => {
      if (code === 0) writeCacheFileSync(target, encodedCache(script.createCachedData()));
    });
  return { exports: module.exports, cache: rejected ? "rejected" : found.use, store: found.store };
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
 * and run in this context (writeCodeCache.ts compiles the file this way too, without a cache).
 */
export function compile(
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
