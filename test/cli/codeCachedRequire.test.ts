import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  codeCacheFile,
  requireCodeCached,
  requireIfCodeCached,
  runtimeOptions,
} from "../../src/cli/codeCachedRequire.js";
import { writeCodeCache } from "../../src/cli/writeCodeCache.js";
import { scratchDir } from "./runCli.js";

/** A CommonJS file that requires a file beside it and reports its own module variables. */
function commonJsFiles(dir: string, answer: number): string {
  writeFileSync(join(dir, "helper.cjs"), "module.exports = (x) => x * 2;\n");
  const file = join(dir, "main.cjs");
  writeFileSync(
    file,
    `"use strict";
const twice = require("./helper.cjs");
exports.placeholder = 1;
module.exports = { answer: () => twice(${answer / 2}), file: __filename, dir: __dirname,
  strict: (function () { return this === undefined; })() };
`,
  );
  return file;
}

describe("requireCodeCached", () => {
  // this user's caches (userCodeCache.test.ts covers them, in processes that exit) are off here
  const disabled = process.env.NODE_DISABLE_COMPILE_CACHE;
  beforeAll(() => {
    process.env.NODE_DISABLE_COMPILE_CACHE = "1";
  });
  afterAll(() => {
    if (disabled === undefined) delete process.env.NODE_DISABLE_COMPILE_CACHE;
    else process.env.NODE_DISABLE_COMPILE_CACHE = disabled;
  });

  it("runs a CommonJS file as require would, and reports that it had no cache", () => {
    const dir = scratchDir();
    const file = commonJsFiles(dir, 42);
    const { exports, cache } = requireCodeCached(file);
    expect(cache).toBe("absent");
    expect(exports).toMatchObject({ file, dir, strict: true });
    expect((exports as { answer: () => number }).answer()).toBe(42);
  });

  it("reads the cache writeCodeCache wrote after a run (accepted), with no temporary file left", async () => {
    const dir = scratchDir();
    const file = commonJsFiles(dir, 42);
    await writeCodeCache(file, async (exports) => {
      await Promise.resolve();
      (exports as { answer: () => number }).answer();
    });
    expect(readdirSync(dir).sort()).toEqual(["helper.cjs", "main.cjs", "main.cjs.v8cache"]);
    const { exports, cache } = requireCodeCached(file);
    expect(cache).toBe("accepted");
    expect((exports as { answer: () => number }).answer()).toBe(42);
  });

  it("compiles from the source when the cache is damaged or belongs to another source", async () => {
    const dir = scratchDir();
    const file = commonJsFiles(dir, 42);
    await writeCodeCache(file, () => {});
    const cache = readFileSync(codeCacheFile(file));
    // damaged anywhere, checksum included: never given to V8 (which would not notice); in the
    // runtime it records (the length at 32, the text from 34), read first, as another runtime's
    for (const [at, use] of [
      [0, "damaged"],
      [31, "damaged"],
      [32, "other-runtime"],
      [40, "other-runtime"],
      [cache.length - 1, "damaged"],
    ] as const) {
      const damaged = Buffer.from(cache);
      damaged[at] = (damaged[at] as number) ^ 0x01;
      writeFileSync(codeCacheFile(file), damaged);
      const fromDamaged = requireCodeCached(file);
      expect([at, fromDamaged.cache, fromDamaged.store]).toEqual([at, use, "build"]);
      expect((fromDamaged.exports as { answer: () => number }).answer()).toBe(42);
    }
    writeFileSync(codeCacheFile(file), cache.subarray(0, 20));
    expect(requireCodeCached(file).cache).toBe("damaged");
    // a rebuilt file beside the old (intact) cache: V8 rejects it and the new source runs
    writeFileSync(codeCacheFile(file), cache);
    commonJsFiles(dir, 1234);
    const rebuilt = requireCodeCached(file);
    expect(rebuilt.cache).toBe("rejected");
    expect((rebuilt.exports as { answer: () => number }).answer()).toBe(1234);
  });

  it("runs a file only if its cache is intact and of this runtime (requireIfCodeCached)", async () => {
    const dir = scratchDir();
    const file = commonJsFiles(dir, 42);
    expect(requireIfCodeCached(file)).toBeNull(); // no cache: not run
    await writeCodeCache(file, () => {});
    const cached = requireIfCodeCached(file);
    if (cached === null) throw new Error("an intact cache of this runtime was not used");
    expect(cached.cache).toBe("accepted");
    expect((cached.exports as { answer: () => number }).answer()).toBe(42);
    // the same cache, as another V8 (or other options) would have written it, its checksum
    // redone: not run
    const stored = readFileSync(codeCacheFile(file));
    const rest = stored.subarray(32);
    const length = rest.readUInt16LE(0);
    const runtime = rest.subarray(2, 2 + length).toString("utf8");
    expect(runtime).toBe(runtimeOptions());
    const other = Buffer.from(`${runtime}\n--max-old-space-size=4096`, "utf8");
    const otherLength = Buffer.alloc(2);
    otherLength.writeUInt16LE(other.length);
    const forged = Buffer.concat([otherLength, other, rest.subarray(2 + length)]);
    writeFileSync(
      codeCacheFile(file),
      Buffer.concat([createHash("sha256").update(forged).digest(), forged]),
    );
    expect(requireIfCodeCached(file)).toBeNull();
    expect(requireCodeCached(file).cache).toBe("other-runtime");
    // damaged: not run either
    writeFileSync(codeCacheFile(file), Buffer.from(stored).fill(0, 40, 48));
    expect(requireIfCodeCached(file)).toBeNull();
  });

  it("records V8's version and the options V8's flags come from, not those that preload modules", () => {
    const lines = runtimeOptions().split("\n");
    expect(lines[0]).toBe(process.versions.v8);
    expect(lines.some((line) => /^(--require|-r|--import)\b/.test(line))).toBe(false);
  });
});
