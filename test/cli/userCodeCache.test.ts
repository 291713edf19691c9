import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { codeCacheFile, requireIfCodeCached } from "../../src/cli/codeCachedRequire.js";
import { commandOf } from "../../src/cli/commonJsCli.js";
import {
  removeStaleCaches,
  STALE_CACHE_DAYS,
  userCodeCacheDir,
  userCodeCacheFile,
  writeCacheFileSync,
} from "../../src/cli/userCodeCache.js";
import { writeCodeCache } from "../../src/cli/writeCodeCache.js";
import { EXAMPLE, ROOT, ragci, scratchDir } from "./runCli.js";

// A package installed from a registry was built under another Node: the build's code caches
// are not of this runtime, and each command's first run writes this user's (userCodeCache.ts).
// These run in processes of their own, since the cache is written when the process exits.

const BUNDLE = join(ROOT, "dist/bundle");

/** A cache file (codeCachedRequire.ts's format) for `runtime` holding `data`. */
function cacheFileOf(runtime: string, data: Buffer): Buffer {
  const text = Buffer.from(runtime, "utf8");
  const length = Buffer.alloc(2);
  length.writeUInt16LE(text.length);
  const rest = Buffer.concat([length, text, data]);
  return Buffer.concat([createHash("sha256").update(rest).digest(), rest]);
}

describe("this user's code-cache directory", () => {
  it("is $XDG_CACHE_HOME/ragci/code-cache, else ~/.cache/…; none when Node's compile cache is off", () => {
    expect(userCodeCacheDir({ XDG_CACHE_HOME: "/x/cache" })).toBe("/x/cache/ragci/code-cache");
    // a relative XDG_CACHE_HOME is ignored, as the XDG specification says
    expect(userCodeCacheDir({ XDG_CACHE_HOME: "cache" })).toMatch(/\/\.cache\/ragci\/code-cache$/);
    expect(userCodeCacheDir({ XDG_CACHE_HOME: "/x", NODE_DISABLE_COMPILE_CACHE: "1" })).toBe(
      undefined,
    );
  });

  it("names a cache by the build's cache, the runtime and the command; none without a place to write", async () => {
    const dir = scratchDir();
    const file = join(dir, "main.cjs");
    writeFileSync(file, "module.exports = 1;\n");
    const saved = process.env.XDG_CACHE_HOME;
    try {
      process.env.XDG_CACHE_HOME = join(dir, "cache");
      // no build cache to name it by: nothing run, no directory made
      expect(requireIfCodeCached(file, "analyze")).toBeNull();
      expect(existsSync(join(dir, "cache"))).toBe(false);
      await writeCodeCache(file, () => {});
      // the checksum that starts the build's cache (codeCachedRequire.ts passes it)
      const buildChecksum = () => readFileSync(codeCacheFile(file)).subarray(0, 32);
      const name = userCodeCacheFile(file, buildChecksum(), "runtime", "analyze");
      const checksum = readFileSync(codeCacheFile(file)).subarray(0, 12).toString("hex");
      expect(name).toMatch(
        new RegExp(
          `/cache/ragci/code-cache/main\\.cjs-${checksum}-[0-9a-f]{12}-analyze\\.v8cache$`,
        ),
      );
      expect(statSync(join(dir, "cache/ragci/code-cache")).mode & 0o777).toBe(0o700);
      // another runtime, another command, another build: other files
      const names = new Set([
        name,
        userCodeCacheFile(file, buildChecksum(), "another runtime", "analyze"),
        userCodeCacheFile(file, buildChecksum(), "runtime", "compare"),
      ]);
      writeFileSync(file, "module.exports = 2;\n");
      await writeCodeCache(file, () => {});
      names.add(userCodeCacheFile(file, buildChecksum(), "runtime", "analyze"));
      expect(names.size).toBe(4);
      // a directory others can write in: not read (a cache is bytecode the command runs)
      const shared = join(dir, "cache/ragci/code-cache");
      chmodSync(shared, 0o777);
      expect(userCodeCacheFile(file, buildChecksum(), "runtime", "analyze")).toBeUndefined();
      chmodSync(shared, 0o700);
      expect(userCodeCacheFile(file, buildChecksum(), "runtime", "analyze")).toBeDefined();
      // a directory that cannot be made (a file stands where it would go): none
      writeFileSync(join(dir, "not-a-directory"), "");
      process.env.XDG_CACHE_HOME = join(dir, "not-a-directory");
      expect(userCodeCacheFile(file, buildChecksum(), "runtime", "analyze")).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = saved;
    }
  });

  it("removes, when it writes a cache, those written over 30 days ago and temporary files over a day old", () => {
    const dir = scratchDir();
    const now = Date.now();
    const day = 86_400_000;
    const files: [string, number][] = [
      ["ragci.cjs-aaaaaaaaaaaaaaaaaaaaaaaa-bbbbbbbbbbbb-analyze.v8cache", 31 * day], // stale
      ["ragci.cjs-cccccccccccccccccccccccc-bbbbbbbbbbbb-analyze.v8cache", 29 * day],
      ["ragci.cjs-cccccccccccccccccccccccc-bbbbbbbbbbbb-plan.v8cache.0123456789ab.tmp", 2 * day], // stale
      ["ragci.cjs-cccccccccccccccccccccccc-bbbbbbbbbbbb-plan.v8cache.ba9876543210.tmp", day / 2],
      ["notes.txt", 400 * day], // not ragci's
    ];
    for (const [name, age] of files) {
      writeFileSync(join(dir, name), "x");
      utimesSync(join(dir, name), (now - age) / 1000, (now - age) / 1000);
    }
    writeCacheFileSync(
      join(dir, "ragci.cjs-dddddddddddddddddddddddd-bbbbbbbbbbbb-compare.v8cache"),
      Buffer.from("y"),
    );
    expect(readdirSync(dir).sort()).toEqual(
      [
        "notes.txt",
        "ragci.cjs-cccccccccccccccccccccccc-bbbbbbbbbbbb-analyze.v8cache",
        "ragci.cjs-cccccccccccccccccccccccc-bbbbbbbbbbbb-plan.v8cache.ba9876543210.tmp",
        "ragci.cjs-dddddddddddddddddddddddd-bbbbbbbbbbbb-compare.v8cache",
      ].sort(),
    );
    expect(STALE_CACHE_DAYS).toBe(30);
    removeStaleCaches(join(dir, "missing"), now); // no directory: nothing to do, no error
  });

  it("takes the command's name from argv, and 'none' for anything else", () => {
    expect(commandOf(["analyze", "x.csv"])).toBe("analyze");
    expect(commandOf(["--help"])).toBe("none");
    expect(commandOf([])).toBe("none");
    expect(commandOf(["../../etc/passwd"])).toBe("none");
  });
});

