/**
 * One question, asked and judged: the row it leaves (agent and judge faults
 * are rows, never throws), the bounds on each call, and the totals of a set
 * of rows.
 */
import { TimegroundedError } from '../errors.js'
import { agentName, hasTimestampedHistory, type AnswerContext, type TimeGroundedAgent } from './agent.js'
import { buildTimestampedHistory, deliversTimestamps, plainSessions, renderHistoryText, renderQuestionText, type GroundingMode } from './grounding.js'
import type { Judge, UnjudgedPolicy } from './judges.js'
import type { LongMemEvalEntry } from './longmemeval.js'

/** One question's outcome, keyed on `status`. */
export type QuestionRow =
  | { question_id: string; question_type: string; status: 'judged'; response: string; correct: boolean; judge_detail: string }
  | { question_id: string; question_type: string; status: 'agent-error'; error: string }
  | { question_id: string; question_type: string; status: 'judge-error'; response: string; error: string }
  /** Asked, but the judge cannot grade this entry (`unjudged: 'skip'`): left out of every rate. */
  | { question_id: string; question_type: string; status: 'unjudged'; response: string; reason: string }

/** The judge as recorded in results. */
export interface JudgeRecord {
  kind: Judge['kind']
  model: string | null
  /** SHA-256 of the judging prompt template (LLM) or rules (deterministic). */
  prompt_fingerprint: string
}

/** The judge as results record it. */
export function judgeRecord(judge: Judge): JudgeRecord {
  return { kind: judge.kind, model: judge.model, prompt_fingerprint: judge.fingerprint }
}

/** How every question of a run is asked and judged: the options each kind of run shares. */
export interface AskingOptions {
  /** Milliseconds an agent call may take before the question is marked `agent-error`. @default 120000 */
  agentTimeoutMs?: number
  /** Milliseconds one grading may take before the question is marked `judge-error` (a backstop: the LLM judge bounds its own attempts). @default 600000 */
  judgeTimeoutMs?: number
  /**
   * Entries the judge cannot grade (the deterministic judge on an entry
   * without `machine_gold`): `refuse` fails the run before any agent call
   * (`UnjudgeableEntriesError`); `skip` asks them and leaves them out of every
   * rate, counted as `unjudged`. @default 'refuse'
   */
  unjudged?: UnjudgedPolicy
}

/** How one question is asked: under which mode, graded by which judge. */
export interface QuestionOptions extends AskingOptions {
  mode: GroundingMode
  judge: Judge
}

/** Milliseconds one agent call may take. @default 120000 */
export const DEFAULT_AGENT_TIMEOUT_MS = 120_000
/** Milliseconds one grading may take (`judgeTimeoutMs`): longer than the LLM judge's own worst case (4 attempts of 60 s plus backoff), so it only stops a judge that never settles. @default 600000 */
export const DEFAULT_JUDGE_TIMEOUT_MS = 600_000

/** A call that did not settle in time; it is abandoned (an in-process call cannot be cancelled). */
class AgentCallTimeout extends Error {}

function withTimeout<T>(work: () => T | Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AgentCallTimeout(`${what} gave no answer within ${ms} ms`)), ms)
    Promise.resolve()
      .then(work)
      .then(
        (value) => {
          clearTimeout(timer)
          resolve(value)
        },
        (error: unknown) => {
          clearTimeout(timer)
          reject(error)
        },
      )
  })
}

function message(error: unknown): string {
  if (error instanceof Error) return error.message
  if (typeof error === 'string') return error
  // A thrown object would read "[object Object]".
  try {
    return JSON.stringify(error) ?? String(error)
  } catch {
    return String(error)
  }
}

/** Names the agent method that threw, unless the error already says (a timeout names it itself). */
async function agentCall<T>(name: string, method: string, work: () => T | Promise<T>, ms: number): Promise<T> {
  try {
    return await withTimeout(work, ms, `agent ${JSON.stringify(name)} (${method})`)
  } catch (error) {
    // Our own errors (a command agent's faults) already name the agent and the call.
    if (error instanceof AgentCallTimeout || error instanceof TimegroundedError) throw error
    throw new Error(`agent ${JSON.stringify(name)} ${method} threw: ${message(error)}`)
  }
}

