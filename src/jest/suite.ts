/**
 * `timegroundedSuite(memory, options)` under Jest: the same plan, names and
 * records as under Vitest (`suite/probes.ts`), registered synchronously (Jest
 * refuses an async `describe`), one describe per episode with its probes as
 * plain tests in order. Jest runs describe blocks one after another, so the
 * episodes run in the suite core's scheduler, `concurrency` at once, started
 * in the suite's `beforeAll`; each test awaits its probe's rows, judges them,
 * appends its record to the test file's side file, and passes or throws.
 */
import { afterAll, beforeAll, describe, test } from '@jest/globals'
import { flushCassettes, type ModelCallCounts, modelCallCounts, modelCallsSince } from '../cassette/cassette.js'
import type { MemorySource } from '../adapters/source.js'
import { openPool } from '../harness/pool.js'
import type { StorePool } from '../harness/store-lease.js'
import { joinInterruptRelay } from '../interrupt.js'
import { checkIsolation } from '../harness/isolation-check.js'
import { type BaselineMatch, readBaselineMatch } from '../suite/baseline.js'
import { JEST_COMMANDS } from './commands.js'
import { type ResolvedSuiteOptions, resolveSuiteOptions, type TimegroundedSuiteOptions } from '../suite/options.js'
import {
  baselineCheckOf,
  checkedMemory,
  checkedReference,
  type PlannedProbe,
  ProbeFailure,
  planSuite,
  StoreCloseError,
  type SuitePlan,
  settleProbe,
  timeGroundedAgentOf,
} from '../suite/probes.js'
import { finishedRecord, isolationMessage, isolationOutcome, type ProbeRecord } from '../suite/records.js'
import { type ScheduledSuite, scheduleEpisodes } from '../suite/scheduler.js'
import { openReferencePool, withReferenceRows } from '../suite/reference.js'
import { loadSuiteSplitSync } from '../suite/split.js'
import type { Episode } from '../tivarq/schema.js'
import { appendSideLines, type SideLine } from './channel.js'
import { currentTestPath, jestContext, warnNoReporter } from './context.js'
import { currentBlock, selectionOf } from './circus.js'
import { timeGroundedTests } from './time-grounded.js'

/** Jest reads a timeout of 0 as its default (5 s), not as none: a probe's test waits for its episode's turn, and every store call is bounded on its own. */
const NO_TIMEOUT = 2 ** 31 - 1

/**
 * Register the TIVARQ probes as Jest tests against `memory`: a store, a
 * factory of stores (a fresh one per episode), or `commandAdapter([...])`.
 * Test names are `<suite> <episode id> <probe id> …`, so `-t` selects a probe
 * (`-t replacement-00-q3`), an episode (`-t replacement-00`) or a family
 * (`-t replacement`); only the selected probes' episodes run. Call it at the
 * top level of a test file (it registers tests synchronously).
 */
export function timegroundedSuite(memory: MemorySource, options: TimegroundedSuiteOptions = {}): void {
  const settings = resolveSuiteOptions(options)
  const checked = checkedMemory(memory)
  const reference = checkedReference(memory, settings.reference)
  if (settings.timeGrounded) {
    const grounded = timeGroundedAgentOf(memory, settings.timeGrounded)
    timeGroundedTests(grounded.agent, grounded.options)
  }
  const plan = planSuite(loadSuiteSplitSync(settings), settings)
  const { context, baselinePath, update, gated } = jestContext()
  const testPath = currentTestPath()
  const suite: JestSuite = {
    settings,
    plan,
    testPath,
    update,
    gated,
    baseline: readBaselineMatch(baselinePath, plan.identity, JEST_COMMANDS, baselineCheckOf(plan), update),
    record: (lines) => {
      if (context !== null) appendSideLines(context.runDir, lines)
    },
  }
  describe(plan.title, () => {
    const block = currentBlock()
    let pool: StorePool | undefined
    let scheduled: ScheduledSuite | undefined
    let referencePool: StorePool | null = null
    let referenceScheduled: ScheduledSuite | undefined
    let callsBefore: ModelCallCounts | undefined
    beforeAll(async () => {
      // The suite's own calls: the process's counters before its stores open, taken away at its end.
      callsBefore = modelCallCounts()
      if (!gated) warnNoReporter(plan.identity.name)
      const selected = selectionOf(block)
      // In a worker thread (`workerThreads: true`) no signal arrives: the stores close when the main thread says so.
      await joinInterruptRelay()
      pool = await openSuitePool(suite, selected, () =>
        openPool(checked, { track: settings.track, concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, name: settings.name }),
      )
      referencePool = await openSuitePool(suite, selected, () => openReferencePool(reference, settings))
      const schedule = (on: StorePool) =>
        scheduleEpisodes({
          pool: on,
          episodes: plan.episodes,
          selected,
          runner: {
            track: settings.track,
            updatePolls: settings.updatePolls,
            pollIntervalMs: settings.pollIntervalMs,
            isolationCheck: settings.isolationCheck,
          },
          concurrency: settings.concurrency,
          repeats: settings.repeats,
        })
      scheduled = schedule(pool)
      // The reference answers the same selected probes, on stores of its own, beside the suite's store.
      if (referencePool !== null) referenceScheduled = schedule(referencePool)
    }, settings.timeoutMs * 2)
    afterAll(() => closeSuite(suite, pool, scheduled, callsBefore, { pool: referencePool, scheduled: referenceScheduled }), NO_TIMEOUT)
    for (const { episode, probes } of plan.episodes) {
      describe(episode.episode_id, () => {
        for (const planned of probes)
          registerProbe(
            suite,
            episode,
            planned,
            () => scheduled,
            () => referenceScheduled,
          )
      })
    }
  })
}

