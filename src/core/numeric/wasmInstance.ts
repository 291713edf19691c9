import { assembleModule } from "./wasmEncoder.js";

/** The part of the WebAssembly JS API used here (the project's lib settings do not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (module: object) => { readonly exports: Record<string, unknown> };
}

/** A kernel's exported memory (only its buffer and growth are used). */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

const PAGE = 65536;

/**
 * Assembles and instantiates a module of these functions with one exported memory of `pages`
 * pages; null where WebAssembly is unavailable (callers then use their JS forms). Instances
 * are per thread.
 */
export function instantiateKernel(
  functions: Parameters<typeof assembleModule>[0],
  pages: number,
): Record<string, unknown> | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  try {
    return new wasm.Instance(new wasm.Module(assembleModule(functions, pages))).exports;
  } catch {
    return null;
  }
}

/** The kernel's memory, grown to at least `bytes` (views must be taken after this). */
export function reserve(memory: KernelMemory, bytes: number): ArrayBuffer {
  const have = memory.buffer.byteLength;
  if (bytes > have) memory.grow(Math.ceil((bytes - have) / PAGE));
  return memory.buffer;
}
