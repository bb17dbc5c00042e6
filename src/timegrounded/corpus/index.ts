/** The authored time-grounded corpus: embedded in the package, pinned by id and hash like any file. */
import { buildCorpus, type BuiltCorpus } from './build.js'

let cached: BuiltCorpus | null = null

/** The embedded corpus (12 questions), built once per process; identical to fixtures/timegrounded/timegrounded-v1.json. */
export function timeGroundedCorpus(): BuiltCorpus {
  cached ??= buildCorpus()
  return cached
}

export { buildCorpus, checkCorpus, corpusReadings, findAbsoluteDate, CorpusRuleError, CORPUS_ID, QUESTIONS_PER_TYPE } from './build.js'
export type { BuiltCorpus, CorpusIssue } from './build.js'
export { AUTHORED_QUESTIONS, CORPUS_QUESTION_TYPES } from './source.js'
export type { AuthoredQuestion, AuthoredSession, AuthoredTurn, CorpusQuestionType } from './source.js'
export { evaluateReading, answerText, goldAnswer } from './reading.js'
export type { Reading, Moment, DayOrder, ReadingValue, TimedTurn } from './reading.js'

/** The corpus id when a file holds exactly the embedded corpus (same normalised hash), else `fallback`. */
export function knownDatasetId(datasetSha256: string, fallback: string): string {
  const corpus = timeGroundedCorpus()
  return datasetSha256 === corpus.datasetSha256 ? corpus.datasetId : fallback
}
