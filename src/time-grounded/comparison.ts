/**
 * Probe versus control over the same agent, with a paired bootstrap interval
 * over questions, and the ceiling on request: the plan of cases the test
 * runners run (`cases.ts`), run here in order and folded with every row.
 * Computing only: nothing here prints.
 */
import { agentName, agentNotes, type TimeGroundedAgent } from './agent.js'
import { probeCaveat } from './caveat.js'
import { casesOf, RUN_MODES, type TimeGroundedCaseRecord, type TimeGroundedPlan, type TimeGroundedRunName } from './cases.js'
import type { GroundedDataset } from './dataset.js'
import { DELTA_MEANING, pairedDelta, type DeltaRecord } from './delta.js'
import { CONTROL_MODE, PROBE_MODE, groundingRecord, type GroundingMode } from './grounding.js'
import type { Judge } from './judges.js'
import type { ComparisonOptions } from './probe-options.js'
import { judgedCount, type QuestionRow } from './question.js'
import { groundedRunResult, prepareGroundedRun, type GroundedRunResult } from './run.js'
import { recordsByRun, rowsOf } from './summary.js'
import { timeGroundedVerdict, type TimeGroundedVerdict } from './verdict.js'

/**
 * Control, probe, their delta and (optionally) the ceiling, with every row:
 * the figures of the suite summary (`TimeGroundedSuiteSummary`, folded from
 * the same records) plus each run's rows, grounding and judge.
 */
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

/** Options of a probe-versus-control comparison. */
export interface ProbeOptions extends ComparisonOptions {
  judge: Judge
  /** Called with each row as it is decided, with its mode (the ceiling's rows come under `timestamps-only`). @default none */
  onRow?: (row: QuestionRow, mode: GroundingMode) => void
}

/** A comparison and the records of the cases it ran, which the suite summary folds (`summarizeTimeGrounded`). */
export interface ComparisonRun {
  comparison: ProbeComparison
  records: TimeGroundedCaseRecord[]
}

/**
 * Control (`timestamps-and-text`) then probe (`timestamps-only`) over the same
 * agent. Both modes need the typed channel; its absence fails before the
 * control's first call.
 */
export async function runProbeVersusControl(agent: TimeGroundedAgent, dataset: GroundedDataset, options: ProbeOptions): Promise<ProbeComparison> {
  return (await runComparison(agent, dataset, options)).comparison
}

/** runProbeVersusControl, keeping the records of its cases. */
export async function runComparison(agent: TimeGroundedAgent, dataset: GroundedDataset, options: ProbeOptions): Promise<ComparisonRun> {
  // Both modes need the typed channel, and both read the same dates: one check for both, before any call.
  const probe = prepareGroundedRun(agent, dataset, PROBE_MODE, options)
  const grounding = { control: groundingRecord(dataset, CONTROL_MODE), probe }
  const plan = casesOf({ dataset, options, judge: options.judge, grounding, subject: () => Promise.resolve(agent), knownName: agentName(agent) })
  const records: TimeGroundedCaseRecord[] = []
  for (const planned of plan.cases) {
    const record = await planned.run()
    records.push(record)
    options.onRow?.(record.row, record.mode)
  }
  return { comparison: comparisonOf(plan, records, agentNotes(agent), options), records }
}

/** The records of a whole comparison, in the shape `runProbeVersusControl` returns; `notes` are the agent's once every run is done. */
function comparisonOf(
  plan: TimeGroundedPlan,
  records: readonly TimeGroundedCaseRecord[],
  notes: string[],
  bootstrap: { seed?: number; resamples?: number },
): ProbeComparison {
  const runs = recordsByRun(records)
  const result = (run: TimeGroundedRunName, agent: string): GroundedRunResult => {
    const own = runs[run]
    // A run's notes are its agent's when it ended: those after its last question.
    const last = own[own.length - 1]
    const grounding = run === 'control' ? plan.grounding.control : plan.grounding.probe
    return groundedRunResult(agent, RUN_MODES[run], grounding, plan.judge, rowsOf(own), last?.notes ?? [])
  }
  const control = result('control', plan.agent)
  const probe = result('probe', plan.agent)
  const ceiling = plan.ceilingAgent === null ? null : result('ceiling', plan.ceilingAgent)
  const delta = pairedDelta(control.rows, probe.rows, bootstrap)
  return {
    agent: plan.agent,
    control,
    probe,
    delta,
    delta_meaning: DELTA_MEANING,
    ceiling,
    verdict: timeGroundedVerdict({ control: control.rows, probe: probe.rows, ceiling: ceiling?.rows ?? null, delta }),
    caveat: probeCaveat(judgedCount(control.rows)),
    notes,
  }
}
