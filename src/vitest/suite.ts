/**
 * `timegroundedSuite(memory, options)` under Vitest: the suite core's plan
 * (`suite/probes.ts`) as tests, one test per probe, one concurrent group per
 * episode with its probes in order inside. Runs in the test worker; each
 * test's record travels to the reporter in `task.meta` as plain JSON.
 */
import type { RunnerTestFile, RunnerTestSuite } from 'vitest'
import { afterAll, beforeAll, describe, inject, test } from 'vitest'
import { flushCassettes, type ModelCallCounts, modelCallCounts, modelCallsSince } from '../cassette/cassette.js'
import type { MemorySource } from '../adapters/source.js'
import { openPool } from '../harness/pool.js'
import type { StorePool } from '../harness/store-lease.js'
import { joinInterruptRelay } from '../interrupt.js'
import { EpisodeRun } from '../harness/episode-run.js'
import { checkIsolation } from '../harness/isolation-check.js'
import type { RunnerOptions } from '../harness/runner-options.js'
import { type BaselineMatch, readBaselineMatch } from '../suite/baseline.js'
import { VITEST_COMMANDS } from './commands.js'
import { type ResolvedSuiteOptions, resolveSuiteOptions, type TimegroundedSuiteOptions } from '../suite/options.js'
import {
  type AskedEpisode,
  answerProbe,
  askEpisode,
  checkedMemory,
  checkedReference,
  type PlannedEpisode,
  type PlannedProbe,
  baselineCheckOf,
  planSuite,
  ProbeFailure,
  StoreCloseError,
  settleProbe,
  suiteTitle,
  timeGroundedAgentOf,
} from '../suite/probes.js'
import { finishedRecord, ISOLATION_KEY, isolationMessage, isolationOutcome, CHANNEL_KEY, type WorkerContext } from '../suite/records.js'
import { MODEL_CALLS_KEY } from '../suite/model-calls.js'
import { type GateAbsence, ungatedNotice } from '../suite/ungated.js'
import { openReferencePool, withReferenceRows } from '../suite/reference.js'
import { logPerf, perfNow } from '../suite/perf-log.js'
import { loadSuiteSplit } from '../suite/split.js'
import type { Episode } from '../tivarq/schema.js'
import { metaCarrying, putRecord } from './context.js'
import { timeGroundedTests } from './time-grounded.js'

/** Why no gate runs and the fix, in Vitest's words (the suite core words the rest). */
const NO_GATE: GateAbsence = {
  why: 'no timegrounded reporter in this Vitest run (the `timegrounded()` plugin is not in the config that runs this file, or an editor ran it with reporters of its own)',
  fix: "add `plugins: [timegrounded()]` to the config that runs this file; in `test.projects`, an inline project inherits the root config's plugins only with `extends: true`: `projects: [{ extends: true, test: { name: 'memory', include: [...] } }]`",
}

/** What the reporter provided, and whether a gate will judge this run (only the reporter provides a context). */
function workerContext(): WorkerContext & { gated: boolean } {
  const provided = inject(CHANNEL_KEY) as WorkerContext | undefined
  if (provided !== undefined) return { ...provided, gated: true }
  // No reporter: nothing gates the run, so probes are judged strictly, and a strict verdict reads no baseline.
  return { baselinePath: null, update: false, gated: false }
}

/** What every episode and probe of one suite share once the suite is collected. */
interface CollectedSuite {
  settings: ResolvedSuiteOptions
  context: WorkerContext & { gated: boolean }
  baseline: BaselineMatch
  runnerOptions: RunnerOptions
  pool: () => StorePool
  /** The reference store's pool, when the suite has a `reference`: it answers the same probes. */
  referencePool: () => StorePool | null
}

/**
 * Register the TIVARQ probes as Vitest tests against `memory`: a store, a
 * factory of stores (a fresh one per episode), or `commandAdapter([...])`.
 * Test names are `<suite> › <episode id> › <probe id> …`, so `-t` selects a
 * probe (`-t replacement-00-q3`), an episode (`-t replacement-00`) or a family
 * (`-t replacement`).
 */
export function timegroundedSuite(memory: MemorySource, options: TimegroundedSuiteOptions = {}): void {
  const settings = resolveSuiteOptions(options)
  const checked = checkedMemory(memory)
  const reference = checkedReference(memory, settings.reference)
  if (settings.timeGrounded) {
    const grounded = timeGroundedAgentOf(memory, settings.timeGrounded)
    timeGroundedTests(grounded.agent, grounded.options)
  }
  describe(suiteTitle(settings), async () => {
    const planningStarted = perfNow()
    const plan = planSuite(await loadSuiteSplit(settings), settings)
    logPerf('suite planning', planningStarted)
    const context = workerContext()
    // Said at collection, once per test file (each file runs in its own worker), on Vitest's stderr for the file.
    if (!context.gated) console.warn(ungatedNotice(settings.name, NO_GATE))
    const baseline = readBaselineMatch(context.baselinePath, plan.identity, VITEST_COMMANDS, baselineCheckOf(plan), context.update)
    const runnerOptions: RunnerOptions = {
      track: settings.track,
      updatePolls: settings.updatePolls,
      pollIntervalMs: settings.pollIntervalMs,
      isolationCheck: settings.isolationCheck,
    }
    let pool: StorePool | undefined
    let referencePool: StorePool | null = null
    let callsBefore: ModelCallCounts | undefined
    beforeAll(async () => {
      // The suite's own calls: the process's counters before its stores open, taken away at its end.
      callsBefore = modelCallCounts()
      // In a worker thread (`pool: 'threads'`) no signal arrives: the stores close when the main thread says so.
      await joinInterruptRelay()
      pool = await openPool(checked, { track: settings.track, concurrency: settings.concurrency, timeoutMs: settings.timeoutMs, name: settings.name })
      referencePool = await openReferencePool(reference, settings)
    }, settings.timeoutMs * 2)
    // biome-ignore lint/correctness/noEmptyPattern: Vitest reads this parameter as the (empty) list of fixtures the hook uses.
    afterAll(({}, block: Readonly<RunnerTestSuite | RunnerTestFile>) => closePool(pool, block, settings.isolationCheck, callsBefore, referencePool), 0)
    const suite: CollectedSuite = { settings, context, baseline, runnerOptions, pool: () => pool!, referencePool: () => referencePool }
    for (const planned of plan.episodes) registerEpisode(suite, planned)
  })
}

