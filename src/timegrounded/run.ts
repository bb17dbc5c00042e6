/**
 * Grounded runs: one mode over a dataset, probe versus control over the same
 * agent (with a paired bootstrap interval over questions), and the ceiling
 * run with the reference reader. Computing only: nothing here prints.
 */
import { pairedBootstrapDelta, type PairedDelta } from '../stats/bootstrap.js'
import { TimegroundedError } from '../errors.js'
import { agentNotes, assertGroundingChannel, agentName, hasTimestampedHistory, type AnswerContext, type TimeGroundedAgent } from './agent.js'
import { referenceReader, type Answerer } from './agents.js'
import { knownDatasetId, timeGroundedCorpus } from './corpus/index.js'
import {
  CONTROL_MODE,
  PROBE_MODE,
  buildTimestampedHistory,
  deliversTimestamps,
  groundingRecord,
  plainSessions,
  renderHistoryText,
  renderQuestionText,
  type GroundingMode,
  type GroundingRecord,
} from './grounding.js'
import { assertJudgeable, type Judge, type UnjudgedPolicy } from './judges.js'
import { timeGroundedVerdict, type TimeGroundedVerdict } from './verdict.js'
import { loadLongMemEval, loadLongMemEvalSync, type LongMemEvalDataset, type LongMemEvalEntry } from './longmemeval.js'

/** A dataset ready to run: its identity and its validated entries. */
export interface GroundedDataset {
  datasetId: string
  datasetSha256: string
  items: readonly LongMemEvalEntry[]
}

/** The embedded corpus, or a LongMemEval-shaped file (named by the corpus id when it holds exactly the authored corpus or a generated one). */
export async function loadGroundedDataset(file: string | undefined): Promise<GroundedDataset> {
  return file === undefined ? timeGroundedCorpus() : named(await loadLongMemEval(file))
}

/** loadGroundedDataset, synchronously (the whole file read at once): for test runners that register tests synchronously (Jest). */
export function loadGroundedDatasetSync(file: string | undefined): GroundedDataset {
  return file === undefined ? timeGroundedCorpus() : named(loadLongMemEvalSync(file))
}

/** A loaded file named by the corpus id when it holds exactly the authored corpus or a generated one. */
function named(loaded: LongMemEvalDataset): GroundedDataset {
  return {
    ...loaded,
    datasetId: knownDatasetId(loaded.datasetSha256, loaded.datasetId, { firstQuestionId: loaded.items[0]?.question_id, entries: loaded.items.length }),
  }
}

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

/** The result of one grounded run (JSON-ready, snake_case). */
export interface GroundedRunResult {
  agent: string
  mode: GroundingMode
  grounding: GroundingRecord
  judge: JudgeRecord
  /** Questions asked. */
  questions: number
  correct: number
  /** correct / (questions − unjudged); errors count as incorrect. Null when no question was judged. */
  accuracy: number | null
  agent_errors: number
  judge_errors: number
  /** Questions asked but left out of every rate: the judge cannot grade them (`unjudged: 'skip'`). */
  unjudged: number
  rows: QuestionRow[]
  /** How far a score over this many questions goes (see `probeCaveat`). */
  caveat: string
  /** What the agent asked the run to say (`agent.notes()`), e.g. that a built-in agent does not know this file. */
  notes: string[]
}

