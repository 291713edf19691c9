import type { Command } from "commander";
import { nonNegativeNumber, parseList } from "./options.js";

/** The gate's section of `ragci compare --help`. */
export const GATE_HELP = `
Regression gate (exit 1 when it fails, 0 when it passes, 2 on bad input):
  $ ragci compare main.csv pr.csv --system system --baseline main --metric hit5,rr --fail-if-worse
  $ ragci compare runs.csv --system system --baseline bm25 --metric hit5 --require-noninferior --margin 0.02
  --fail-if-worse fails when the recommended interval of candidate − baseline lies entirely
  below −d (--margin d, default 0: worse beyond noise). --require-noninferior fails unless its
  lower bound is above −d (the candidate is shown no worse than d; --margin is required).
  Higher is better for every metric; --lower-is-better NAMES those where lower is better
  (there "worse" is above +d). d is in the metric's units (0.02 = 2 points of a rate).
  Estimand: micro by default (the rate of a random result: the number an eval tool reports);
  --estimand macro gates the rate of a typical document instead.
  Several metrics or candidates (m checks of metric × candidate): --fail-if-worse adjusts the
  one-sided p-values with Holm across all m (a false failure from noise stays ≤ (1 − level)/2);
  --require-noninferior needs every check to pass on its own interval, an intersection–union
  test that needs no adjustment (passing a worse candidate stays ≤ (1 − level)/2).
  In GitHub Actions: a Markdown table is appended to $GITHUB_STEP_SUMMARY when set, and one
  ::error/::warning/::notice line per check is written to standard error when
  GITHUB_ACTIONS=true. docs/ci.md has a workflow.`;

/** Declares the gate's flags on compare. */
export function withGateOptions(command: Command): Command {
  return command
    .option(
      "--fail-if-worse",
      "exit 1 when a candidate is worse than --baseline beyond the margin (Holm across metrics × candidates)",
    )
    .option(
      "--require-noninferior",
      "exit 1 unless every candidate is shown worse than --baseline by less than --margin (intersection–union, no adjustment)",
    )
    .option(
      "--margin <d>",
      "the gate's margin d ≥ 0 in the metric's units (default 0 for --fail-if-worse)",
      nonNegativeNumber("--margin"),
    )
    .option(
      "--lower-is-better <metrics>",
      "metrics where lower is better (for the gate; every other metric: higher is better)",
      parseList,
    );
}
