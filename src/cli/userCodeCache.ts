import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, isAbsolute, join } from "node:path";
import { isMainThread } from "node:worker_threads";

/**
 * This user's code caches of the command-line bundle, for a Node whose V8 cannot use the caches
 * `npm run build` wrote (codeCachedRequire.ts): a package installed from a registry was built
 * under another Node, and npm (11) runs no install script of a dependency by default, so no
 * install-time step can write them. The first run of a command under this Node writes its
 * cache here; the next ones read it. Node ≥ 22 does the same for its own compile cache
 * (`module.enableCompileCache`, under the system's temporary directory).
 *
 * The directory: $XDG_CACHE_HOME/ragci/code-cache (an absolute XDG_CACHE_HOME), else
 * ~/.cache/ragci/code-cache (%LOCALAPPDATA%\ragci\code-cache on Windows); none when
 * NODE_DISABLE_COMPILE_CACHE is set (Node's variable for turning its compile cache off), in a
 * worker thread, or without a home.
 */
export function userCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.NODE_DISABLE_COMPILE_CACHE || !isMainThread) return undefined;
  const xdg = env.XDG_CACHE_HOME;
  let root: string | undefined;
  if (xdg && isAbsolute(xdg)) root = xdg;
  else if (process.platform === "win32") root = env.LOCALAPPDATA;
  else {
    const home = safeHomedir();
    root = home ? join(home, ".cache") : undefined;
  }
  return root ? join(root, "ragci", "code-cache") : undefined;
}

/** Bytes of the SHA-256 that starts a cache file (codeCachedRequire.ts's format). */
const CHECKSUM_BYTES = 32;

/**
 * The user's cache file for `file` under this runtime and, when given, this command (each
 * command's first run writes the functions it compiled): named by the checksum that starts the
 * build's cache `buildCache` (a rebuilt or upgraded bundle has another, so an old cache is never
 * read for a new file; V8 itself compares only the source's length), by `runtime` and by
 * `command`. Undefined when there is no directory, the build's cache is missing, or the
 * directory cannot be made or written (the caller then does without).
 */
export function userCodeCacheFile(
  file: string,
  buildCache: string,
  runtime: string,
  command?: string,
): string | undefined {
  const dir = userCodeCacheDir();
  const build = dir === undefined ? undefined : leadingBytes(buildCache, CHECKSUM_BYTES);
  if (dir === undefined || build === undefined) return undefined;
  const runtimeHash = createHash("sha256").update(runtime).digest("hex").slice(0, 12);
  const target = join(
    dir,
    `${basename(file)}-${build.toString("hex").slice(0, 24)}-${runtimeHash}${command ? `-${command}` : ""}.v8cache`,
  );
  if (existsSync(target)) return target;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return target;
  } catch {
    return undefined;
  }
}

/**
 * Writes `bytes` to `target` through a temporary file beside it and a rename (a reader sees the
 * old file or the new one), synchronously, for a process's exit. A cache is an optimisation:
 * a failure leaves no temporary file and is not reported.
 */
export function writeCacheFileSync(target: string, bytes: Uint8Array): void {
  const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, bytes, { mode: 0o600 });
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** The first `count` bytes of `file`, or undefined if it is shorter or cannot be read. */
function leadingBytes(file: string, count: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const bytes = Buffer.alloc(count);
    return readSync(fd, bytes, 0, count, 0) === count ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function safeHomedir(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined;
  }
}
