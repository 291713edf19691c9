#!/usr/bin/env node
import { availableParallelism } from "node:os";

/**
 * The process entry (package.json "bin"): before the CLI's modules load, a `simulate` run starts
 * its study workers, so that their start-up overlaps the loading of the CLI and the reading of
 * the census instead of following them. The flags are read properly later; this only looks
 * for --threads, and a run that needs fewer workers (or fails) leaves the rest idle, which
 * does not keep the process alive.
 */
const argv = process.argv.slice(2);
if (argv[0] === "simulate" && !argv.includes("--help") && !argv.includes("-h")) {
  const at = argv.findIndex((a) => a === "--threads" || a.startsWith("--threads="));
  const given = at < 0 ? null : Number(argv[at]?.split("=")[1] ?? argv[at + 1]);
  const threads = given !== null && Number.isInteger(given) ? given : availableParallelism();
  if (threads > 1) {
    const { prestartStudyWorkers } = await import("../simulation/studyWorkers.js");
    prestartStudyWorkers(Math.min(threads, 64) - 1);
  }
}
await import("./main.js");
