/**
 * Probe versus control over the same agent, with a paired bootstrap interval
 * over questions, and the ceiling on request. Computing only: nothing here prints.
 */
import { agentName, agentNotes, type TimeGroundedAgent } from './agent.js'
import type { Answerer } from './agents.js'
import { probeCaveat } from './caveat.js'
import type { GroundedDataset } from './dataset.js'
import { DELTA_MEANING, pairedDelta, type DeltaRecord } from './delta.js'
import { CONTROL_MODE, PROBE_MODE, groundingRecord, type GroundingMode, type GroundingRecord } from './grounding.js'
import type { Judge } from './judges.js'
import { askQuestion, judgeRecord, judgedCount, type AskingOptions, type QuestionRow } from './question.js'
import { groundedRunResult, prepareGroundedRun, runCeiling, type GroundedRunOptions, type GroundedRunResult } from './run.js'
import { timeGroundedVerdict, type TimeGroundedVerdict } from './verdict.js'

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

/** What a comparison runs besides control and probe, and how its delta is drawn: the options every way of running one shares. */
export interface ComparisonOptions extends AskingOptions {
  /** Also run the reference reader (timestamps-only) as a ceiling; an answerer replaces its scripted one. @default false */
  ceiling?: boolean | { answerer: Answerer }
  /** Paired-bootstrap seed. @default 20240101 */
  seed?: number
  /** Paired-bootstrap resamples. @default 1000 */
  resamples?: number
}

/** Options of a probe-versus-control comparison. */
export interface ProbeOptions extends ComparisonOptions {
  judge: Judge
  /** Called with each row as it is decided, with its mode (the ceiling's rows come under `timestamps-only`). @default none */
  onRow?: (row: QuestionRow, mode: GroundingMode) => void
}

async function askAll(agent: TimeGroundedAgent, dataset: GroundedDataset, options: GroundedRunOptions, grounding: GroundingRecord): Promise<GroundedRunResult> {
  const rows: QuestionRow[] = []
  for (const entry of dataset.items) {
    const row = await askQuestion(agent, entry, options)
    rows.push(row)
    options.onRow?.(row)
  }
  return groundedRunResult(agentName(agent), options.mode, grounding, judgeRecord(options.judge), rows, agentNotes(agent))
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
