/**
 * The time-grounded probe as test cases, for any test runner and for
 * `runProbeVersusControl`: a plan of one case per question per run (control,
 * probe, and the optional ceiling), each with an async `run()` that returns a
 * plain-JSON record (so it survives blob reports and merges). The one engine
 * of the probe. Imports no test framework.
 */
import { DEFAULT_RESAMPLES } from '../stats/bootstrap.js'
import { agentName, agentNotes, assertGroundingChannel, type TimeGroundedAgent } from './agent.js'
import { referenceReader } from './agents.js'
import { probeCaveat } from './caveat.js'
import { loadGroundedDataset, loadGroundedDatasetSync, type GroundedDataset } from './dataset.js'
import { DEFAULT_PROBE_SEED } from './delta.js'
import { CONTROL_MODE, PROBE_MODE, groundingRecord, type GroundingMode, type GroundingRecord } from './grounding.js'
import { assertJudgeable, unjudgeableEntries, type Judge } from './judges.js'
import type { LongMemEvalEntry } from './longmemeval.js'
import { checkTimeGroundedOptions, resolveJudge, type ComparisonOptions, type TimeGroundedTestsOptions } from './probe-options.js'
import { askQuestion, DEFAULT_AGENT_TIMEOUT_MS, DEFAULT_JUDGE_TIMEOUT_MS, judgeRecord, type JudgeRecord, type QuestionRow } from './question.js'

/** The runs a suite can hold: control and probe always, ceiling on request. */
export type TimeGroundedRunName = 'control' | 'probe' | 'ceiling'

/** The mode each run asks under. */
export const RUN_MODES: Record<TimeGroundedRunName, GroundingMode> = { control: CONTROL_MODE, probe: PROBE_MODE, ceiling: PROBE_MODE }

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
  /** The notes of the run's agent after this question (`agent.notes()`; the ceiling's are the reference reader's): said once by the reporter. */
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
  /** The judge every case is graded by, as results record it. */
  judge: JudgeRecord
  /** The name of the ceiling's agent (the reference reader) when the ceiling runs. */
  ceilingAgent: string | null
  /** Control cases first, then probe, then ceiling: run them in this order. */
  cases: TimeGroundedCase[]
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
  return casesOf({ dataset, options, judge, grounding: groundingOf(dataset), subject: () => Promise.resolve(subject), knownName: agentName(subject) })
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
    return casesOf({ dataset, options, judge, grounding: groundingOf(dataset), subject: () => Promise.resolve(agent), knownName: agentName(agent) })
  }
  let made: Promise<TimeGroundedAgent> | undefined
  const subject = () =>
    (made ??= Promise.resolve()
      .then(agent)
      .then((value) => {
        assertGroundingChannel(value, CONTROL_MODE)
        return value
      }))
  return casesOf({ dataset, options, judge, grounding: groundingOf(dataset), subject, knownName: null })
}

/** The suite's judge, once the dataset is known to hold nothing it cannot grade (or the suite was told to skip those). */
function judgeFor(dataset: GroundedDataset, options: TimeGroundedTestsOptions): Judge {
  const judge = resolveJudge(options.judge)
  assertJudgeable(dataset, judge, options.unjudged)
  return judge
}

/** The grounding records of control and probe (reading every date: `SessionDateError` before any agent call). */
export function groundingOf(dataset: GroundedDataset): Record<'control' | 'probe', GroundingRecord> {
  return { control: groundingRecord(dataset, CONTROL_MODE), probe: groundingRecord(dataset, PROBE_MODE) }
}

/** What a plan is made of, once the dataset is loaded and checked. */
export interface PlanInput {
  dataset: GroundedDataset
  options: ComparisonOptions & { name?: string }
  judge: Judge
  grounding: Record<'control' | 'probe', GroundingRecord>
  /** Gives the agent under test (made once). */
  subject: () => Promise<TimeGroundedAgent>
  /** The agent's name when already known. */
  knownName: string | null
}

/** The agent of each run, and the name the agent under test goes by (known once it is made). */
class Runners {
  name: string
  constructor(
    private readonly subject: () => Promise<TimeGroundedAgent>,
    knownName: string | null,
    readonly ceiling: TimeGroundedAgent | null,
  ) {
    this.name = knownName ?? 'agent'
  }

  /** The agent of a run, or the error saying why it could not be made. */
  async of(run: TimeGroundedRunName): Promise<TimeGroundedAgent | string> {
    if (run === 'ceiling') return this.ceiling as TimeGroundedAgent
    try {
      const agent = await this.subject()
      this.name = agentName(agent)
      return agent
    } catch (error) {
      return `the agent could not be made: ${error instanceof Error ? error.message : String(error)}`
    }
  }
}

