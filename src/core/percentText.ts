/**
 * A share as a percentage with one decimal, as core's messages quote coverages and shares.
 *
 * @example percentText(0.9125) // => "91.3%"
 */
export function percentText(share: number): string {
  return `${(100 * share).toFixed(1)}%`;
}
