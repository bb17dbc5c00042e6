/**
 * What crosses from the test workers to the end-of-run step (in Vitest, in
 * `task.meta`, so it survives `--reporter=blob` and `--merge-reports`) and
 * from the reporter to the workers, plus the per-probe policy both sides
 * share. Everything here is plain JSON: no Date, Map, BigInt or functions.
 */
import { describeIsolationFailure, type IsolationCheck, type IsolationFailure } from '../harness/isolation-check.js'
import type { PredictionRow } from '../tivarq/results.js'
import { isCorrect } from '../tivarq/row-verdicts.js'
import { isKnownFailure, type BaselineMatch, type ProbeOutcome, type SuiteIdentity } from './baseline.js'
import { baselineNoise, type ProbeEvidence, probeEvidence } from './probe-evidence.js'
import type { ReferenceRecord } from './reference.js'

/** Key of our record in a test's metadata and of the context given to the workers. */
export const CHANNEL_KEY = 'timegrounded'

/** What the reporter gives the workers for each run. */
export interface WorkerContext {
  /** Absolute path of the baseline file, or null when baselines are off. */
  baselinePath: string | null
  /** This run rewrites the baseline (`npx vitest run -u`, the first run of `vitest -u`, or the watch-mode `u` key): wrong answers are recorded, not failed. */
  update: boolean
}

/**
 * How a probe's test ended, by the per-probe policy. `flaky` (with repeats: right
 * in some repetitions, wrong in others) passes with an annotation, unless the
 * suite's `flaky` option is `'fail'`. `suspect` (with repeats, against a noisy
 * baseline: wrong in every repetition, but not beyond chance) passes with an
 * annotation too.
 */
export type ProbeDecision = 'pass' | 'fail' | 'known_failure' | 'flaky' | 'suspect' | 'skip'

/** What a flaky probe's test does: pass with an annotation (`report`), or fail like a wrong answer (`fail`). */
export type FlakyPolicy = 'report' | 'fail'

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
  /** Repetitions the suite runs: the probe is asked once in each, every episode with fresh stores. */
  repeats: number
  /** The probe's row in each repetition, in order (`rows[r].repetition` is r). */
  rows?: PredictionRow[]
  /** Over the repetitions, as the baseline records it: `wrong` when wrong in any of them, `error` when any errored. */
  outcome?: ProbeOutcome
  decision?: ProbeDecision
  /** The suite's reference store (`reference` option), with its rows of this probe once it ran. */
  reference?: ReferenceRecord
}

/** What a probe came to over the repetitions: an outcome as in one run, or `flaky` (right in some, wrong in others). */
export type ProbeResult = ProbeOutcome | 'flaky'

/** The result of a probe's rows: an error in any repetition is an error; correct only when correct in all. */
export function resultOf(rows: readonly PredictionRow[]): ProbeResult {
  if (rows.some((row) => row.status === 'error')) return 'error'
  const answered = rows.filter((row) => row.status === 'answered')
  if (answered.length === 0) return 'unsupported'
  const correct = answered.filter(isCorrect).length
  if (correct === answered.length) return 'correct'
  return correct > 0 ? 'flaky' : 'wrong'
}

/** What the baseline records of a result: a flaky probe is one that was answered wrongly (in some repetition). */
export function outcomeOfResult(result: ProbeResult): ProbeOutcome {
  return result === 'flaky' ? 'wrong' : result
}

/**
 * The per-probe policy. Correct passes; unsupported is skipped; a wrong answer
 * (in every repetition) fails, unless it was already wrong in the baseline (a
 * known failure, which does not fail CI) or the baseline is being rewritten
 * (`-u`: wrong answers are recorded as known failures). A flaky probe (right
 * in some repetitions) is the noise the metric gate judges: it passes, noted,
 * unless the policy is `fail`, which treats it as a wrong answer. An error
 * always fails: a store that fails to answer must never pass where a wrong
 * answer would not (and it blocks `-u`).
 * @default flaky 'report'
 */
export function decideProbe(result: ProbeResult, knownFailure: boolean, update: boolean, flaky: FlakyPolicy = 'report'): ProbeDecision {
  switch (result) {
    case 'correct':
      return 'pass'
    case 'unsupported':
      return 'skip'
    case 'flaky':
      if (flaky === 'report') return 'flaky'
      return knownFailure || update ? 'known_failure' : 'fail'
    case 'wrong':
      return knownFailure || update ? 'known_failure' : 'fail'
    case 'error':
      return 'fail'
  }
}

/** A probe's rows judged by the policy: what they came to, whether the baseline knew it failing, and how its test ends. */
export interface ProbeVerdict {
  result: ProbeResult
  /** What the baseline records of it. */
  outcome: ProbeOutcome
  knownFailure: boolean
  decision: ProbeDecision
  /** With repeats against a baseline recorded with repeats: the binomial test of a probe wrong in every repetition. */
  evidence?: ProbeEvidence
}

