import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  codeCacheFile,
  requireCodeCached,
  requireIfCodeCached,
  writeCodeCache,
} from "../../src/cli/codeCachedRequire.js";
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
    // damaged anywhere, checksum included: never given to V8 (which would not notice)
    for (const at of [0, 31, 32, 40, cache.length - 1]) {
      const damaged = Buffer.from(cache);
      damaged[at] = (damaged[at] as number) ^ 0x01;
      writeFileSync(codeCacheFile(file), damaged);
      const fromDamaged = requireCodeCached(file);
      expect([at, fromDamaged.cache]).toEqual([at, "damaged"]);
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

  it("runs a file only if its cache is intact and this V8's (requireIfCodeCached)", async () => {
    const dir = scratchDir();
    const file = commonJsFiles(dir, 42);
    expect(requireIfCodeCached(file)).toBeNull(); // no cache: not run
    await writeCodeCache(file, () => {});
    const cached = requireIfCodeCached(file);
    expect(cached?.cache).toBe("accepted");
    expect((cached?.exports as { answer: () => number }).answer()).toBe(42);
    // the same cache, as another V8 would have written it (its checksum redone): not run
    const stored = readFileSync(codeCacheFile(file));
    const rest = stored.subarray(32);
    const length = rest[0] as number;
    const other = Buffer.from(`${"9".repeat(length - 1)}x`, "utf8");
    const forged = Buffer.concat([Buffer.of(length), other, rest.subarray(1 + length)]);
    writeFileSync(
      codeCacheFile(file),
      Buffer.concat([createHash("sha256").update(forged).digest(), forged]),
    );
    expect(requireIfCodeCached(file)).toBeNull();
    expect(requireCodeCached(file).cache).toBe("other-v8");
    // damaged: not run either
    writeFileSync(codeCacheFile(file), Buffer.from(stored).fill(0, 40, 48));
    expect(requireIfCodeCached(file)).toBeNull();
  });
});
