/**
 * Two agents' probe-versus-control comparisons compared, paired per
 * question: each agent's delta (probe − control) over the questions both
 * agents had judged in both runs, and the difference of the two deltas with
 * a paired bootstrap interval. The three intervals resample the same
 * question indices (one seed, one count), so a question hard for both
 * agents cancels out of the difference. Computing only: nothing here prints.
 */
import { pairedBootstrapDelta } from '../stats/bootstrap.js'
import { TimegroundedError } from '../errors.js'
import type { ProbeComparison } from './comparison.js'
import { DEFAULT_PROBE_SEED, type DeltaRecord } from './delta.js'
import type { QuestionRow } from './question.js'

/** The codes of `AgentComparisonError`, each with what it means. */
export interface AgentComparisonErrorCodes {
  /** The two comparisons were not run on the same questions, or share none judged in all four runs. */
  AGENT_COMPARISON_REFUSED: 'AgentComparisonError'
}

/** Thrown by `compareProbeAgents` for two comparisons that cannot be paired question by question. */
export class AgentComparisonError extends TimegroundedError<keyof AgentComparisonErrorCodes> {
  constructor(message: string) {
    super('AGENT_COMPARISON_REFUSED', message)
  }
}

/** What the interval of the difference of deltas shows. */
export type AgentComparisonVerdict = 'b-drops-less' | 'b-drops-more' | 'no-difference'

/** Two agents compared under the probe, paired per question. */
export interface AgentComparison {
  /** Agent A and its delta, probe − control, over the paired questions (its own run's delta may count more). */
  a: { agent: string; delta: DeltaRecord }
  /** Agent B, the same way. */
  b: { agent: string; delta: DeltaRecord }
  /** (probe_B − control_B) − (probe_A − control_A), averaged over the paired questions, with its interval. */
  difference: DeltaRecord
  /** Questions left out: not judged in one of the four runs (an error, or unjudged). */
  leftOut: number
  /** What the interval of `difference` shows: above 0, B loses less under the probe; below 0, more; holding 0, no difference shown. */
  verdict: AgentComparisonVerdict
}

const score = (row: QuestionRow): number => (row.status === 'judged' && row.correct ? 1 : 0)

function byQuestion(rows: readonly QuestionRow[]): Map<string, QuestionRow> {
  return new Map(rows.map((row) => [row.question_id, row]))
}

function record(delta: ReturnType<typeof pairedBootstrapDelta>): DeltaRecord {
  return { value: delta.delta, low: delta.low, high: delta.high, level: delta.level, seed: delta.seed, resamples: delta.resamples, n: delta.n }
}

/**
 * Compares agent B's probe-versus-control result with agent A's, both from
 * `runProbeVersusControl` on the same questions. A question counts when it
 * was judged in all four runs (an agent or judge error, or an unjudged
 * entry, in any of them leaves it out, counted in `leftOut`). Throws
 * `AgentComparisonError` when the question sets differ.
 */
export function compareProbeAgents(a: ProbeComparison, b: ProbeComparison, options: { seed?: number; resamples?: number } = {}): AgentComparison {
  const runs = [a.control.rows, a.probe.rows, b.control.rows, b.probe.rows].map(byQuestion)
  const ids = [...runs[0]!.keys()].sort()
  const otherIds = [...runs[2]!.keys()].sort()
  if (ids.length !== otherIds.length || ids.some((id, i) => id !== otherIds[i])) {
    const onlyA = ids.filter((id) => !runs[2]!.has(id))
    const onlyB = otherIds.filter((id) => !runs[0]!.has(id))
    throw new AgentComparisonError(
      `${a.agent} and ${b.agent} were asked different questions (${ids.length} and ${otherIds.length}; ${onlyA.length} only for ${a.agent}${onlyA.length > 0 ? `, e.g. ${onlyA[0]}` : ''}, ${onlyB.length} only for ${b.agent}${onlyB.length > 0 ? `, e.g. ${onlyB[0]}` : ''}); run both on the same dataset.`,
    )
  }
  const paired = ids.filter((id) => runs.every((run) => run.get(id)?.status === 'judged'))
  if (paired.length === 0)
    throw new AgentComparisonError(`no question was judged in all four runs of ${a.agent} and ${b.agent}; nothing to pair (see each run's errors).`)
  const column = (run: Map<string, QuestionRow>) => paired.map((id) => score(run.get(id)!))
  const [controlA, probeA, controlB, probeB] = runs.map(column) as [number[], number[], number[], number[]]
  const bootstrap = { seed: options.seed ?? DEFAULT_PROBE_SEED, resamples: options.resamples }
  const deltaA = probeA.map((value, i) => value - controlA[i]!)
  const deltaB = probeB.map((value, i) => value - controlB[i]!)
  const difference = record(pairedBootstrapDelta(deltaA, deltaB, bootstrap))
  const verdict: AgentComparisonVerdict =
    difference.low !== null && difference.low > 0 ? 'b-drops-less' : difference.high !== null && difference.high < 0 ? 'b-drops-more' : 'no-difference'
  return {
    a: { agent: a.agent, delta: record(pairedBootstrapDelta(controlA, probeA, bootstrap)) },
    b: { agent: b.agent, delta: record(pairedBootstrapDelta(controlB, probeB, bootstrap)) },
    difference,
    leftOut: ids.length - paired.length,
    verdict,
  }
}

function points(value: number | null): string {
  return value === null ? '—' : `${value >= 0 ? '+' : '−'}${Math.abs(value * 100).toFixed(1)}`
}

function interval(delta: DeltaRecord): string {
  return delta.low === null || delta.high === null ? 'no interval' : `${Math.round(delta.level * 100)}% CI [${points(delta.low)}, ${points(delta.high)}]`
}

/** The comparison in words: each agent's delta, the difference of deltas and what it shows, in percentage points. */
export function renderAgentComparison(comparison: AgentComparison): string {
  const { a, b, difference } = comparison
  const verdict =
    comparison.verdict === 'b-drops-less'
      ? `${b.agent} loses less under the probe than ${a.agent}: it honours the timestamps better`
      : comparison.verdict === 'b-drops-more'
        ? `${b.agent} loses more under the probe than ${a.agent}: it honours the timestamps worse`
        : `no difference shown between the two agents' deltas (${interval(difference)})`
  const left = comparison.leftOut === 0 ? '' : `; ${comparison.leftOut} left out (not judged in one of the four runs)`
  return [
    `Time-grounded probe, two agents paired per question (${difference.n} questions${left}):`,
    `  A ${a.agent}: delta ${points(a.delta.value)} points, ${interval(a.delta)}`,
    `  B ${b.agent}: delta ${points(b.delta.value)} points, ${interval(b.delta)}`,
    `  B − A, difference of deltas: ${points(difference.value)} points, ${interval(difference)} (paired bootstrap over the questions, ${difference.resamples} resamples, seed ${difference.seed})`,
    `Verdict: ${verdict}.`,
  ].join('\n')
}