/** The context an agent receives for one question (fresh copies). */
export function answerContext(entry: LongMemEvalEntry, mode: GroundingMode): AnswerContext {
  return {
    questionId: entry.question_id,
    questionType: entry.question_type,
    mode,
    question: entry.question,
    historyText: renderHistoryText(entry, mode),
    sessions: plainSessions(entry),
  }
}

/** The agent's answer to one question (its history delivered first when the mode sends timestamps); throws for an agent fault. */
async function answerOf(agent: TimeGroundedAgent, entry: LongMemEvalEntry, options: QuestionOptions): Promise<string> {
  const timeout = options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS
  const name = agentName(agent)
  if (deliversTimestamps(options.mode) && hasTimestampedHistory(agent)) {
    const history = buildTimestampedHistory(entry)
    await agentCall(name, 'injectTimestampedHistory', () => agent.injectTimestampedHistory(history), timeout)
  }
  const answer: unknown = await agentCall(
    name,
    'answer',
    () => agent.answer(renderQuestionText(entry, options.mode), answerContext(entry, options.mode)),
    timeout,
  )
  if (typeof answer !== 'string') throw new Error(`agent ${JSON.stringify(name)} returned ${typeof answer}, expected a string`)
  return answer
}

/** Asks and judges one question under a mode; never throws for agent or judge faults. */
export async function askQuestion(agent: TimeGroundedAgent, entry: LongMemEvalEntry, options: QuestionOptions): Promise<QuestionRow> {
  const base = { question_id: entry.question_id, question_type: entry.question_type }
  let response: string
  try {
    response = await answerOf(agent, entry, options)
  } catch (error) {
    return { ...base, status: 'agent-error', error: message(error) }
  }
  // Only with `unjudged: 'skip'` does such an entry get this far: its answer is kept, and counted nowhere.
  if (options.judge.canJudge?.(entry) === false) return { ...base, status: 'unjudged', response, reason: NO_GRADE }
  try {
    const verdict = await withTimeout(
      () => options.judge.grade(entry, response),
      options.judgeTimeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS,
      `the ${options.judge.kind} judge`,
    )
    if (verdict.unjudged === true) return { ...base, status: 'unjudged', response, reason: verdict.detail }
    return { ...base, status: 'judged', response, correct: verdict.correct, judge_detail: verdict.detail }
  } catch (error) {
    return { ...base, status: 'judge-error', response, error: message(error) }
  }
}

/** Why an entry was not judged: its judge cannot grade it. */
const NO_GRADE = 'not judged: the judge cannot grade this entry (no machine_gold for the deterministic judge)'

/** The totals of a set of rows (JSON-ready, snake_case). */
export interface RowTotals {
  /** Questions asked. */
  questions: number
  correct: number
  /** correct / (questions − unjudged); errors count as incorrect. Null when no question was judged. */
  accuracy: number | null
  agent_errors: number
  judge_errors: number
  /** Questions asked but left out of every rate: the judge cannot grade them (`unjudged: 'skip'`). */
  unjudged: number
}

/** Totals of a set of rows; unjudged rows count in `questions` and `unjudged`, and in no rate. */
export function summarizeRows(rows: readonly QuestionRow[]): RowTotals {
  const correct = rows.filter((row) => row.status === 'judged' && row.correct).length
  const unjudged = rows.filter((row) => row.status === 'unjudged').length
  const judged = rows.length - unjudged
  return {
    questions: rows.length,
    correct,
    accuracy: judged === 0 ? null : correct / judged,
    agent_errors: rows.filter((row) => row.status === 'agent-error').length,
    judge_errors: rows.filter((row) => row.status === 'judge-error').length,
    unjudged,
  }
}

/** Questions a rate rests on: every row but the unjudged. */
export function judgedCount(rows: readonly QuestionRow[]): number {
  return rows.filter((row) => row.status !== 'unjudged').length
}
