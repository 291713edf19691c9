#!/usr/bin/env node
import { prestart } from "./prestart.js";

/**
 * The process entry (package.json "bin"): what prestart.ts starts before the CLI's modules
 * load, then the CLI (main.ts).
 */
await prestart(process.argv.slice(2));
await import("./main.js");
