import { isRagciError } from "../core/errors.js";

export type Outcome =
  | { readonly kind: "ok" }
  | { readonly kind: "gate-failed" }
  | { readonly kind: "user-error" }
  | { readonly kind: "interrupted" }
  | { readonly kind: "bug" };

/**
 * 0 success, 1 a failed regression gate (compare --fail-if-worse, --require-noninferior) or a
 * bug, 2 a user error (bad input or options), 130 stopped by Ctrl-C. A CI step fails on either
 * 1; the report (or the "internal error" line of a bug) tells them apart.
 */
export function exitCode(outcome: Outcome): 0 | 1 | 2 | 130 {
  if (outcome.kind === "ok") return 0;
  if (outcome.kind === "gate-failed") return 1;
  if (outcome.kind === "user-error") return 2;
  if (outcome.kind === "interrupted") return 130;
  return 1;
}

export function outcomeOf(error: unknown): Outcome {
  if (error === undefined) return { kind: "ok" };
  if (isRagciError(error) && error.code === "interrupted") return { kind: "interrupted" };
  if (isRagciError(error) || isUsageError(error)) return { kind: "user-error" };
  return { kind: "bug" };
}

/** Commander's own parse errors (unknown option, missing argument) are user errors too. */
export function isUsageError(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    "code" in error &&
    typeof (error as { code: unknown }).code === "string" &&
    (error as { code: string }).code.startsWith("commander.")
  );
}
