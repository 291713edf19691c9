// A coverage with its Monte Carlo error, as the method guide's tables print it: "96.1 ± 0.6"
// (points), or, where all (or none) of the n samples covered and the se is 0, the exact
// one-sided 95% bound that ragci's own reports give (core/simulation/allOrNoneBound.ts):
// "100.0 (≥ 77.9)" for 12 of 12.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const { allOrNoneBound } = await import(join(root, "dist/core/simulation/allOrNoneBound.js"));

const points = (x) => (100 * x).toFixed(1);

/** `coverage` of `n` samples with its MC se `se`; "—" when there is no coverage. */
export function coverageText(coverage, se, n) {
  if (coverage === null) return "—";
  const bound = allOrNoneBound(coverage, n);
  return bound === null
    ? `${points(coverage)} ± ${points(se)}`
    : `${points(coverage)} (${bound.side} ${points(bound.bound)})`;
}
