/**
 * The time-grounded corpora: the authored twelve (embedded in the package,
 * pinned by id and hash like any file) and generated ones of any size.
 */
import { buildCorpus, type BuiltCorpus } from './build.js'
import { generateCorpus, generatedCorpusId, generatedQuestion, parseGeneratedQuestionId } from './generate.js'
import type { Reading } from './reading.js'
import { AUTHORED_QUESTIONS, type AuthoredQuestion } from './source.js'

let cached: BuiltCorpus | null = null

/** The embedded corpus (12 questions), built once per process; identical to fixtures/timegrounded/timegrounded-v1.json. */
export function timeGroundedCorpus(): BuiltCorpus {
  cached ??= buildCorpus()
  return cached
}

export { buildCorpus, checkCorpusRules, corpusReadings, CorpusRuleError, CORPUS_ID } from './build.js'
export { findAbsoluteDate, findCalendarDate } from './rules.js'
export { checkCorpus, renderCorpusCheck, CORPUS_CHECK_RULES } from './check.js'
export type { CorpusCheck, CorpusCheckFinding, CorpusCheckRule } from './check.js'
export type { BuiltCorpus, CorpusIssue, CorpusRule, CheckCorpusOptions } from './build.js'
export { generateCorpus } from './generate.js'
export type { GenerateCorpusOptions, GeneratedCorpus } from './generate.js'
export type { CorpusQuestionType } from './source.js'
export type { Reading, Moment, DayOrder, ReadingValue, TimedTurn } from './reading.js'

/** What a dataset file looks like from outside: its first question id and how many entries it holds. */
export interface DatasetShape {
  firstQuestionId: string | undefined
  entries: number
}

/**
 * The corpus id when a file holds exactly the embedded corpus (same normalised
 * hash), or exactly a generated corpus (its ids name the seed, its size and
 * hash match a fresh generation); else `fallback`.
 */
export function knownDatasetId(datasetSha256: string, fallback: string, shape?: DatasetShape): string {
  const corpus = timeGroundedCorpus()
  if (datasetSha256 === corpus.datasetSha256) return corpus.datasetId
  const generated = shape?.firstQuestionId === undefined ? null : parseGeneratedQuestionId(shape.firstQuestionId)
  if (generated === null || generated.index !== 0 || shape === undefined || shape.entries < 1) return fallback
  const regenerated = generateCorpus({ seed: generated.seed, size: shape.entries })
  return regenerated.datasetSha256 === datasetSha256 ? generatedCorpusId(generated.seed, shape.entries) : fallback
}

const rebuilt = new Map<string, AuthoredQuestion>()
const REBUILT_KEPT = 10_000

/** A generated question rebuilt from its id, kept for the next agent that asks (a probe asks each question two or three times). */
function rebuiltQuestion(questionId: string, seed: number, index: number): AuthoredQuestion {
  let question = rebuilt.get(questionId)
  if (question === undefined) {
    if (rebuilt.size >= REBUILT_KEPT) rebuilt.clear()
    question = generatedQuestion(seed, index)
    rebuilt.set(questionId, question)
  }
  return question
}

function normaliseQuestion(question: string): string {
  return question.trim().toLowerCase().replace(/\s+/g, ' ')
}

const AUTHORED_READINGS: ReadonlyMap<string, Reading> = new Map(AUTHORED_QUESTIONS.map((q) => [normaliseQuestion(q.question), q.reading]))

/**
 * How a corpus question is read: a generated question by its id (rebuilt from
 * the seed and position the id names, when its text matches), an authored one
 * by its text; undefined for any other question.
 */
export function readingOf(question: string, questionId?: string): Reading | undefined {
  const generated = questionId === undefined ? null : parseGeneratedQuestionId(questionId)
  if (generated !== null && questionId !== undefined) {
    const rebuilt = rebuiltQuestion(questionId, generated.seed, generated.index)
    if (normaliseQuestion(rebuilt.question) === normaliseQuestion(question)) return rebuilt.reading
  }
  return AUTHORED_READINGS.get(normaliseQuestion(question))
}
