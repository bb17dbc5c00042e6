/**
 * The property runner: fast-check draws cases of one or two timelines, each
 * case runs back to back through one store pool (reset, or a fresh store from
 * a factory, between timelines: the suite's own `EpisodeRun`, so capabilities,
 * answer checks, timeouts and faults are the suite's), and every answer is
 * compared with the gold resolver's. A failure is shrunk by fast-check to the
 * smallest case that still fails; the result carries what a replay needs.
 */
import fc from 'fast-check'
import type { MemorySource } from '../adapters/source.js'
import { openPool } from '../harness/pool.js'
import type { CloseProblem, StorePool } from '../harness/store-lease.js'
import { EpisodeRun } from '../harness/episode-run.js'
import { orderProbes } from '../harness/runner-options.js'
import { sameAnswer } from '../tivarq/gold.js'
import type { PredictionRow } from '../tivarq/results.js'
import { caseArbitrary } from './arbitraries.js'
import { removeOneAtATime } from './one-minimal.js'
import type { ResolvedPropertyOptions } from './options.js'
import { askTimeline, type AskedTimeline, type PropertyCase } from './timeline.js'

/** The first wrong (or failed) answer of a case: which timeline, which probe, and the row the runner recorded. */
export interface CaseFailure {
  /** 0-based index of the timeline in the case. */
  timeline: number
  /** The probe's index among the timeline's probes, in asking order. */
  probe: number
  row: PredictionRow
}

/** A shrunk counterexample: the case, its timelines as unsalted episodes, the failing answer, and how to replay it. */
export interface PropertyFailure {
  seed: number
  /** fast-check's replay path: with the seed it runs exactly this case. */
  path: string
  /** Cases run up to and including the first failing one. */
  runsToFailure: number
  /** Smaller cases that also failed on the way to this one. */
  shrinks: number
  case: PropertyCase
  /** The case's timelines as episodes and probes (ids as a user pastes them). */
  asked: AskedTimeline[]
  failure: CaseFailure
}

/** Counts of a property run: what ran before the first failure (shrinking not counted). */
export interface PropertyCounts {
  /** Cases drawn and run. */
  runs: number
  timelines: number
  queries: number
  events: number
}

/** The outcome of a property run, keyed on `status`. */
export type PropertyResult =
  | ({ status: 'passed'; seed: number; closeProblems: CloseProblem[] } & PropertyCounts)
  | ({ status: 'failed'; seed: number; closeProblems: CloseProblem[]; counterexample: PropertyFailure } & PropertyCounts)

/** Who is under test, once the pool is open (for the seed line a shell prints first). */
export interface PropertyStart {
  seed: number
  store: string
  capabilities: { clock: boolean; history: boolean }
}

let caseCounter = 0

/** A salt no earlier case of this process used (see `askTimeline`). */
function nextSalt(): string {
  caseCounter += 1
  return `~${caseCounter}`
}

/** The episode id of a case's timeline, as a user sees it. */
export function timelineEpisodeId(seed: number, index: number): string {
  return `property-${seed}-${index + 1}`
}

/** Wrong, or not answered at all. */
function failed(row: PredictionRow): boolean {
  if (row.status !== 'answered') return true
  return !sameAnswer(row.prediction, row.expected)
}

/** Run one case through the pool: each timeline on a store reset for it; stop at the first failing answer. */
async function runCase(pool: StorePool, propertyCase: PropertyCase, options: ResolvedPropertyOptions): Promise<CaseFailure | null> {
  const salt = nextSalt()
  for (const [index, timeline] of propertyCase.timelines.entries()) {
    const { episode, probes } = askTimeline(timeline, `${timelineEpisodeId(options.seed, index)}${salt}`, 'replacement', salt)
    const run = await EpisodeRun.open(pool, episode, { track: options.track })
    try {
      for (const [position, probe] of orderProbes(probes).entries()) {
        const row = await run.answer(probe)
        if (failed(row)) return { timeline: index, probe: position, row }
      }
    } finally {
      await run.close()
    }
  }
  return null
}

/**
 * The part of a failing case the store was asked: timelines after the
 * failing one never ran, nor did the failing timeline's later queries.
 */
