/** Coverage studies on worker threads: the simulation layer's library entry. */
export {
  analysisCensusStudies,
  type CensusStudyRun,
  type CensusStudySettings,
  differenceCensusStudies,
  studyAtSampleSize,
} from "./censusStudies.js";
export { type RunStudyOptions, runStudy } from "./runStudy.js";
export {
  runStudyColumns,
  type StudyColumnSettings,
  type StudyColumnsRun,
} from "./runStudyColumns.js";
export { simulateCensus } from "./simulateCensus.js";
