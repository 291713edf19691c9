/** The part of the WebAssembly JS API used here (the project's lib settings do not declare it). */
interface WasmApi {
  readonly Module: new (bytes: Uint8Array) => object;
  readonly Instance: new (
    module: object,
    imports?: Record<string, Record<string, unknown>>,
  ) => { readonly exports: Record<string, unknown> };
}

/** A kernel's exported memory (only its buffer and growth are used). */
export interface KernelMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

const PAGE = 65536;

/**
 * Instantiates a kernel module (base64, from src/core/kernels/kernelModules.ts, which
 * scripts/build-kernels.mjs assembles from the kernels' WebAssembly text); null where
 * WebAssembly is unavailable (callers then use their JS forms). Instances are per thread.
 * `imports` are the JS functions the module imports, by module and name.
 */
export function instantiateKernel(
  moduleBase64: string,
  imports: Record<string, Record<string, unknown>> = {},
): Record<string, unknown> | null {
  const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
  if (!wasm) return null;
  try {
    const bytes = Uint8Array.from(atob(moduleBase64), (c) => c.charCodeAt(0));
    return new wasm.Instance(new wasm.Module(bytes), imports).exports;
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
