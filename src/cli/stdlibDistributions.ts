import { fileURLToPath } from "node:url";
import { requireCodeCached } from "./codeCachedRequire.js";

/** The @stdlib functions that core's distributions.ts and chiSquareQuantile.ts import. */
export interface StdlibDistributions {
  readonly normalQuantileStdlib: (p: number, mu: number, sigma: number) => number;
  readonly tCdf: (x: number, df: number) => number;
  readonly tQuantileStdlib: (p: number, df: number) => number;
  readonly chiSquareQuantileStdlib: (p: number, k: number) => number;
}

let loaded: StdlibDistributions | undefined;

/**
 * In the command-line bundle only (scripts/bundle.mjs rewrites core's @stdlib imports into
 * this call): the functions from `stdlibDistributions.cjs` beside the bundle's chunks, loaded
 * once with its code cache (codeCachedRequire.ts). The library imports @stdlib directly.
 */
export function stdlibDistributions(): StdlibDistributions {
  loaded ??= requireCodeCached(fileURLToPath(new URL("./stdlibDistributions.cjs", import.meta.url)))
    .exports as StdlibDistributions;
  return loaded;
}