/**
 * The per-probe policy when no gate will judge the run (no timegrounded
 * reporter in it): every leniency of `decideProbe` (a known failure, `-u`, an
 * unsupported probe, a flaky one) exists because the gate judges what it lets
 * through, so without a gate only a right answer passes.
 */
export function strictDecision(result: ProbeResult): ProbeDecision {
  return result === 'correct' ? 'pass' : 'fail'
}

/**
 * Judge one probe's rows (one per repetition) against the baseline entry of
 * its suite, in this run's update mode; strictly (`strictDecision`) when
 * `gated` is false. A probe wrong in every repetition that would fail is
 * tested against the baseline's noise (see probe-evidence.ts) when both sides
 * ran repeats: it fails only when chance does not explain it, among the
 * suite's `probes`, else it is `suspect`.
 * @default flaky 'report', gated true, probes 1
 */
export function judgeProbe(
  rows: readonly PredictionRow[],
  baseline: BaselineMatch,
  update: boolean,
  flaky: FlakyPolicy = 'report',
  gated = true,
  probes = 1,
): ProbeVerdict {
  const result = resultOf(rows)
  const knownFailure = isKnownFailure(baseline, rows[0]!.probe_id)
  if (!gated) return { result, outcome: outcomeOfResult(result), knownFailure, decision: strictDecision(result) }
  const verdict: ProbeVerdict = { result, outcome: outcomeOfResult(result), knownFailure, decision: decideProbe(result, knownFailure, update, flaky) }
  const noise = rows.length > 1 && result === 'wrong' && verdict.decision === 'fail' ? baselineNoise(baseline) : null
  if (noise === null) return verdict
  const answered = rows.filter((row) => row.status === 'answered').length
  const evidence = probeEvidence(answered, answered, noise, probes)
  return { ...verdict, evidence, decision: evidence.strong ? 'fail' : 'suspect' }
}

/** The record of a finished probe: the collected record with its rows (plain-JSON copies) and verdict. */
export function finishedRecord(record: ProbeRecord, rows: readonly PredictionRow[], verdict: ProbeVerdict): ProbeRecord {
  return { ...record, rows: JSON.parse(JSON.stringify(rows)) as PredictionRow[], outcome: verdict.outcome, decision: verdict.decision }
}

/** The failure a suite's block throws for its isolation failures, or null when there are none. */
export function isolationMessage(isolation: readonly IsolationFailure[]): string | null {
  return isolation.length === 0 ? null : isolation.map(describeIsolationFailure).join('\n')
}

/**
 * What one test file's isolation check came to, once its episodes were over (see `checkIsolation`):
 * carried by the suite's block to the reporter (in Vitest the suite's `meta`, in Jest a side-file
 * line), outside every probe's record and row. `checked: false`: `isolationCheck: false` turned it off.
 */
export type IsolationOutcome = { checked: false } | ({ checked: true } & IsolationCheck)

/** Key of the isolation outcome in a Vitest suite's metadata. */
export const ISOLATION_KEY = 'timegrounded:isolation'

/** The outcome of a check (null: it was off), as plain JSON. */
export function isolationOutcome(check: IsolationCheck | null): IsolationOutcome {
  return check === null ? { checked: false } : { checked: true, ...(JSON.parse(JSON.stringify(check)) as IsolationCheck) }
}

/** Whether `value` (read back from a runner's metadata or a shard file) is an isolation outcome. */
export function isIsolationOutcome(value: unknown): value is IsolationOutcome {
  if (typeof value !== 'object' || value === null) return false
  const outcome = value as Partial<Omit<Extract<IsolationOutcome, { checked: true }>, 'checked'>> & { checked?: unknown }
  if (outcome.checked === false) return true
  return outcome.checked === true && Array.isArray(outcome.failures) && typeof outcome.asked === 'number' && typeof outcome.usage === 'object'
}

/** The outcomes of a suite's files as one check; null when any file had it off (what its summary then says). */
export function combinedCheck(outcomes: readonly IsolationOutcome[]): IsolationCheck | null {
  const check: IsolationCheck = { failures: [], asked: 0, unanswered: 0, usage: {} }
  for (const outcome of outcomes) {
    if (!outcome.checked) return null
    check.failures.push(...outcome.failures)
    check.asked += outcome.asked
    check.unanswered += outcome.unanswered
    const { promptTokens, completionTokens } = outcome.usage
    if (promptTokens !== undefined) check.usage.promptTokens = (check.usage.promptTokens ?? 0) + promptTokens
    if (completionTokens !== undefined) check.usage.completionTokens = (check.usage.completionTokens ?? 0) + completionTokens
    if (outcome.costUsd !== undefined) check.costUsd = (check.costUsd ?? 0) + outcome.costUsd
  }
  return check
}

/** Whether a record is a TIVARQ probe's (rather than a time-grounded question's, or anything else). */
export function isProbeRecord(value: unknown): value is ProbeRecord {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'tivarq-probe'
}