/**
 * Once every episode is over: the isolation check (its outcome in the suite's `meta`, for the
 * reporter), then close the suite's stores. A problem of the whole suite is thrown from afterAll,
 * which is how Vitest reports one. No timeout on the hook: the check makes one store call per
 * episode, each with its own.
 */
async function closePool(
  pool: StorePool | undefined,
  block: Readonly<RunnerTestSuite | RunnerTestFile>,
  isolationCheck: boolean,
  callsBefore: ModelCallCounts | undefined,
  referencePool: StorePool | null,
): Promise<void> {
  const check = pool !== undefined && isolationCheck ? await checkIsolation(pool) : null
  if (pool !== undefined) block.meta[ISOLATION_KEY as keyof typeof block.meta] = isolationOutcome(check) as never
  const problems = [...((await pool?.close()) ?? []), ...((await referencePool?.close()) ?? [])]
  // A worker may be ended without its exit handlers running: the calls this suite recorded are written now.
  flushCassettes()
  // Counted after the isolation check and the close, whose model calls are the run's too.
  if (callsBefore !== undefined) block.meta[MODEL_CALLS_KEY as keyof typeof block.meta] = modelCallsSince(callsBefore) as never
  if (problems.length > 0) throw new StoreCloseError(problems)
  const carried = isolationMessage(check?.failures ?? [])
  if (carried !== null) throw new ProbeFailure(carried)
}

/** One concurrent group per episode: its selected probes asked in every repetition, then one test per probe in order. */
function registerEpisode(suite: CollectedSuite, { episode, probes }: PlannedEpisode): void {
  const { settings, runnerOptions } = suite
  describe.concurrent(episode.episode_id, () => {
    let asked: AskedEpisode | undefined
    let referenceAsked: AskedEpisode | undefined
    // The pool leases at most `concurrency` stores (one for a single store object), so an episode may wait
    // here as long as other episodes run: no timeout on this hook (each store call has its own).
    // Vitest parses the first parameter as a fixture pattern: it must be a (here empty) destructuring.
    // biome-ignore lint/correctness/noEmptyPattern: Vitest reads this parameter as the (empty) list of fixtures the hook uses.
    beforeAll(async ({}, group: RunnerTestSuite) => {
      // Only the probes the run selected (`-t`) are asked, in every repetition.
      const selected = new Set(group.tasks.filter((task) => task.mode !== 'skip' && task.mode !== 'todo').map((task) => task.name))
      if (selected.size === 0) return
      const chosen = probes.filter(({ name }) => selected.has(name)).map(({ probe }) => probe)
      const askOn = (pool: StorePool) =>
        askEpisode((repetition) => EpisodeRun.open(pool, episode, { ...runnerOptions, repetition }), episode, chosen, settings.repeats)
      asked = askOn(suite.pool())
      const referencePool = suite.referencePool()
      // The reference answers the same probes, on stores of its own, beside the suite's store.
      if (referencePool !== null) referenceAsked = askOn(referencePool)
      await Promise.all([asked.started, referenceAsked?.started])
    }, 0)
    // By now every selected probe has its rows: what is left is closing the last repetition's store.
    afterAll(async () => {
      await Promise.all([asked?.done, referenceAsked?.done])
    }, settings.timeoutMs * 2)
    for (const planned of probes)
      registerProbe(
        suite,
        episode,
        planned,
        () => asked,
        () => referenceAsked,
      )
  })
}

/** One probe's test: judge its rows, record them in `task.meta` for the reporter, and pass, skip, annotate or fail. */
function registerProbe(
  suite: CollectedSuite,
  episode: Episode,
  planned: PlannedProbe,
  askedOf: () => AskedEpisode | undefined,
  referenceOf: () => AskedEpisode | undefined,
): void {
  const { probe, name, record, timeoutMs } = planned
  const { settings, context, baseline } = suite
  // `concurrent: false`, not `test.sequential`: Vitest 5 removed `sequential`, and both majors keep such a test in order inside its concurrent episode.
  test(name, { meta: metaCarrying(record), timeout: timeoutMs, concurrent: false }, async ({ task, skip, annotate }) => {
    const asked = askedOf()
    const rows = asked ? await asked.rows(probe.probe_id) : [await answerProbe(undefined, episode, probe)]
    const settled = settleProbe(rows, episode, probe, baseline, context.update, settings.flaky, context.gated, record.probeTotal)
    putRecord(task.meta, withReferenceRows(finishedRecord(record, rows, settled), await referenceOf()?.rows(probe.probe_id)))
    switch (settled.decision) {
      case 'pass':
        return
      case 'skip':
        skip(settled.message())
        return
      case 'known_failure':
      case 'flaky':
      case 'suspect':
        await annotate(settled.message(), 'timegrounded')
        return
      case 'fail':
        throw new ProbeFailure(settled.message())
    }
  })
}

export type { TimegroundedSuiteOptions } from '../suite/options.js'
