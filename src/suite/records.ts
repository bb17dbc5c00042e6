/**
 * What crosses from the test workers to the end-of-run step (in Vitest, in
 * `task.meta`, so it survives `--reporter=blob` and `--merge-reports`) and
 * from the reporter to the workers, plus the per-probe policy both sides
 * share. Everything here is plain JSON: no Date, Map, BigInt or functions.
 */
import type { PredictionRow } from '../tivarq/results.js'
import { isCorrect } from '../tivarq/score.js'
import { isKnownFailure, type BaselineMatch, type ProbeOutcome, type SuiteIdentity } from './baseline.js'

/** Key of our record in a test's metadata and of the context given to the workers. */
export const RECORD_KEY = 'timegrounded'

/** What the reporter gives the workers for each run. */
export interface WorkerContext {
  /** Absolute path of the baseline file, or null when baselines are off. */
  baselinePath: string | null
  /** This run rewrites the baseline (`npx vitest run -u`, the first run of `vitest -u`, or the watch-mode `u` key): wrong answers are recorded, not failed. */
  update: boolean
}

/** How a probe's test ended, by the per-probe policy. */
export type ProbeDecision = 'pass' | 'fail' | 'known_failure' | 'skip'

/** One `1-based` slice of a suite spread over several files, like `--shard`. */
export interface Partition {
  index: number
  count: number
}

/** The record of a TIVARQ probe's test. Set at collection; `row`, `outcome`, `decision` once it ran. */
export interface ProbeRecord {
  kind: 'tivarq-probe'
  suite: SuiteIdentity
  partition: Partition | null
  /** Probes in the whole suite, over all partitions. */
  probeTotal: number
  /** The TIVARQ directory the suite read (absolute), when not the bundled one: the HTML report reads its episodes again for the timelines. */
  datasetDir?: string
  /** The seed of the TIVARQ variant the suite generated, when it ran one: the HTML report generates it again for the timelines. */
  variant?: number
  /** Position of the probe in canonical order (episode file order, then after_event_index, probe_id). */
  order: number
  probeId: string
  row?: PredictionRow
  outcome?: ProbeOutcome
  decision?: ProbeDecision
}

/** The outcome of a prediction row: correct, wrong, unsupported or error. */
export function outcomeOf(row: PredictionRow, correct: boolean): ProbeOutcome {
  if (row.status !== 'answered') return row.status
  return correct ? 'correct' : 'wrong'
}

/**
 * The per-probe policy. Correct passes; unsupported is skipped; a wrong answer
 * fails, unless it was already wrong in the baseline (a known failure, which
 * does not fail CI) or the baseline is being rewritten (`-u`: wrong answers are
 * recorded as known failures). An error always fails: a store that fails to
 * answer must never pass where a wrong answer would not (and it blocks `-u`).
 */
export function decideProbe(outcome: ProbeOutcome, knownFailure: boolean, update: boolean): ProbeDecision {
  switch (outcome) {
    case 'correct':
      return 'pass'
    case 'unsupported':
      return 'skip'
    case 'wrong':
      return knownFailure || update ? 'known_failure' : 'fail'
    case 'error':
      return 'fail'
  }
}

/** A probe's row judged by the policy: what it came to, whether the baseline knew it failing, and how its test ends. */
export interface ProbeVerdict {
  outcome: ProbeOutcome
  knownFailure: boolean
  decision: ProbeDecision
}

/** Judge one probe's row against the baseline entry of its suite, in this run's update mode. */
export function judgeProbe(row: PredictionRow, baseline: BaselineMatch, update: boolean): ProbeVerdict {
  const outcome = outcomeOf(row, isCorrect(row))
  const knownFailure = isKnownFailure(baseline, row.probe_id)
  return { outcome, knownFailure, decision: decideProbe(outcome, knownFailure, update) }
}

/** The record of a finished probe: the collected record with its row (a plain-JSON copy) and verdict. */
export function finishedRecord(record: ProbeRecord, row: PredictionRow, verdict: ProbeVerdict): ProbeRecord {
  return { ...record, row: JSON.parse(JSON.stringify(row)) as PredictionRow, outcome: verdict.outcome, decision: verdict.decision }
}

/** Whether a record is a TIVARQ probe's (rather than a time-grounded question's, or anything else). */
export function isProbeRecord(value: unknown): value is ProbeRecord {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'tivarq-probe'
}
