import { optionRef } from "../errors.js";
import { percentText } from "../percentText.js";

/**
 * What ragci's study of samples given as their own census found (bench/method-guide/
 * PSEUDO-POPULATION.md, pseudoPopulation.mjs): on the rows where the default interval covers
 * ≥ 92% on the real census, the largest share of 50-document samples whose study (K = 20)
 * picked an interval covering less than 92% there, without and with the fpc, for one system's
 * results and for a pair's differences.
 */
export const SAMPLE_AS_CENSUS_STUDY = {
  documents: 50,
  single: { withoutFpc: 0.78, withFpc: 0.335 },
  paired: { withoutFpc: 0.395, withFpc: 0.165 },
} as const;

const { single, paired } = SAMPLE_AS_CENSUS_STUDY;

/**
 * Whom a coverage study speaks for: samples drawn from the file given as the census. A study
 * cannot see documents the file lacks, which is where intervals fail, so a sample given as its
 * own census (K < M; K = M is refused) is no reliable guide to its population.
 */
export const SAMPLE_AS_CENSUS_CAVEAT = `A sample given as the census is no reliable guide, since its study cannot see the documents the sample missed: in ragci's study, where the default interval held on the real census, the study of a ${SAMPLE_AS_CENSUS_STUDY.documents}-document sample picked one that covered under 92% there in up to ${percentText(single.withoutFpc)} of samples for one system and ${percentText(paired.withoutFpc)} for a pair (${percentText(single.withFpc)} and ${percentText(paired.withFpc)} with ${optionRef("fpc")}); with only a sample, use the default recommendation (docs/choosing-an-interval.md, "A sample is not a census").`;
