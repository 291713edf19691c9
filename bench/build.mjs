// The build bench/analyze.mjs measures: dist/, another --dist DIR, or a snapshot of the
// working tree (--snapshot) or of HEAD (--head) built in bench/out/; and what it was built from.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const OUT = path.join(ROOT, "bench", "out");

/**
 * Copies the working tree's src/ (or the committed HEAD's, via `git archive`) into `dir` and
 * builds it there, so that edits in progress in src/ or a concurrent rebuild of dist/ cannot
 * change the code in the middle of a run. Writes what was built to `dir/COMMIT`.
 */
function buildSnapshot(dir, from) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const files = ["src", "package.json", "tsconfig.json", "tsconfig.build.json"];
  const git = (...args) => execFileSync("git", args, { cwd: ROOT, maxBuffer: 1 << 28 });
  if (from === "head") {
    execFileSync("tar", ["-x", "-C", dir], {
      input: git("archive", "--format=tar", "HEAD", ...files),
    });
  } else {
    for (const f of files) cpSync(path.join(ROOT, f), path.join(dir, f), { recursive: true });
  }
  const head = String(git("rev-parse", "--short", "HEAD")).trim();
  const dirty =
    from === "worktree" && String(git("status", "--porcelain", "--", "src")).trim() !== "";
  const digest = createHash("sha256");
  const srcDir = path.join(dir, "src");
  for (const f of readdirSync(srcDir, { recursive: true }).map(String).sort()) {
    const full = path.join(srcDir, f);
    if (statSync(full).isFile()) digest.update(f).update(readFileSync(full));
  }
  const stamp = dirty
    ? `${head} + uncommitted src/ changes (src/ sha256 ${digest.digest("hex").slice(0, 12)})`
    : head;
  writeFileSync(path.join(dir, "COMMIT"), stamp);
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const built = spawnSync(process.execPath, [tsc, "-p", path.join(dir, "tsconfig.build.json")], {
    encoding: "utf8",
  });
  if (built.status !== 0) {
    process.stderr.write(
      `bench: tsc reported errors building ${dir} (continuing with its output):\n`,
    );
    process.stderr.write(`${built.stdout}`.split("\n").slice(0, 10).join("\n"));
  }
  return path.join(dir, "dist");
}

/** dist/ by default; --snapshot (working tree) or --head built in bench/out/; --dist DIR. */
export function buildUnderTest(argv) {
  if (argv.includes("--snapshot")) return buildSnapshot(path.join(OUT, "snapshot"), "worktree");
  if (argv.includes("--head")) return buildSnapshot(path.join(OUT, "head"), "head");
  const at = argv.indexOf("--dist");
  return path.resolve(ROOT, at >= 0 ? argv[at + 1] : "dist");
}

export function newestMtime(dir, ext) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(ext)) {
      newest = Math.max(
        newest,
        statSync(path.join(entry.parentPath ?? entry.path, entry.name)).mtimeMs,
      );
    }
  }
  return newest;
}

/** The commit the build was made from: its snapshot's COMMIT, or its checkout's HEAD. */
export function buildCommit(dist) {
  const stamp = path.join(dist, "..", "COMMIT");
  if (existsSync(stamp)) return readFileSync(stamp, "utf8").trim();
  const git = (...args) =>
    execFileSync("git", args, { cwd: path.join(dist, ".."), encoding: "utf8" }).trim();
  try {
    const dirty = git("status", "--porcelain", "--", "src") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " + uncommitted src/ changes" : ""}`;
  } catch {
    return "unknown";
  }
}