/** What the tests of one suite share once it is registered. */
interface JestSuite {
  settings: ResolvedSuiteOptions
  plan: SuitePlan
  testPath: string
  update: boolean
  gated: boolean
  baseline: BaselineMatch
  /** Append lines to the test file's side file (nothing when no reporter runs). */
  record: (lines: SideLine[]) => void
}

/** Open the suite's stores (or its reference's); when they cannot start, every selected probe's record is kept, unanswered, with why. */
async function openSuitePool<T>(suite: JestSuite, selected: (name: string) => boolean, open: () => Promise<T>): Promise<T> {
  const { plan, testPath } = suite
  try {
    return await open()
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    suite.record([
      { testPath, suite: plan.identity.name, blockError: message },
      ...plan.episodes.flatMap(({ probes }) => probes.filter(({ name }) => selected(name)).map((probe) => ({ testPath, record: probe.record }))),
    ])
    throw error
  }
}

/** Wait for the episodes, close the stores, and record (then throw) every problem of the whole suite. */
async function closeSuite(
  suite: JestSuite,
  pool: StorePool | undefined,
  scheduled: ScheduledSuite | undefined,
  callsBefore: ModelCallCounts | undefined,
  reference: { pool: StorePool | null; scheduled: ScheduledSuite | undefined },
): Promise<void> {
  const closeFailures = [...((await scheduled?.done) ?? []), ...((await reference.scheduled?.done) ?? [])]
  // Every episode is over: the isolation check's calls come after all the measured ones.
  const check = pool !== undefined && suite.settings.isolationCheck ? await checkIsolation(pool) : null
  if (pool !== undefined) suite.record([{ testPath: suite.testPath, suite: suite.plan.identity.name, isolation: isolationOutcome(check) }])
  const problems = [...((await pool?.close()) ?? []), ...((await reference.pool?.close()) ?? [])]
  // A worker may be ended without its exit handlers running: the calls this suite recorded are written now.
  flushCassettes()
  // Counted after the isolation check and the close, whose model calls are the run's too.
  if (callsBefore !== undefined) suite.record([{ testPath: suite.testPath, suite: suite.plan.identity.name, modelCalls: modelCallsSince(callsBefore) }])
  const closeError = problems.length > 0 ? new StoreCloseError(problems) : null
  const messages = closeFailures.map((failure) => (failure instanceof Error ? failure.message : String(failure)))
  if (closeError !== null) messages.push(closeError.message)
  const carried = isolationMessage(check?.failures ?? [])
  if (carried !== null) messages.push(carried)
  if (messages.length === 0) return
  suite.record(messages.map((message) => ({ testPath: suite.testPath, suite: suite.plan.identity.name, blockError: message })))
  throw closeError ?? new Error(messages.join('\n'))
}

/** One probe's test: await its rows, judge them, append its record to the side file, and pass or throw. */
function registerProbe(
  suite: JestSuite,
  episode: Episode,
  planned: PlannedProbe,
  scheduledOf: () => ScheduledSuite | undefined,
  referenceOf: () => ScheduledSuite | undefined,
): void {
  const { probe, name, record: collected } = planned
  const { settings, baseline, update, gated, testPath } = suite
  test(
    name,
    async () => {
      const scheduled = scheduledOf()
      const rows = scheduled ? await scheduled.rows(probe.probe_id) : []
      if (rows.length === 0) throw new Error(`timegrounded: ${probe.probe_id} was not asked (its suite did not start); see the suite's error`)
      const settled = settleProbe(rows, episode, probe, baseline, update, settings.flaky, gated, collected.probeTotal)
      const referenceRows = await referenceOf()?.rows(probe.probe_id)
      suite.record([{ testPath, record: withReferenceRows(finishedRecord(collected as ProbeRecord, rows, settled), referenceRows) }])
      if (settled.decision === 'fail') throw new ProbeFailure(settled.message())
    },
    NO_TIMEOUT,
  )
}

export type { TimegroundedSuiteOptions } from '../suite/options.js'
