/**
 * The time-grounded probe as test cases, for any test runner: a plan of one
 * case per question per run (control, probe, and the optional ceiling), each
 * with an async `run()` that returns a plain-JSON record; a summary folded
 * from those records (so it survives blob reports and merges); and its
 * rendering. Imports no test framework.
 */
import { Chalk } from 'chalk'
import { z } from 'zod'
import { checkOptions, namedChoices, OptionError } from '../options.js'
import { DEFAULT_RESAMPLES, MIN_RESAMPLES } from '../stats/bootstrap.js'
import { agentName, agentNotes, assertGroundingChannel, type TimeGroundedAgent } from './agent.js'
import { referenceReader, type Answerer } from './agents.js'
import { CONTROL_MODE, PROBE_MODE, groundingRecord, type GroundingMode, type GroundingRecord } from './grounding.js'
import { assertJudgeable, deterministicJudge, llmJudge, UNJUDGED_POLICIES, unjudgeableEntries, type Judge, type UnjudgedPolicy } from './judges.js'
import type { ChatEndpoint } from '../chat/client.js'
import { renderComparisonLines, renderNotes } from './render.js'
import { timeGroundedVerdict, type TimeGroundedVerdict } from './verdict.js'
import {
  askQuestion,
  DEFAULT_AGENT_TIMEOUT_MS,
  DEFAULT_JUDGE_TIMEOUT_MS,
  DEFAULT_PROBE_SEED,
  judgeRecord,
  loadGroundedDataset,
  loadGroundedDatasetSync,
  type GroundedDataset,
  pairedDelta,
  probeCaveat,
  summarizeRows,
  type DeltaRecord,
  type JudgeRecord,
  type QuestionRow,
} from './run.js'

/** The runs a suite can hold: control and probe always, ceiling on request. */
export type TimeGroundedRunName = 'control' | 'probe' | 'ceiling'

const RUN_MODES: Record<TimeGroundedRunName, GroundingMode> = { control: CONTROL_MODE, probe: PROBE_MODE, ceiling: PROBE_MODE }

/** Options of `timeGroundedTests(agent, options)`, and of `timeGrounded` in `timegroundedSuite(memory, { timeGrounded: { … } })`. */
export interface TimeGroundedTestsOptions {
  /** Suite name in reports. @default 'time-grounded' */
  name?: string
  /** A LongMemEval-shaped file. @default the embedded corpus (12 questions) */
  dataset?: string
  /** `deterministic`, an OpenAI-compatible endpoint for the LLM judge, or a judge object. @default 'deterministic' */
  judge?: 'deterministic' | ChatEndpoint | Judge
  /** Also run the reference reader as a ceiling (`true`, or a model to answer with). @default false */
  ceiling?: boolean | { answerer: Answerer }
  /** Paired-bootstrap seed. @default 20240101 */
  seed?: number
  /** Paired-bootstrap resamples. @default 1000 */
  resamples?: number
  /** Milliseconds per agent call. @default 120000 */
  agentTimeoutMs?: number
  /** Milliseconds one grading may take before the question is a judge error. @default 600000 */
  judgeTimeoutMs?: number
  /**
   * Entries the judge cannot grade (no `machine_gold` for the deterministic
   * judge): `refuse` fails the file before any agent call; `skip` asks them,
   * skips their tests and leaves them out of every rate. @default 'refuse'
   */
  unjudged?: UnjudgedPolicy
}

/** The record of one time-grounded question's test (plain JSON; in Vitest, `task.meta.timegrounded`). */
export interface TimeGroundedCaseRecord {
  kind: 'timegrounded-question'
  suite: string
  agent: string
  run: TimeGroundedRunName
  mode: GroundingMode
  question_id: string
  question_type: string
  /** Position of the question in the dataset, 0-based (pairs control with probe). */
  order: number
  /** Questions in the dataset. */
  total: number
  dataset_id: string
  dataset_sha256: string
  judge: JudgeRecord
  /** The run's grounding record, carried by the first question of each run only. */
  grounding: GroundingRecord | null
  /** Whether the control answered this question correctly (probe cases, when the control ran first). */
  control_correct: boolean | null
  caveat: string
  /** The agent's notes after this question (`agent.notes()`): said once by the reporter. */
  notes?: string[]
  /** Seed and resamples of the paired bootstrap the suite asked for, so the reporter draws the interval the user configured. */
  bootstrap?: { seed: number; resamples: number }
  row: QuestionRow
}

