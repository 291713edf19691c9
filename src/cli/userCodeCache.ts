import { createHash, randomBytes } from "node:crypto";
import {
  accessSync,
  constants,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join } from "node:path";
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

/**
 * The user's cache file for `file` under this runtime and, when given, this command (each
 * command's first run writes the functions it compiled): named by `buildChecksum`, the checksum
 * that starts the build's cache of the file (a rebuilt or upgraded bundle has another, so an old
 * cache is never read for a new file; V8 itself compares only the source's length), by
 * `runtime` and by `command`. Undefined when there is no directory, or it cannot be made or
 * written, or others can write in it (the caller then does without).
 */
export function userCodeCacheFile(
  file: string,
  buildChecksum: Uint8Array,
  runtime: string,
  command?: string,
): string | undefined {
  const dir = userCodeCacheDir();
  if (dir === undefined) return undefined;
  const build = Buffer.from(buildChecksum);
  const runtimeHash = createHash("sha256").update(runtime).digest("hex").slice(0, 12);
  const target = join(
    dir,
    `${basename(file)}-${build.toString("hex").slice(0, 24)}-${runtimeHash}${command ? `-${command}` : ""}.v8cache`,
  );
  try {
    // recursive: no error when it exists (its mode is then checked below, not changed)
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    accessSync(dir, constants.W_OK);
    return ownDirectory(dir) ? target : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether only this user can write in `dir`: owned by this user, and not writable by its group
 * or others (a cache is bytecode the command runs, so one another user could put there is not
 * read). Where there are no user ids (Windows), the directory's place decides.
 */
function ownDirectory(dir: string): boolean {
  const stats = statSync(dir);
  if (typeof process.getuid !== "function") return true;
  return stats.isDirectory() && stats.uid === process.getuid() && (stats.mode & 0o022) === 0;
}

/**
 * Writes `bytes` to `target` through a temporary file beside it and a rename (a reader sees the
 * old file or the new one), synchronously, for a process's exit, after removing the stale
 * files beside it (removeStaleCaches). A cache is an optimisation: a failure leaves no
 * temporary file and is not reported.
 */
export function writeCacheFileSync(target: string, bytes: Uint8Array): void {
  removeStaleCaches(dirname(target), Date.now());
  const temporary = `${target}.${randomBytes(6).toString("hex")}.tmp`;
  try {
    writeFileSync(temporary, bytes, { mode: 0o600 });
    renameSync(temporary, target);
  } catch {
    rmSync(temporary, { force: true });
  }
}

/** Days after which a cache file is removed when another is written (it is written again if used). */
export const STALE_CACHE_DAYS = 30;

/**
 * Removes the caches in `dir` written more than STALE_CACHE_DAYS before `now` (those of older
 * versions of ragci, or Nodes no longer used, would otherwise stay; one still in use is written
 * again by its command's next run), and temporary files a killed process left over a day ago.
 * Only this directory's files that end as ragci's do; errors are ignored.
 */
export function removeStaleCaches(dir: string, now: number): void {
  const day = 86_400_000;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const age = name.endsWith(".v8cache")
      ? STALE_CACHE_DAYS * day
      : /\.v8cache\.[0-9a-f]{12}\.tmp$/.test(name)
        ? day
        : undefined;
    if (age === undefined) continue;
    try {
      const file = join(dir, name);
      if (now - statSync(file).mtimeMs > age) rmSync(file, { force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}

function safeHomedir(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined;
  }
}
