import type { SizeStrataDesign } from "./sizeStrataDesign.js";

/** The design file analyze and compare read (`--design FILE`), as strata writes it. */
export interface SizeStrataDesignFile {
  readonly design: "stratified";
  /** M_h: the census's documents in each stratum. */
  readonly strata: Readonly<Record<string, number>>;
  /** Not read by ragci: where the strata came from. */
  readonly description: string;
}

/**
 * The stratified design of a sample drawn from these size strata: each stratum's M_h, which the
 * design's interval needs (its weights M_h/K_h and fpc 1 − K_h/M_h); the sample's `stratum`
 * column names the strata, so `analyze SAMPLE --design FILE` reads it as it is.
 *
 * @example sizeStrataDesignFile(sizeStrataDesign(documentStats({ ids: ["a", "b", "c", "d", "e", "f"], n: [2, 2, 3, 10, 12, 20], s: [1, 1, 3, 3, 4, 2] }), 4, 3), "census.csv")
 *   // => { design: "stratified", strata: { large: 3, small: 3 }, description: "size strata of census.csv: large, the 3 of its 6 documents with more than 3 results; small, the rest" }
 */
export function sizeStrataDesignFile(
  design: SizeStrataDesign,
  census: string,
): SizeStrataDesignFile {
  const [large] = design.strata;
  return {
    design: "stratified",
    strata: Object.fromEntries(design.strata.map((h) => [h.name, h.documents.length])),
    description: `size strata of ${census}: large, the ${large.documents.length} of its ${design.population} documents with more than ${design.cutoff} results; small, the rest`,
  };
}
