#!/usr/bin/env node
import { commonJsCli } from "./commonJsCli.js";
import { prestart } from "./prestart.js";

/**
 * The process entry (package.json "bin"). Where `npm run build` left the command line as one
 * CommonJS file with a code cache this Node can use (commonJsCli.ts), that runs; else what
 * prestart.ts starts before the CLI's modules load, then the CLI's ES module chunks (main.ts).
 * Both are the same code (test/cli/bundle.test.ts holds their outputs equal).
 */
const argv = process.argv.slice(2);
const cached = commonJsCli(argv);
if (cached) await cached.start(argv);
else {
  await prestart(argv);
  await import("./main.js");
}
