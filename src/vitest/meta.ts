/**
 * What crosses from the test workers to the reporter (in `task.meta`, so it
 * survives `--reporter=blob` and `--merge-reports`) and from the reporter to
 * the workers (`provide`/`inject`), plus the per-probe policy both sides share.
 * Everything here is plain JSON: no Date, Map, BigInt or functions.
 */
import type { PredictionRow } from '../tivarq/results.js'
import type { ProbeOutcome, SuiteIdentity } from './gate.js'
import type { TimeGroundedCaseMeta } from '../timegrounded/suite-support.js'

/** Key of our entry in `task.meta` and in the provided context. */
export const META_KEY = 'timegrounded'

/** Baseline file name, relative to the Vitest root. @default 'timegrounded.baseline.json' */
export const DEFAULT_BASELINE_FILE = 'timegrounded.baseline.json'

/** What the reporter provides to the workers for each run. */
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

/** `task.meta.timegrounded` of a TIVARQ probe's test. Set at collection; `row`, `outcome`, `decision` once it ran. */
export interface ProbeMeta {
  kind: 'tivarq-probe'
  suite: SuiteIdentity
  partition: Partition | null
  /** Probes in the whole suite, over all partitions. */
  probeTotal: number
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

/** Read our meta from a task's meta object, if it is one of ours. */
export function probeMetaOf(meta: Record<string, unknown> | undefined): ProbeMeta | null {
  const value = meta?.[META_KEY] as ProbeMeta | undefined
  return value && value.kind === 'tivarq-probe' ? value : null
}

// Typed `task.meta.timegrounded` and `inject('timegrounded')`.
declare module '@vitest/runner' {
  interface TaskMeta {
    /** A TIVARQ probe's record, or a time-grounded question's (`kind: 'timegrounded-question'`). */
    timegrounded?: ProbeMeta | TimeGroundedCaseMeta
  }
}
declare module 'vitest' {
  interface ProvidedContext {
    timegrounded: WorkerContext
  }
}
