/**
 * The one fold of the time-grounded probe: the records of a suite's cases
 * (from one process, or gathered from shards and blob reports) into control,
 * probe, ceiling, the paired delta and the verdict.
 */
import type { TimeGroundedCaseRecord, TimeGroundedRunName } from './cases.js'
import { pairedDelta, type DeltaRecord } from './delta.js'
import { probeCaveat } from './caveat.js'
import { judgedCount, summarizeRows, type QuestionRow } from './question.js'
import { timeGroundedVerdict, type TimeGroundedVerdict } from './verdict.js'

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

/** The seed and resamples of a paired bootstrap; unset, those the suite was planned with. */
export interface BootstrapChoice {
  seed?: number
  resamples?: number
}

/** A suite's records by run, each run in dataset order. */
export function recordsByRun(list: readonly TimeGroundedCaseRecord[]): Record<TimeGroundedRunName, TimeGroundedCaseRecord[]> {
  const pick = (run: TimeGroundedRunName) => list.filter((m) => m.run === run).sort((a, b) => a.order - b.order)
  return { control: pick('control'), probe: pick('probe'), ceiling: pick('ceiling') }
}

/** The rows of records. */
export function rowsOf(records: readonly TimeGroundedCaseRecord[]): QuestionRow[] {
  return records.map((m) => m.row)
}

function score(metas: readonly TimeGroundedCaseRecord[]): TimeGroundedRunScore {
  const totals = summarizeRows(rowsOf(metas))
  return {
    correct: totals.correct,
    questions: totals.questions,
    accuracy: totals.accuracy,
    errors: totals.agent_errors + totals.judge_errors,
    unjudged: totals.unjudged,
  }
}

/** The delta and verdict of a suite's runs, or nulls until control and probe hold every question, paired. */
function comparisonFigures(
  runs: Record<TimeGroundedRunName, TimeGroundedCaseRecord[]>,
  first: TimeGroundedCaseRecord,
  options: BootstrapChoice,
): { delta: DeltaRecord | null; verdict: TimeGroundedVerdict | null } {
  const { control, probe, ceiling } = runs
  const paired = control.length === first.total && probe.length === first.total && control.every((m, i) => probe[i]?.question_id === m.question_id)
  if (!paired) return { delta: null, verdict: null }
  // Explicit options win; otherwise the seed and resamples the suite was planned with.
  const delta = pairedDelta(rowsOf(control), rowsOf(probe), {
    seed: options.seed ?? first.bootstrap?.seed,
    resamples: options.resamples ?? first.bootstrap?.resamples,
  })
  const ceilingPaired = ceiling.length === first.total && ceiling.every((m, i) => control[i]?.question_id === m.question_id)
  return { delta, verdict: timeGroundedVerdict({ control: rowsOf(control), probe: rowsOf(probe), ceiling: ceilingPaired ? rowsOf(ceiling) : null, delta }) }
}

/** One suite's records (at least one) folded into its summary. */
export function summarizeSuite(suite: string, list: readonly TimeGroundedCaseRecord[], options: BootstrapChoice = {}): TimeGroundedSuiteSummary {
  const runs = recordsByRun(list)
  const first = list[0] as TimeGroundedCaseRecord
  const { delta, verdict } = comparisonFigures(runs, first, options)
  return {
    suite,
    agent: (runs.control[0] ?? runs.probe[0] ?? first).agent,
    dataset_id: first.dataset_id,
    total: first.total,
    control: score(runs.control),
    probe: score(runs.probe),
    ceiling: runs.ceiling.length > 0 ? score(runs.ceiling) : null,
    delta,
    verdict,
    // Once control is whole, the caveat counts what its rate rests on (as `runProbeVersusControl` does); before, what the plan expected.
    caveat: delta === null ? first.caveat : probeCaveat(judgedCount(rowsOf(runs.control))),
    // The agent under test's notes: the ceiling's are the reference reader's.
    notes: [...new Set(list.flatMap((m) => (m.run === 'ceiling' ? [] : (m.notes ?? []))))],
  }
}

/** Folds the metas of every question test into per-suite control, probe, ceiling and delta. */
export function summarizeTimeGrounded(metas: readonly TimeGroundedCaseRecord[], options: BootstrapChoice = {}): TimeGroundedSummary {
  const bySuite = new Map<string, TimeGroundedCaseRecord[]>()
  for (const meta of metas) {
    const list = bySuite.get(meta.suite) ?? []
    list.push(meta)
    bySuite.set(meta.suite, list)
  }
  const suites = [...bySuite.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([suite, list]) => summarizeSuite(suite, list, options))
  return { suites }
}