/** Options of a grounded run. */
export interface GroundedRunOptions {
  mode: GroundingMode
  judge: Judge
  /** Milliseconds an agent call may take before the question is marked `agent-error`. @default 120000 */
  agentTimeoutMs?: number
  /** Milliseconds one grading may take before the question is marked `judge-error` (a backstop: the LLM judge bounds its own attempts). @default 600000 */
  judgeTimeoutMs?: number
  /** Called with each row as it is decided. @default none */
  onRow?: (row: QuestionRow) => void
  /**
   * Entries the judge cannot grade (the deterministic judge on an entry
   * without `machine_gold`): `refuse` fails the run before any agent call
   * (`UnjudgeableEntriesError`); `skip` asks them and leaves them out of every
   * rate, counted as `unjudged`. @default 'refuse'
   */
  unjudged?: UnjudgedPolicy
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

/**
 * Checks everything that must hold before the first agent call: the typed
 * channel (`GroundingModeError`) and every date (`SessionDateError`). Returns
 * the grounding record.
 */
export function prepareGroundedRun(
  agent: TimeGroundedAgent,
  dataset: GroundedDataset,
  mode: GroundingMode,
  judging?: { judge: Judge; unjudged?: UnjudgedPolicy },
): GroundingRecord {
  assertGroundingChannel(agent, mode)
  const record = groundingRecord(dataset, mode)
  if (judging !== undefined) assertJudgeable(dataset, judging.judge, judging.unjudged)
  return record
}

/** Asks and judges one question under a mode; never throws for agent or judge faults. */
export async function askQuestion(agent: TimeGroundedAgent, entry: LongMemEvalEntry, options: Omit<GroundedRunOptions, 'onRow'>): Promise<QuestionRow> {
  const base = { question_id: entry.question_id, question_type: entry.question_type }
  const timeout = options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS
  const name = agentName(agent)
  let response: string
  try {
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
    response = answer
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

/** Totals of a set of rows; unjudged rows count in `questions` and `unjudged`, and in no rate. */
export function summarizeRows(
  rows: readonly QuestionRow[],
): Pick<GroundedRunResult, 'questions' | 'correct' | 'accuracy' | 'agent_errors' | 'judge_errors' | 'unjudged'> {
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

/** The judge as results record it. */
export function judgeRecord(judge: Judge): JudgeRecord {
  return { kind: judge.kind, model: judge.model, prompt_fingerprint: judge.fingerprint }
}

/**
 * Runs every question of a dataset under one mode, in order. Fails before
 * any agent call with `GroundingModeError` (typed channel missing) or
 * `SessionDateError` (a date that cannot be read).
 */
export async function runGrounded(agent: TimeGroundedAgent, dataset: GroundedDataset, options: GroundedRunOptions): Promise<GroundedRunResult> {
  return askAll(agent, dataset, options, prepareGroundedRun(agent, dataset, options.mode, options))
}

/** Asks every question once the run is prepared (`prepareGroundedRun` gave `grounding`). */
async function askAll(agent: TimeGroundedAgent, dataset: GroundedDataset, options: GroundedRunOptions, grounding: GroundingRecord): Promise<GroundedRunResult> {
  const rows: QuestionRow[] = []
  for (const entry of dataset.items) {
    const row = await askQuestion(agent, entry, options)
    rows.push(row)
    options.onRow?.(row)
  }
  return {
    agent: agentName(agent),
    mode: options.mode,
    grounding,
    judge: judgeRecord(options.judge),
    ...summarizeRows(rows),
    rows,
    caveat: probeCaveat(judgedCount(rows)),
    notes: agentNotes(agent),
  }
}

/** Questions a rate rests on: every row but the unjudged. */
function judgedCount(rows: readonly QuestionRow[]): number {
  return rows.filter((row) => row.status !== 'unjudged').length
}

/** Seed of the paired bootstrap when none is given. @default 20240101 */
export const DEFAULT_PROBE_SEED = 20240101

/** The delta of a probe-versus-control comparison, as results record it. */
export interface DeltaRecord {
  /** probe accuracy − control accuracy over the paired questions. */
  value: number | null
  low: number | null
  high: number | null
  level: number
  seed: number
  resamples: number
  /** Paired questions. */
  n: number
}

/** Control, probe, their delta and (optionally) the ceiling. */
export interface ProbeComparison {
  agent: string
  control: GroundedRunResult
  probe: GroundedRunResult
  delta: DeltaRecord
  /** What the delta measures, its sign and its units (always the same sentence). */
  delta_meaning: string
  ceiling: GroundedRunResult | null
  /** What the comparison shows: a drop, timestamps honoured, or cannot tell (see `timeGroundedVerdict`). */
  verdict: TimeGroundedVerdict
  /** The sentence every rendering repeats: how far a result of this size goes. */
  caveat: string
  /** What the agent under test asked the run to say, once (`agent.notes()`). */
  notes: string[]
}

/** What the delta is, printed beside it: its sign and units (`value` in JSON is the same difference as a fraction, -0.25 = -25 points). */
export const DELTA_MEANING =
  'delta = probe accuracy − control accuracy over the same questions, in percentage points; negative means the probe scored lower, zero means no change'

/** Options of a probe-versus-control comparison. */
export interface ProbeOptions {
  judge: Judge
  /** Bootstrap seed. @default 20240101 */
  seed?: number
  /** Bootstrap resamples. @default 1000 */
  resamples?: number
  /** Milliseconds an agent call may take before the question is marked `agent-error`. @default 120000 */
  agentTimeoutMs?: number
  /** Milliseconds one grading may take. @default 600000 */
  judgeTimeoutMs?: number
  /** Also run the reference reader (timestamps-only) as a ceiling; an answerer replaces its scripted one. @default false */
  ceiling?: boolean | { answerer: Answerer }
  /** Called with each row as it is decided, with its mode (the ceiling's rows come under `timestamps-only`). @default none */
  onRow?: (row: QuestionRow, mode: GroundingMode) => void
  /** Entries the judge cannot grade: refuse the run before any agent call, or ask them and leave them out of every rate (see `GroundedRunOptions`). @default 'refuse' */
  unjudged?: UnjudgedPolicy
}

const NUMBER_NAMES = ['Zero', 'One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve']

/**
 * Questions at which two systems whose accuracies differ by 10 and by 5 points
 * were told apart (paired 95% interval excluding zero) in 80% of runs, their
 * errors independent: measured by scripts/timegrounded-power.js (README, "How
 * many questions are enough").
 */
export const QUESTIONS_TO_TELL_APART = { tenPoints: 360, fivePoints: 1440 } as const

/** How far a result over this many questions goes: "Twelve questions is a probe, not a ranking." below 360, what it can tell apart from there. */
export function probeCaveat(questions: number): string {
  const count = questions < NUMBER_NAMES.length ? (NUMBER_NAMES[questions] as string) : String(questions)
  const { tenPoints, fivePoints } = QUESTIONS_TO_TELL_APART
  if (questions < tenPoints) {
    return `${count} question${questions === 1 ? '' : 's'} is a probe, not a ranking: it shows whether timestamps are honoured, and cannot rank systems that honour them.`
  }
  const measured = (points: number, at: number): string =>
    `as measured, two systems ${points} points apart are told apart in 80% of runs from ${at.toLocaleString('en')} questions when their errors are independent`
  return questions < fivePoints
    ? `${count} questions can rank systems whose accuracies differ by about 10 points or more (${measured(10, tenPoints)}); 5 points takes about ${fivePoints.toLocaleString('en')}.`
    : `${count} questions can rank systems whose accuracies differ by about 5 points or more (${measured(5, fivePoints)}); smaller differences take more.`
}

/** The rows of runs over the same questions, without the questions any of them left unjudged. */
export function judgedPairs<T extends readonly (readonly QuestionRow[])[]>(...runs: T): T {
  const keep = (i: number): boolean => runs.every((rows) => rows[i]?.status !== 'unjudged')
  return runs.map((rows) => rows.filter((_, i) => keep(i))) as unknown as T
}

/** The paired delta of two runs over the same questions (1 correct, 0 otherwise); unjudged questions are left out. */
export function pairedDelta(
  controlRows: readonly QuestionRow[],
  probeRows: readonly QuestionRow[],
  options: { seed?: number; resamples?: number } = {},
): DeltaRecord {
  const [control, probe] = judgedPairs(controlRows, probeRows)
  const score = (row: QuestionRow): number => (row.status === 'judged' && row.correct ? 1 : 0)
  const result: PairedDelta = pairedBootstrapDelta(control.map(score), probe.map(score), {
    seed: options.seed ?? DEFAULT_PROBE_SEED,
    resamples: options.resamples,
  })
  return { value: result.delta, low: result.low, high: result.high, level: result.level, seed: result.seed, resamples: result.resamples, n: result.n }
}

/**
 * Control (`timestamps-and-text`) then probe (`timestamps-only`) over the same
 * agent. Both modes need the typed channel; its absence fails before the
 * control's first call.
 */
export async function runProbeVersusControl(agent: TimeGroundedAgent, dataset: GroundedDataset, options: ProbeOptions): Promise<ProbeComparison> {
  // Both modes need the typed channel, and both read the same dates: one check for both, before any call.
  const probeGrounding = prepareGroundedRun(agent, dataset, PROBE_MODE, options)
  const controlGrounding = groundingRecord(dataset, CONTROL_MODE)
  const common = { judge: options.judge, agentTimeoutMs: options.agentTimeoutMs, judgeTimeoutMs: options.judgeTimeoutMs, unjudged: options.unjudged }
  const control = await askAll(agent, dataset, { ...common, mode: CONTROL_MODE, onRow: (row) => options.onRow?.(row, CONTROL_MODE) }, controlGrounding)
  const probe = await askAll(agent, dataset, { ...common, mode: PROBE_MODE, onRow: (row) => options.onRow?.(row, PROBE_MODE) }, probeGrounding)
  const ceiling = options.ceiling
    ? await runCeiling(dataset, {
        ...common,
        answerer: typeof options.ceiling === 'object' ? options.ceiling.answerer : undefined,
        onRow: (row) => options.onRow?.(row, PROBE_MODE),
      })
    : null
  const delta = pairedDelta(control.rows, probe.rows, options)
  return {
    agent: agentName(agent),
    control,
    probe,
    delta,
    delta_meaning: DELTA_MEANING,
    ceiling,
    verdict: timeGroundedVerdict({ control: control.rows, probe: probe.rows, ceiling: ceiling?.rows ?? null, delta }),
    caveat: probeCaveat(judgedCount(control.rows)),
    notes: agentNotes(agent),
  }
}

/** The ceiling: the reference reader under `timestamps-only`. It places every turn in time by construction. */
export function runCeiling(
  dataset: GroundedDataset,
  options: {
    judge: Judge
    answerer?: Answerer
    agentTimeoutMs?: number
    judgeTimeoutMs?: number
    onRow?: (row: QuestionRow) => void
    unjudged?: UnjudgedPolicy
  },
): Promise<GroundedRunResult> {
  const { answerer, ...run } = options
  return runGrounded(referenceReader({ answerer }), dataset, { ...run, mode: PROBE_MODE })
}