/** One planned test. */
export interface TimeGroundedCase {
  /** Stable id: `<suite>/<run>/<question_id>`. */
  id: string
  /** Test name, e.g. `probe (timestamps-only) › tg-current-01: Is my Quillpad trial still running?`. */
  name: string
  runName: TimeGroundedRunName
  questionId: string
  /** Asks and judges the question; never throws for agent or judge faults (they are in `row`). */
  run(): Promise<TimeGroundedCaseRecord>
}

/** The plan of a time-grounded suite. */
export interface TimeGroundedPlan {
  suite: string
  agent: string
  datasetId: string
  datasetSha256: string
  /** Grounding records of the runs, known before any agent call. */
  grounding: Record<'control' | 'probe', GroundingRecord>
  /** Control cases first, then probe, then ceiling: run them in this order. */
  cases: TimeGroundedCase[]
}

/** The codes of `TimeGroundedOptionError`, each with what it means. */
export interface TimeGroundedOptionErrorCodes {
  /** An option of `timeGroundedTests` (or `timeGrounded` of a suite) cannot work. */
  TIME_GROUNDED_OPTION_INVALID: 'TimeGroundedOptionError'
}

/** An option of `timeGroundedTests` (or `timeGrounded` of a suite) that cannot work. */
export class TimeGroundedOptionError extends OptionError<keyof TimeGroundedOptionErrorCodes> {
  constructor(message: string) {
    super('TIME_GROUNDED_OPTION_INVALID', message)
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const positiveMs = (what: string) => z.number(`${what} in ms`).positive(`${what} in ms, more than 0`).finite(`${what} in ms, more than 0`)

/** The time-grounded suite options as zod checks them (the agent, where a suite takes one, is checked by its caller). */
export const TIME_GROUNDED_OPTION_SHAPE = {
  name: z.string('a suite name').min(1, 'a suite name').optional(),
  dataset: z.string('a LongMemEval-shaped file').min(1, 'a LongMemEval-shaped file').optional(),
  judge: z
    .custom<TimeGroundedTestsOptions['judge']>(
      (value) =>
        value === 'deterministic' ||
        (isRecord(value) && (typeof value.grade === 'function' || (typeof value.baseUrl === 'string' && typeof value.model === 'string'))),
      "'deterministic', an endpoint { baseUrl, model } or a judge object with grade()",
    )
    .optional(),
  ceiling: z
    .custom<TimeGroundedTestsOptions['ceiling']>(
      (value) => typeof value === 'boolean' || (isRecord(value) && typeof (value.answerer as { answer?: unknown } | undefined)?.answer === 'function'),
      'true, false or { answerer }',
    )
    .optional(),
  seed: z.number('a whole number ≥ 0').int('a whole number ≥ 0').min(0, 'a whole number ≥ 0').optional(),
  resamples: z.number().int(`a whole number of at least ${MIN_RESAMPLES}`).min(MIN_RESAMPLES, `a whole number of at least ${MIN_RESAMPLES}`).optional(),
  agentTimeoutMs: positiveMs('a time').optional(),
  judgeTimeoutMs: positiveMs('a time').optional(),
  unjudged: z.enum(UNJUDGED_POLICIES as [UnjudgedPolicy, ...UnjudgedPolicy[]], "'refuse' or 'skip'").optional(),
}

const timeGroundedOptionsSchema = z.strictObject(TIME_GROUNDED_OPTION_SHAPE, {
  error: namedChoices('an option of the time-grounded probe', Object.keys(TIME_GROUNDED_OPTION_SHAPE)),
})

/** Check the options of `timeGroundedTests` / `planTimeGroundedCases`; throws `TimeGroundedOptionError` naming each bad option. */
export function checkTimeGroundedOptions(options: TimeGroundedTestsOptions | undefined, where: string): TimeGroundedTestsOptions {
  return checkOptions(timeGroundedOptionsSchema, options, where, (message) => new TimeGroundedOptionError(message)) as TimeGroundedTestsOptions
}

function resolveJudge(judge: TimeGroundedTestsOptions['judge']): Judge {
  if (judge === undefined || judge === 'deterministic') return deterministicJudge()
  if ('grade' in judge) return judge
  return llmJudge(judge)
}

/** Runs one job at a time: an agent holds one history at a time, so inject-then-answer pairs must not interleave. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()
  run<T>(job: () => Promise<T>): Promise<T> {
    const next = this.tail.then(job, job)
    this.tail = next.catch(() => undefined)
    return next
  }
}

/**
 * Plans the suite: loads the dataset, checks the typed channel and every date
 * (throwing `GroundingModeError` / `SessionDateError` before any agent call),
 * and returns one case per question for control, probe and the optional ceiling.
 */
export async function planTimeGroundedCases(
  agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>),
  given: TimeGroundedTestsOptions = {},
): Promise<TimeGroundedPlan> {
  // Checked here: the interval is drawn by the reporter after the run, where a bad option could only crash it.
  const options = checkTimeGroundedOptions(given, 'the time-grounded probe')
  const dataset = await loadGroundedDataset(options.dataset)
  const judge = judgeFor(dataset, options)
  const subject = typeof agent === 'function' ? await agent() : agent
  // Control and probe both need the typed channel; checked (and named) as the control, which runs first.
  assertGroundingChannel(subject, CONTROL_MODE)
  return casesOf(dataset, options, judge, () => Promise.resolve(subject), agentName(subject))
}

/**
 * planTimeGroundedCases, synchronously, for test runners that register tests
 * synchronously (Jest): the dataset is read at once, and an agent given as a
 * function is made (and its typed channel checked) when the first question
 * runs, so a failure there is each question's error.
 */
export function planTimeGroundedCasesSync(
  agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>),
  given: TimeGroundedTestsOptions = {},
): TimeGroundedPlan {
  const options = checkTimeGroundedOptions(given, 'the time-grounded probe')
  const dataset = loadGroundedDatasetSync(options.dataset)
  const judge = judgeFor(dataset, options)
  if (typeof agent !== 'function') {
    assertGroundingChannel(agent, CONTROL_MODE)
    return casesOf(dataset, options, judge, () => Promise.resolve(agent), agentName(agent))
  }
  let made: Promise<TimeGroundedAgent> | undefined
  const subject = () =>
    (made ??= Promise.resolve()
      .then(agent)
      .then((value) => {
        assertGroundingChannel(value, CONTROL_MODE)
        return value
      }))
  return casesOf(dataset, options, judge, subject, null)
}

