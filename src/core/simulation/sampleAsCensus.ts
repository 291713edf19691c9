import { optionRef } from "../errors.js";
import { percentText } from "../percentText.js";

/**
 * What ragci's study of samples given as their own census found (bench/method-guide/
 * PSEUDO-POPULATION.md, pseudoPopulation.mjs): on the rows where the default interval covers
 * ≥ 92% on the real census, the largest share of 50-document samples whose study (K = 20)
 * picked an interval covering less than 92% there, without and with the fpc.
 */
export const SAMPLE_AS_CENSUS_STUDY = {
  documents: 50,
  pickShortWithoutFpc: 0.78,
  pickShortWithFpc: 0.335,
} as const;

/**
 * Whom a coverage study speaks for: samples drawn from the file given as the census. A study
 * cannot see documents the file lacks, which is where intervals fail, so a sample given as its
 * own census (K < M; K = M is refused) is no reliable guide to its population.
 */
export const SAMPLE_AS_CENSUS_CAVEAT = `A sample given as the census is no reliable guide, since its study cannot see the documents the sample missed: in ragci's study, where the default interval held on the real census, the study of a ${SAMPLE_AS_CENSUS_STUDY.documents}-document sample of one system's results picked one that covered under 92% there in up to ${percentText(SAMPLE_AS_CENSUS_STUDY.pickShortWithoutFpc)} of samples (${percentText(SAMPLE_AS_CENSUS_STUDY.pickShortWithFpc)} with ${optionRef("fpc")}); with only a sample, use the default recommendation (docs/choosing-an-interval.md, "A sample is not a census").`;
