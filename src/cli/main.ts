#!/usr/bin/env node
import { runCli } from "./runCli.js";

await runCli(process.argv.slice(2));
