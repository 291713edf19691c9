import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ESM build script without type declarations
import { kernelModulesSource } from "../../../scripts/build-kernels.mjs";
import { scoreReplicatesWasm } from "../../../src/core/bootstrap/documentBootstrapKernel.js";
import * as modules from "../../../src/core/kernels/kernelModules.js";
import { createPcg64 } from "../../../src/core/numeric/pcg64.js";

/** The part of the WebAssembly JS API used here (the project's lib settings do not declare it). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: {
        new (bytes: Uint8Array): object;
        exports(m: object): { kind: string; name: string }[];
      };
    };
  }
).WebAssembly;
const decode = (base64: string) => Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));

// The kernels' oracles (pcg64Kernel, tailKernel and documentBootstrapKernel tests) compare each
// kernel with its JS form; they would pass on the JS form alone if a module failed to load, since
// the library then falls back to JS. These tests pin the modules themselves.
describe("the WebAssembly kernel modules", () => {
  it("are what scripts/build-kernels.mjs assembles from the .wat files (npm run build:kernels)", async () => {
    const committed = readFileSync(
      new URL("../../../src/core/kernels/kernelModules.ts", import.meta.url),
      "utf8",
    );
    expect(committed).toBe(await kernelModulesSource());
  });

  it("compile, and export their memory and functions", () => {
    const exported = (base64: string) =>
      wasm.Module.exports(new wasm.Module(decode(base64)))
        .map((e) => `${e.kind} ${e.name}`)
        .sort();
    expect(exported(modules.DOCUMENT_BOOTSTRAP_MODULE)).toEqual([
      "function bounded",
      "function score",
      "function tails",
      "memory memory",
    ]);
    expect(exported(modules.CHUNK_BOOTSTRAP_MODULE)).toEqual([
      "function bounded",
      "function chunk",
      "function rows",
      "memory memory",
    ]);
  });

  it("import only Math.log and `**` from JS (the chunk kernel; the others import nothing)", () => {
    const imported = (base64: string) =>
      (
        wasm.Module as unknown as {
          imports(m: object): { module: string; name: string; kind: string }[];
        }
      )
        .imports(new wasm.Module(decode(base64)))
        .map((i) => `${i.kind} ${i.module}.${i.name}`);
    expect(imported(modules.DOCUMENT_BOOTSTRAP_MODULE)).toEqual([]);
    expect(imported(modules.CHUNK_BOOTSTRAP_MODULE)).toEqual([
      "function math.log",
      "function math.pow",
    ]);
  });

  it("the document bootstrap runs in its kernel here (not the JS fallback)", () => {
    const scored = scoreReplicatesWasm(createPcg64(1), {
      n: Float64Array.of(3, 4, 5),
      s: Float64Array.of(1, 2, 5),
      rate: Float64Array.of(1 / 3, 0.5, 1),
      fullMacro: 11 / 18,
      fullMicro: 8 / 12,
      replicates: 7,
      threshold: (2 ** 32 - 3) % 3,
    });
    expect(scored).not.toBeNull();
  });
});
