import { chiSquareQuantile } from "../numeric/chiSquareQuantile.js";

/**
 * How far a pilot's S may be from the population's, as multiples of S: the normal-theory
 * interval for σ from K values, √((K − 1)/χ²₁₋α/₂(K − 1)) to √((K − 1)/χ²α/₂(K − 1)). A plan's
 * K grows with S², so the squares bound it. With skewed values or influential documents the
 * real spread is wider, never narrower.
 *
 * @example pilotSdRange(20, 0.95) // scipy: √(19/chi2.ppf(0.975, 19)), √(19/chi2.ppf(0.025, 19))
 *   // => { lower: 0.76049, upper: 1.46057 }
 */
export function pilotSdRange(
  documents: number,
  level: number,
): { readonly lower: number; readonly upper: number } {
  const df = documents - 1;
  const tail = (1 - level) / 2;
  return {
    lower: Math.sqrt(df / chiSquareQuantile(1 - tail, df)),
    upper: Math.sqrt(df / chiSquareQuantile(tail, df)),
  };
}