/** What every case of a plan shares. */
interface PlanContext {
  suite: string
  input: PlanInput
  runners: Runners
  queue: SerialQueue
  /** Whether the control answered each question correctly, filled as the control runs. */
  controlCorrect: Map<string, boolean>
  /** Entries the judge cannot grade: known before any call. */
  unjudgeable: ReadonlySet<string>
  caveat: string
  bootstrap: { seed: number; resamples: number }
}

/** The cases of a plan over a loaded dataset, checked before. */
export function casesOf(input: PlanInput): TimeGroundedPlan {
  const { dataset, options, judge } = input
  const suite = options.name ?? 'time-grounded'
  const ceiling = options.ceiling ? referenceReader({ answerer: typeof options.ceiling === 'object' ? options.ceiling.answerer : undefined }) : null
  const unjudgeable = new Set(unjudgeableEntries(dataset.items, judge))
  const context: PlanContext = {
    suite,
    input,
    runners: new Runners(input.subject, input.knownName, ceiling),
    queue: new SerialQueue(),
    controlCorrect: new Map(),
    // Known before any call: the test name says so, since a runner without a runtime skip (Jest) lets such a test pass.
    unjudgeable,
    caveat: probeCaveat(dataset.items.length - unjudgeable.size),
    bootstrap: { seed: options.seed ?? DEFAULT_PROBE_SEED, resamples: options.resamples ?? DEFAULT_RESAMPLES },
  }
  const runs: TimeGroundedRunName[] = ceiling ? ['control', 'probe', 'ceiling'] : ['control', 'probe']
  return {
    suite,
    agent: context.runners.name,
    datasetId: dataset.datasetId,
    datasetSha256: dataset.datasetSha256,
    grounding: input.grounding,
    judge: judgeRecord(judge),
    ceilingAgent: ceiling?.name ?? null,
    cases: runs.flatMap((run) => dataset.items.map((entry, order) => caseOf(context, run, entry, order))),
  }
}

/** One question of one run as a test case. */
function caseOf(context: PlanContext, run: TimeGroundedRunName, entry: LongMemEvalEntry, order: number): TimeGroundedCase {
  const mode = RUN_MODES[run]
  const unjudged = context.unjudgeable.has(entry.question_id) ? ' (not judged: no machine-checkable gold)' : ''
  return {
    id: `${context.suite}/${run}/${entry.question_id}`,
    name: `${run} (${mode}) › ${entry.question_id}: ${entry.question}${unjudged}`,
    runName: run,
    questionId: entry.question_id,
    run: () => context.queue.run(() => askCase(context, run, entry, order)),
  }
}

/** Asks one case's question with its run's agent and records the outcome. */
async function askCase(context: PlanContext, run: TimeGroundedRunName, entry: LongMemEvalEntry, order: number): Promise<TimeGroundedCaseRecord> {
  const { options, judge } = context.input
  const mode = RUN_MODES[run]
  const runner = await context.runners.of(run)
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
  if (run === 'control') context.controlCorrect.set(entry.question_id, row.status === 'judged' && row.correct)
  return recordOf(context, { run, entry, order, row, agent: run === 'ceiling' ? (runner as TimeGroundedAgent).name : context.runners.name, runner })
}

/** The plain-JSON record of one asked case. */
function recordOf(
  context: PlanContext,
  asked: { run: TimeGroundedRunName; entry: LongMemEvalEntry; order: number; row: QuestionRow; agent: string; runner: TimeGroundedAgent | string },
): TimeGroundedCaseRecord {
  const { dataset, judge, grounding } = context.input
  const { run, entry, order } = asked
  return {
    kind: 'timegrounded-question',
    suite: context.suite,
    agent: asked.agent,
    run,
    mode: RUN_MODES[run],
    question_id: entry.question_id,
    question_type: entry.question_type,
    order,
    total: dataset.items.length,
    dataset_id: dataset.datasetId,
    dataset_sha256: dataset.datasetSha256,
    judge: judgeRecord(judge),
    grounding: order === 0 ? (run === 'control' ? grounding.control : grounding.probe) : null,
    control_correct: run === 'probe' ? (context.controlCorrect.get(entry.question_id) ?? null) : null,
    caveat: context.caveat,
    notes: typeof asked.runner === 'string' ? [] : agentNotes(asked.runner),
    bootstrap: context.bootstrap,
    row: asked.row,
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