/** The suite's judge, once the dataset is known to hold nothing it cannot grade (or the suite was told to skip those). */
function judgeFor(dataset: GroundedDataset, options: TimeGroundedTestsOptions): Judge {
  const judge = resolveJudge(options.judge)
  assertJudgeable(dataset, judge, options.unjudged)
  return judge
}

/** The cases of a plan over a loaded dataset; `subject` gives the agent (made once), `knownName` its name when already known. */
function casesOf(
  dataset: GroundedDataset,
  options: TimeGroundedTestsOptions,
  judge: Judge,
  subject: () => Promise<TimeGroundedAgent>,
  knownName: string | null,
): TimeGroundedPlan {
  const suite = options.name ?? 'time-grounded'
  const bootstrap = { seed: options.seed ?? DEFAULT_PROBE_SEED, resamples: options.resamples ?? DEFAULT_RESAMPLES }
  const controlRecord = groundingRecord(dataset, CONTROL_MODE)
  const probeRecord = groundingRecord(dataset, PROBE_MODE)
  const ceilingAgent = options.ceiling ? referenceReader({ answerer: typeof options.ceiling === 'object' ? options.ceiling.answerer : undefined }) : null
  const queue = new SerialQueue()
  const controlCorrect = new Map<string, boolean>()
  // Known before any call: the test name says so, since a runner without a runtime skip (Jest) lets such a test pass.
  const unjudgeable = new Set(unjudgeableEntries(dataset.items, judge))
  const caveat = probeCaveat(dataset.items.length - unjudgeable.size)
  let name = knownName ?? 'agent'
  const runs: TimeGroundedRunName[] = ceilingAgent ? ['control', 'probe', 'ceiling'] : ['control', 'probe']
  const cases: TimeGroundedCase[] = []
  /** The agent of a run, or the row saying why it could not be made. */
  const runnerOf = async (run: TimeGroundedRunName): Promise<TimeGroundedAgent | string> => {
    if (run === 'ceiling') return ceilingAgent as TimeGroundedAgent
    try {
      const agent = await subject()
      name = agentName(agent)
      return agent
    } catch (error) {
      return `the agent could not be made: ${error instanceof Error ? error.message : String(error)}`
    }
  }
  for (const run of runs) {
    const mode = RUN_MODES[run]
    dataset.items.forEach((entry, order) => {
      cases.push({
        id: `${suite}/${run}/${entry.question_id}`,
        name: `${run} (${mode}) › ${entry.question_id}: ${entry.question}${unjudgeable.has(entry.question_id) ? ' (not judged: no machine-checkable gold)' : ''}`,
        runName: run,
        questionId: entry.question_id,
        run: () =>
          queue.run(async () => {
            const runner = await runnerOf(run)
            const row: QuestionRow =
              typeof runner === 'string'
                ? { question_id: entry.question_id, question_type: entry.question_type, status: 'agent-error', error: runner }
                : await askQuestion(runner, entry, {
                    mode,
                    judge,
                    agentTimeoutMs: options.agentTimeoutMs,
                    judgeTimeoutMs: options.judgeTimeoutMs,
                    unjudged: options.unjudged,
                  })
            const correct = row.status === 'judged' && row.correct
            if (run === 'control') controlCorrect.set(entry.question_id, correct)
            const meta: TimeGroundedCaseRecord = {
              kind: 'timegrounded-question',
              suite,
              agent: run === 'ceiling' ? (ceilingAgent as TimeGroundedAgent).name : name,
              run,
              mode,
              question_id: entry.question_id,
              question_type: entry.question_type,
              order,
              total: dataset.items.length,
              dataset_id: dataset.datasetId,
              dataset_sha256: dataset.datasetSha256,
              judge: judgeRecord(judge),
              grounding: order === 0 ? (run === 'control' ? controlRecord : probeRecord) : null,
              control_correct: run === 'probe' ? (controlCorrect.get(entry.question_id) ?? null) : null,
              caveat,
              notes: typeof runner === 'string' || run === 'ceiling' ? [] : agentNotes(runner),
              bootstrap,
              row,
            }
            return meta
          }),
      })
    })
  }
  return {
    suite,
    agent: name,
    datasetId: dataset.datasetId,
    datasetSha256: dataset.datasetSha256,
    grounding: { control: controlRecord, probe: probeRecord },
    cases,
  }
}

