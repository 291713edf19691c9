import { open } from "node:fs/promises";
import type { MetricComparisons } from "../core/compareMetric.js";
import { RagciError } from "../core/errors.js";
import type { GateDecision } from "../core/gate.js";
import { decideRequestedGate, type RequestedGate } from "../core/gateRequest.js";
import { gateAnnotations, gateStepSummary } from "../report/gateReport.js";
import type { CommandIo } from "./io.js";

/**
 * Appends text to a file in one write on a descriptor opened for appending (O_APPEND): other
 * steps' sections already in the file stay, and a concurrent writer's text is never interleaved
 * inside ours. The file is created when missing, as GitHub's runner expects.
 */
async function appendOnce(path: string, text: string): Promise<void> {
  const handle = await open(path, "a");
  try {
    await handle.write(Buffer.from(text, "utf8"));
  } finally {
    await handle.close();
  }
}

/**
 * The gate's decision on compare's results and its outputs for CI: in GitHub Actions, the
 * Markdown table appended to $GITHUB_STEP_SUMMARY (when set) and one workflow command per check
 * on standard error (when GITHUB_ACTIONS=true: the runner reads commands on both streams —
 * actions/runner, src/Runner.Worker/Handlers/ScriptHandler.cs gives each an OutputManager with
 * the command manager — and standard output stays the report, e.g. --json for a script); then
 * a failed gate sets exit code 1.
 *
 * @throws RagciError when the step summary file cannot be written
 */
export async function applyGate(
  results: readonly MetricComparisons[],
  level: number,
  gate: RequestedGate,
  io: CommandIo,
): Promise<GateDecision> {
  const decision = decideRequestedGate(results, level, gate);
  const summary = io.env.GITHUB_STEP_SUMMARY;
  if (summary) {
    await appendOnce(summary, gateStepSummary(decision)).catch((error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      throw new RagciError(
        "unreadable-input",
        `GITHUB_STEP_SUMMARY=${summary}: cannot append the gate's table (${reason}); unset it or point it at a writable file`,
      );
    });
  }
  if (io.env.GITHUB_ACTIONS === "true") io.stderr?.(gateAnnotations(decision));
  if (decision.failed) io.gateFailed?.();
  return decision;
}
