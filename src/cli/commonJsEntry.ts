import { prestart } from "./prestart.js";
import { runCli } from "./runCli.js";

/**
 * The entry of the command line bundled as one CommonJS file (dist/bundle/ragci.cjs,
 * scripts/bundle.mjs), which bin.ts loads with its code cache: what bin.ts and main.ts do for
 * the ES module chunks, in one function.
 */
export async function start(argv: readonly string[]): Promise<void> {
  await prestart(argv);
  await runCli(argv);
}