/**
 * The longest one case may take: the history and the answer (each bounded by
 * `agentTimeoutMs`), the grading (`judgeTimeoutMs`), and 10 s to spare. Every
 * call is bounded, so a question's row is always recorded before a test
 * runner's timeout of this length.
 */
export function timeGroundedCaseTimeoutMs(options: Pick<TimeGroundedTestsOptions, 'agentTimeoutMs' | 'judgeTimeoutMs'>): number {
  return (options.agentTimeoutMs ?? DEFAULT_AGENT_TIMEOUT_MS) * 2 + (options.judgeTimeoutMs ?? DEFAULT_JUDGE_TIMEOUT_MS) + 10_000
}

/** Whether a record is a time-grounded question's. */
export function isTimeGroundedCaseRecord(value: unknown): value is TimeGroundedCaseRecord {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'timegrounded-question'
}

/** The error a question's test throws when it was answered wrongly, or not at all: the message is the whole story, so no stack into the harness. */
export class TimeGroundedAnswerError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TimeGroundedAnswerError'
    this.stack = `${this.name}: ${message}`
  }
}

/** Why a question's test fails, or null when it passes (judged correct). */
export function timeGroundedFailureMessage(meta: TimeGroundedCaseRecord): string | null {
  const row = meta.row
  const where = `${meta.run} question ${meta.question_id} (${meta.mode})`
  if (row.status === 'agent-error') return `${where}: the agent failed: ${row.error}`
  if (row.status === 'judge-error') return `${where}: the judge failed: ${row.error}`
  // Not judged is not wrong: the shell skips the test (Vitest) or lets it pass (Jest), and no rate counts it.
  if (row.status === 'unjudged' || row.correct) return null
  const hint =
    meta.run === 'probe' && meta.control_correct === true
      ? ' The control answered it correctly with dates printed in the prompt, so this answer depended on text dates, not on the timestamps delivered through the typed channel.'
      : ''
  return `${where}: answered ${JSON.stringify(row.response)}, judged incorrect (${row.judge_detail}).${hint}`
}

