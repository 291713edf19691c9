import { availableParallelism } from "node:os";

/**
 * What the process entry does before the CLI's modules load: a run that will study a census
 * (`simulate`, or `analyze`/`compare` with --census) starts its study workers, so that their
 * start-up overlaps the loading of the CLI and the reading of the data instead of following
 * them; and analyze's and compare's files start their SHA-256. The flags are read properly
 * later; this only looks for simulate's --workers (or its deprecated --threads), and a run that
 * needs fewer workers (or fails) leaves the rest idle, which does not keep the process alive.
 */
export async function prestart(argv: readonly string[]): Promise<void> {
  const help = argv.includes("--help") || argv.includes("-h");
  const studies =
    argv[0] === "simulate" ||
    ((argv[0] === "analyze" || argv[0] === "compare") &&
      argv.some((a) => a === "--census" || a.startsWith("--census=")));
  if (studies && !help) {
    // simulate's --workers, or --threads without it (deprecated; --threads is DuckDB's threads)
    const flagAt = (flag: string) => argv.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
    const at = flagAt("--workers") >= 0 ? flagAt("--workers") : flagAt("--threads");
    const given =
      argv[0] === "simulate" && at >= 0 ? Number(argv[at]?.split("=")[1] ?? argv[at + 1]) : null;
    const threads = given !== null && Number.isInteger(given) ? given : availableParallelism();
    // Each worker pipes its stdout and stderr into the process's, a listener on each: with 10 or
    // more, Node would warn of a leak that is none.
    for (const stream of [process.stdout, process.stderr]) {
      stream.setMaxListeners(Math.max(stream.getMaxListeners(), threads + 10));
    }
    if (threads > 1) {
      const { prestartStudyWorkers } = await import("../simulation/studyWorkers.js");
      prestartStudyWorkers(Math.min(threads, 64) - 1);
    }
  }
  // analyze's and compare's files (the arguments before the first flag, as the README writes
  // them) start their SHA-256 now, on a worker, while a core is idle (sha256File.ts).
  if ((argv[0] === "analyze" || argv[0] === "compare") && !help) {
    const { prestartSha256 } = await import("../ingest/sha256File.js");
    for (const arg of argv.slice(1)) {
      if (arg.startsWith("-")) break;
      prestartSha256(arg);
    }
  }
}
