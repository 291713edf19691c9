/**
 * vitest globalSetup of the projects that run dist/ (cli, browser, database, oracle): runs
 * `npm run build` when a file the build reads is newer than the bundle, so that
 * `vitest run test/cli` after an edit tests the edit, not the last build.
 *
 * Why rebuild rather than run the CLI in-process: the CLI tests check what a user runs — the
 * bundle (package.json "bin"), its exit codes, its pipes, its worker threads and its chunks —
 * and test/cli/bundle.test.ts compares the bundle with tsc's modules. In-process runs would test
 * src/ instead and lose all of that.
 *
 * Several vitest processes (or projects) may start at once: a lock directory (mkdir is atomic)
 * lets one build while the others wait, then find the build fresh.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const ROOT = resolve(import.meta.dirname, "../..");
const BUNDLE = join(ROOT, "dist/bundle/ragci.js");
const LOCK = join(ROOT, "dist/.build-lock");
// What `npm run build` reads: tsc's sources and configuration, and the bundler's scripts.
const INPUTS = [
  "src",
  "scripts/bundle.mjs",
  "scripts/write-code-caches.mjs",
  "package.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

function newestMtime(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((n) => newestMtime(join(path, n))));
}

/** Milliseconds by which the newest input is newer than the bundle (Infinity without one). */
export function staleness(): number {
  const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) return Number.POSITIVE_INFINITY;
  return Math.max(...INPUTS.map((p) => newestMtime(join(ROOT, p)))) - built;
}

function lockHolderAlive(): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(LOCK, "pid"), "utf8"));
  } catch {
    // Between the holder's mkdir and its pid file, or removed: young locks count as held.
    const made = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
    return made !== undefined && Date.now() - made < 10_000;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function takeLock(): boolean {
  try {
    mkdirSync(LOCK);
    writeFileSync(join(LOCK, "pid"), String(process.pid));
    return true;
  } catch {
    return false;
  }
}

export default async function buildWhenStale(): Promise<void> {
  if (staleness() <= 0) return;
  mkdirSync(join(ROOT, "dist"), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  while (!takeLock()) {
    // A holder that died (killed mid-build) leaves its lock; its pid says so.
    await new Promise((r) => setTimeout(r, 500));
    if (!lockHolderAlive()) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`${LOCK} is held for 10 minutes; remove it`);
  }
  try {
    // Another process may have built while this one waited.
    if (staleness() <= 0) return;
    const started = Date.now();
    execFileSync("npm", ["run", "build", "--silent"], {
      cwd: ROOT,
      stdio: ["ignore", "ignore", "inherit"],
    });
    console.log(
      `buildWhenStale: src was newer than dist/bundle, rebuilt in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