/** Score of one run in a summary. */
export interface TimeGroundedRunScore {
  correct: number
  /** Questions with a result in this report. */
  questions: number
  accuracy: number | null
  errors: number
  /** Questions asked but left out of every rate: the judge cannot grade them. */
  unjudged: number
}

/** The folded result of one time-grounded suite. */
export interface TimeGroundedSuiteSummary {
  suite: string
  agent: string
  dataset_id: string
  /** Questions in the dataset. */
  total: number
  control: TimeGroundedRunScore
  probe: TimeGroundedRunScore
  ceiling: TimeGroundedRunScore | null
  /** Null until both control and probe have every question (e.g. a filtered or sharded run). */
  delta: DeltaRecord | null
  /** What the comparison shows (null with the delta). */
  verdict: TimeGroundedVerdict | null
  caveat: string
  /** The agent's notes (`agent.notes()`), each once. */
  notes: string[]
}

export interface TimeGroundedSummary {
  suites: TimeGroundedSuiteSummary[]
}

function score(metas: readonly TimeGroundedCaseRecord[]): TimeGroundedRunScore {
  const totals = summarizeRows(metas.map((m) => m.row))
  return {
    correct: totals.correct,
    questions: totals.questions,
    accuracy: totals.accuracy,
    errors: totals.agent_errors + totals.judge_errors,
    unjudged: totals.unjudged,
  }
}

/** Folds the metas of every question test into per-suite control, probe, ceiling and delta. */
export function summarizeTimeGrounded(metas: readonly TimeGroundedCaseRecord[], options: { seed?: number; resamples?: number } = {}): TimeGroundedSummary {
  const bySuite = new Map<string, TimeGroundedCaseRecord[]>()
  for (const meta of metas) {
    const list = bySuite.get(meta.suite) ?? []
    list.push(meta)
    bySuite.set(meta.suite, list)
  }
  const suites: TimeGroundedSuiteSummary[] = []
  for (const [suite, list] of [...bySuite.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const pick = (run: TimeGroundedRunName) => list.filter((m) => m.run === run).sort((a, b) => a.order - b.order)
    const control = pick('control')
    const probe = pick('probe')
    const ceiling = pick('ceiling')
    const first = list[0] as TimeGroundedCaseRecord
    const paired = control.length === first.total && probe.length === first.total && control.every((m, i) => probe[i]?.question_id === m.question_id)
    const rows = (metas: readonly TimeGroundedCaseRecord[]) => metas.map((m) => m.row)
    // Explicit options win; otherwise the seed and resamples the suite was planned with.
    const delta = paired
      ? pairedDelta(rows(control), rows(probe), { seed: options.seed ?? first.bootstrap?.seed, resamples: options.resamples ?? first.bootstrap?.resamples })
      : null
    const ceilingPaired = ceiling.length === first.total && ceiling.every((m, i) => control[i]?.question_id === m.question_id)
    suites.push({
      suite,
      agent: (control[0] ?? probe[0] ?? first).agent,
      dataset_id: first.dataset_id,
      total: first.total,
      control: score(control),
      probe: score(probe),
      ceiling: ceiling.length > 0 ? score(ceiling) : null,
      delta,
      verdict:
        delta === null ? null : timeGroundedVerdict({ control: rows(control), probe: rows(probe), ceiling: ceilingPaired ? rows(ceiling) : null, delta }),
      caveat: first.caveat,
      notes: [...new Set(list.flatMap((m) => m.notes ?? []))],
    })
  }
  return { suites }
}

/** The reporter's block: control, probe, delta with interval, counts, and the caveat. */
export function renderTimeGroundedSummary(summary: TimeGroundedSummary, options: { color?: boolean } = {}): string {
  const c = new Chalk({ level: options.color ? 1 : 0 })
  const blocks = summary.suites.map((s) => {
    const lines = [
      c.bold(`time-grounded [${s.suite}]: ${s.agent} on ${s.dataset_id}`),
      ...renderComparisonLines(
        {
          control: s.control,
          probe: s.probe,
          ceiling: s.ceiling,
          delta: s.delta ?? `not computed: ${s.control.questions} control and ${s.probe.questions} probe results of ${s.total} questions in this report`,
          errors: s.control.errors + s.probe.errors,
        },
        c,
      ),
      ...(s.verdict === null ? [] : [`  ${s.verdict.text}`]),
      ...renderNotes(s.notes),
      `  ${s.caveat}`,
    ]
    return lines.join('\n')
  })
  return blocks.join('\n\n')
}