describe("a CommonJS file whose build cache is another runtime's", () => {
  /**
   * Runs requireCodeCached(file, "cmd") in a plain `node` (the build cache below is written
   * under vitest's options, so it is another runtime's there), exiting with `exitCode`.
   */
  function load(file: string, cache: string, exitCode = 0): { cache: string; store: string } {
    const script = join(scratchDir(), "load.mjs");
    writeFileSync(
      script,
      `import { requireCodeCached } from ${JSON.stringify(join(ROOT, "dist/cli/codeCachedRequire.js"))};
const m = requireCodeCached(${JSON.stringify(file)}, "cmd");
if (m.exports.answer() !== 42) throw new Error("wrong module");
console.log(JSON.stringify({ cache: m.cache, store: m.store }));
process.exitCode = ${exitCode};`,
    );
    const run = spawnSync(process.execPath, [script], {
      encoding: "utf8",
      env: { ...process.env, NODE_OPTIONS: "", XDG_CACHE_HOME: cache },
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(exitCode);
    return JSON.parse(run.stdout);
  }

  it("is run, and its cache written at a successful exit, read by the next run, mended when damaged", async () => {
    const dir = scratchDir();
    const cache = join(dir, "cache");
    const file = join(dir, "main.cjs");
    writeFileSync(file, "module.exports = { answer: () => 6 * 7 };\n");
    await writeCodeCache(file, () => {});
    const files = () => readdirSync(join(cache, "ragci/code-cache"));
    // a failing run writes nothing
    expect(load(file, cache, 1)).toEqual({ cache: "absent", store: "user" });
    expect(files()).toEqual([]);
    expect(load(file, cache)).toEqual({ cache: "absent", store: "user" });
    const [written] = files();
    expect(files()).toEqual([
      expect.stringMatching(/^main\.cjs-[0-9a-f]{24}-[0-9a-f]{12}-cmd\.v8cache$/),
    ]);
    expect(load(file, cache)).toEqual({ cache: "accepted", store: "user" });
    // damaged: compiled from the source, and written again
    const path = join(cache, "ragci/code-cache", written as string);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    writeFileSync(path, bytes);
    expect(load(file, cache)).toEqual({ cache: "damaged", store: "user" });
    expect(load(file, cache)).toEqual({ cache: "accepted", store: "user" });
    expect(files()).toHaveLength(1); // no temporary file left
    // intact and of the child's runtime (a plain node's), but not a cache V8 takes: written again
    writeFileSync(path, cacheFileOf(process.versions.v8, Buffer.from("not V8's cache")));
    expect(load(file, cache)).toEqual({ cache: "rejected", store: "user" });
    expect(load(file, cache)).toEqual({ cache: "accepted", store: "user" });
  });
});

describe("ragci installed from a package built under another Node", () => {
  // --no-deprecation: an option the build's caches were not written under (Node's, not V8's)
  const probe = (dir: string) => {
    const file = join(dir, "probe.cjs");
    writeFileSync(
      file,
      `const vm = require("node:vm"), fs = require("node:fs");
const Script = vm.Script, seen = [];
vm.Script = function (source, options) {
  const script = new Script(source, options);
  seen.push({ file: options && options.filename, cached: Boolean(options && options.cachedData),
    rejected: script.cachedDataRejected === true });
  return script;
};
process.on("exit", () => fs.writeFileSync(process.env.PROBE_OUT, JSON.stringify(seen)));`,
    );
    return file;
  };

  it("writes each command's cache on its first successful run and reads it after, with the same output", () => {
    const dir = scratchDir();
    const cache = join(dir, "cache");
    const preload = probe(dir);
    const args = ["analyze", EXAMPLE, "--metric", "hit5", "--system", "system=bm25", "--json"];
    const expected = ragci(args);
    expect(expected.code).toBe(0);
    let n = 0;
    const run = (runArgs: readonly string[], env: Record<string, string> = {}) => {
      const out = join(dir, `seen-${n++}.json`);
      const result = ragci(runArgs, {
        env: {
          NODE_OPTIONS: `--no-deprecation --require ${preload}`,
          PROBE_OUT: out,
          XDG_CACHE_HOME: cache,
          ...env,
        },
      });
      const seen = JSON.parse(readFileSync(out, "utf8")) as {
        file: string;
        cached: boolean;
        rejected: boolean;
      }[];
      return { ...result, seen };
    };
    const ragciCjs = join(BUNDLE, "ragci.cjs");
    const written = () => readdirSync(join(cache, "ragci/code-cache")).sort();

    const first = run(args);
    expect([first.code, first.stderr, first.stdout]).toEqual([0, "", expected.stdout]);
    expect(first.seen).toEqual([{ file: ragciCjs, cached: false, rejected: false }]);
    expect(written()).toEqual([
      expect.stringMatching(/^ragci\.cjs-[0-9a-f]{24}-[0-9a-f]{12}-analyze\.v8cache$/),
    ]);

    const second = run(args);
    expect([second.code, second.stderr, second.stdout]).toEqual([0, "", expected.stdout]);
    expect(second.seen).toEqual([{ file: ragciCjs, cached: true, rejected: false }]);

    // a run that fails (exit 2) writes no cache for its command
    const failed = run(["compare", join(dir, "missing.csv"), "--metric", "hit5"]);
    expect(failed.code).toBe(2);
    expect(written()).toHaveLength(1);

    // NODE_DISABLE_COMPILE_CACHE: the ES module chunks, as before, and nothing written
    const disabled = run(
      ["plan", EXAMPLE, "--metric", "hit5", "--system", "system=bm25", "--half-width", "0.03"],
      {
        NODE_DISABLE_COMPILE_CACHE: "1",
      },
    );
    expect(disabled.code).toBe(0);
    expect(disabled.seen.map((s) => s.file)).toEqual([join(BUNDLE, "stdlibDistributions.cjs")]);
    expect(written()).toHaveLength(1);

    // no directory to write in (a file stands where it would go): the chunks, same output
    writeFileSync(join(dir, "file"), "");
    const unwritable = run(args, { XDG_CACHE_HOME: join(dir, "file") });
    expect([unwritable.code, unwritable.stderr, unwritable.stdout]).toEqual([
      0,
      "",
      expected.stdout,
    ]);
    expect(unwritable.seen.map((s) => s.file)).toEqual([join(BUNDLE, "stdlibDistributions.cjs")]);
  }, 60_000);
});