function askedPart(found: { case: PropertyCase; failure: CaseFailure }): { case: PropertyCase; failure: CaseFailure } {
  const { failure } = found
  const timelines = found.case.timelines.slice(0, failure.timeline + 1).map((timeline, index) => {
    if (index < failure.timeline) return timeline
    // Probes are asked in (after_event_index, order drawn) order: keep the queries asked up to the failing one.
    const order = timeline.queries
      .map((query, position) => ({ query, position }))
      .sort((a, b) => a.query.afterEvent - b.query.afterEvent || a.position - b.position)
    // Written in asking order, so the failing query is the last one.
    return { events: timeline.events, queries: order.slice(0, failure.probe + 1).map(({ query }) => query) }
  })
  return { case: { timelines }, failure: { ...failure, probe: timelines[failure.timeline]!.queries.length - 1 } }
}

/** A call that timed out: shrinking it would wait out the timeout at every step, so the first such case is kept as it is. */
function timedOut(row: PredictionRow): boolean {
  return row.status === 'error' && /within \d+ ms/.test(row.error)
}

/**
 * After fast-check's shrinking, one event or query at a time (see one-minimal.ts), so that every
 * counterexample is 1-minimal. A case whose call timed out is left as it is, and a smaller case that
 * only times out is not taken: each would wait out the timeout.
 */
async function lastShrinks(
  pool: StorePool,
  found: { case: PropertyCase; failure: CaseFailure },
  options: ResolvedPropertyOptions,
): Promise<{ case: PropertyCase; failure: CaseFailure; removals: number }> {
  if (timedOut(found.failure.row)) return { ...found, removals: 0 }
  const { found: smallest, removals } = await removeOneAtATime(found, async (candidate) => {
    const failure = await runCase(pool, candidate, options)
    return failure === null || timedOut(failure.row) ? null : askedPart({ case: candidate, failure })
  })
  return { ...smallest, removals }
}

/**
 * Run the property against `source` (a store, a factory or a command
 * adapter). `onStart` hears the seed and the store before the first case.
 * Throws what `openPool` throws (a store refused or not started).
 */
export async function runProperties(source: MemorySource, options: ResolvedPropertyOptions, onStart?: (start: PropertyStart) => void): Promise<PropertyResult> {
  const pool = await openPool(source, { track: options.track, concurrency: 1, timeoutMs: options.timeoutMs, name: options.name })
  let closeProblems: CloseProblem[] = []
  const outcome = await search(pool, options, onStart).finally(async () => {
    closeProblems = await pool.close()
  })
  // A store that fails to close does not hide the verdict: both are reported.
  return { ...outcome, closeProblems }
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never

async function search(
  pool: StorePool,
  options: ResolvedPropertyOptions,
  onStart: ((start: PropertyStart) => void) | undefined,
): Promise<DistributiveOmit<PropertyResult, 'closeProblems'>> {
  const info = pool.info()
  const capabilities = { clock: info.capabilities.clock, history: info.capabilities.history }
  onStart?.({ seed: options.seed, store: info.name, capabilities })
  const counts: PropertyCounts = { runs: 0, timelines: 0, queries: 0, events: 0 }
  let found: { case: PropertyCase; failure: CaseFailure } | null = null
  let frozen = false
  const property = fc.asyncProperty(caseArbitrary(capabilities, { maxEvents: options.maxEvents }), async (propertyCase) => {
    if (frozen) return true
    if (found === null) {
      counts.runs += 1
      counts.timelines += propertyCase.timelines.length
      for (const timeline of propertyCase.timelines) {
        counts.queries += timeline.queries.length
        counts.events += timeline.events.length
      }
    }
    const failure = await runCase(pool, propertyCase, options)
    if (failure === null) return true
    found = { case: propertyCase, failure }
    if (timedOut(failure.row)) frozen = true
    return false
  })
  const details = await fc.check(property, { seed: options.seed, numRuns: options.runs, ...(options.path === undefined ? {} : { path: options.path }) })
  if (details.failed && found === null) throw details.errorInstance ?? new Error('the property runner failed without a counterexample')
  if (!details.failed || found === null) return { status: 'passed', seed: options.seed, ...counts }
  const shrunk = await lastShrinks(pool, askedPart(found as { case: PropertyCase; failure: CaseFailure }), options)
  return {
    status: 'failed',
    seed: options.seed,
    ...counts,
    counterexample: {
      seed: options.seed,
      path: details.counterexamplePath ?? '',
      runsToFailure: counts.runs,
      shrinks: details.numShrinks + shrunk.removals,
      case: shrunk.case,
      asked: shrunk.case.timelines.map((timeline, index) => askTimeline(timeline, timelineEpisodeId(options.seed, index), 'replacement')),
      failure: shrunk.failure,
    },
  }
}
