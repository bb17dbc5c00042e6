/**
 * `timegroundedSuite(memory, options)`: turns the TIVARQ probes into Vitest
 * tests, one test per probe, one concurrent group per episode with its probes
 * in order inside. Runs in the test worker; everything the reporter needs
 * travels in `task.meta` as plain JSON.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { createHash } from 'node:crypto'
import { z } from 'zod'
import { afterAll, beforeAll, describe, inject, test } from 'vitest'
import type { RunnerTestSuite } from 'vitest'
import { openPool, type CloseProblem, type StorePool } from '../harness/pool.js'
import type { MemorySource } from '../adapters/source.js'
import type { Track } from '../adapters/types.js'
import { loadSplit } from '../tivarq/dataset.js'
import { EpisodeRun, errorRowFor, orderProbes, type RunnerOptions } from '../harness/runner.js'
import { isCorrect } from '../tivarq/score.js'
import { FAMILIES, SPLITS, type Episode, type Family, type Probe, type Split } from '../tivarq/schema.js'
import type { PredictionRow } from '../tivarq/results.js'
import { TimegroundedError } from '../errors.js'
import { checkOptions, namedChoices, OptionError } from '../options.js'
import { TRACKS } from '../adapters/protocol.js'
import { isKnownFailure, matchBaseline, parseBaseline, type BaselineMatch, type SuiteIdentity } from './gate.js'
import { DEFAULT_BASELINE_FILE, decideProbe, outcomeOf, type Partition, type ProbeMeta, type WorkerContext } from './meta.js'
import { probeFailureMessage } from './messages.js'
import { TIME_GROUNDED_OPTION_SHAPE, type TimeGroundedSuiteOptions } from '../timegrounded/suite-support.js'
import { timeGroundedTests } from './timegrounded.js'
import type { TimeGroundedAgent } from '../timegrounded/agent.js'

/** Options of `timegroundedSuite`. Every one has a default. */
export interface TimegroundedSuiteOptions {
  /** Name of the suite in reports and in the baseline file (give each suite of a project its own). @default 'tivarq' */
  name?: string
  /** Split of TIVARQ v1 to run: `smoke` (60 probes), `dev` (240) or `test` (900). @default 'dev' */
  split?: Split
  /** `structured` (the store sees gold assertions) or `conversation` (text only). @default 'structured' */
  track?: Track
  /** Run only these families. @default all twelve */
  families?: Family[]
  /** Episodes run at once (a single store object is always 1; Vitest's `maxConcurrency`, default 5, also caps it). @default 4 */
  concurrency?: number
  /** Re-ask a wrong post-change answer up to this many times to measure update lag. @default 0 */
  updatePolls?: number
  /** Wait between those polls, in ms. @default 0 */
  pollIntervalMs?: number
  /** Time one store call may take before it counts as an error. @default 30000 */
  timeoutMs?: number
  /** Run only this 1-based slice of the episodes (`{ index: 2, count: 3 }`), to spread a suite over files that Vitest can shard. @default the whole suite */
  partition?: Partition
  /** A TIVARQ directory other than the bundled `fixtures/tivarq-v1`. @default the bundled dataset */
  datasetDir?: string
  /**
   * Also run the time-grounded probe (control vs probe, one test per question and run).
   * The agent is `agent`, else `memory` itself (one object may be both store and agent). @default off
   */
  timeGrounded?: TimeGroundedSuiteOptions & { agent?: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>) }
}

/** A suite option that cannot work; thrown while Vitest collects the file (code `SUITE_OPTION_INVALID`). */
export class SuiteOptionError extends OptionError {
  constructor(message: string) {
    super('SUITE_OPTION_INVALID', message)
  }
}

/** Stores or adapter processes of the suite that failed to close; thrown from the suite's afterAll, so Vitest reports it. */
class StoreCloseError extends TimegroundedError {
  constructor(problems: readonly CloseProblem[]) {
    const lines = problems.map(
      (problem) => `  closing \`${problem.store}\`${problem.episodeId === null ? '' : ` after episode ${problem.episodeId}`} failed: ${problem.message}`,
    )
    super(
      'STORE_CLOSE_FAILED',
      `${problems.length === 1 ? 'a store' : `${problems.length} stores`} failed to close (the probe results stand; fix the store's close()):\n${lines.join('\n')}`,
    )
    this.name = 'StoreCloseError'
    // The message is the whole story: no stack into the harness.
    this.stack = `${this.name}: ${this.message}`
  }
}

/** Defaults, resolved in one place. */
export const SUITE_DEFAULTS = {
  name: 'tivarq',
  split: 'dev',
  track: 'structured',
  concurrency: 4,
  updatePolls: 0,
  pollIntervalMs: 0,
  timeoutMs: 30_000,
} as const

type Optional = 'families' | 'partition' | 'datasetDir' | 'timeGrounded'
type ResolvedOptions = Required<Omit<TimegroundedSuiteOptions, Optional>> & Pick<TimegroundedSuiteOptions, Optional>

const wholeNumber = (minimum: number) => z.number(`a whole number ≥ ${minimum}`).int(`a whole number ≥ ${minimum}`).min(minimum, `a whole number ≥ ${minimum}`)
const SUITE_OPTION_SHAPE = {
  name: z.string('a suite name').min(1, 'a suite name').optional(),
  split: z.enum(SPLITS, { error: namedChoices('a split', SPLITS) }).optional(),
  track: z.enum(TRACKS as [Track, ...Track[]], { error: namedChoices('a track', TRACKS) }).optional(),
  families: z
    .array(z.enum(FAMILIES, { error: namedChoices('a family', FAMILIES) }), 'a list of families')
    .min(1, 'at least one family (leave it out for all twelve)')
    .optional(),
  concurrency: wholeNumber(1).optional(),
  updatePolls: wholeNumber(0).optional(),
  pollIntervalMs: z.number('a number of ms ≥ 0').min(0, 'a number of ms ≥ 0').finite('a number of ms ≥ 0').optional(),
  timeoutMs: z.number('a number of ms > 0').positive('a number of ms > 0').finite('a number of ms > 0').optional(),
  partition: z
    .strictObject({ index: wholeNumber(1), count: wholeNumber(1) }, { error: namedChoices('a field of `partition`', ['index', 'count']) })
    .refine((partition) => partition.index <= partition.count, 'use { index, count } with 1 ≤ index ≤ count, like --shard')
    .optional(),
  datasetDir: z.string('a TIVARQ directory').min(1, 'a TIVARQ directory').optional(),
  timeGrounded: z
    .strictObject(
      {
        ...TIME_GROUNDED_OPTION_SHAPE,
        agent: z
          .custom<unknown>((value) => typeof value === 'function' || (typeof value === 'object' && value !== null), 'an agent, or a function returning one')
          .optional(),
      },
      { error: namedChoices('an option of `timeGrounded`', [...Object.keys(TIME_GROUNDED_OPTION_SHAPE), 'agent']) },
    )
    .optional(),
}
const suiteOptionsSchema = z.strictObject(SUITE_OPTION_SHAPE, { error: namedChoices('an option of timegroundedSuite()', Object.keys(SUITE_OPTION_SHAPE)) })

/** Check every option (zod: unknown names with "did you mean", values out of range) and apply the defaults. */
function resolveOptions(options: TimegroundedSuiteOptions): ResolvedOptions {
  const checked = checkOptions(
    suiteOptionsSchema,
    options,
    'timegroundedSuite(memory, options)',
    (message) => new SuiteOptionError(message),
  ) as TimegroundedSuiteOptions
  return { ...SUITE_DEFAULTS, ...stripUndefined(checked) }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined)) as Partial<T>
}

/** The dataset hash a baseline is tied to: SHA-256 over the split's two file hashes. */
export function datasetHashOf(fileHashes: Record<string, string>): string {
  const lines = Object.keys(fileHashes)
    .sort()
    .map((name) => `${name} ${fileHashes[name]}\n`)
  return `sha256:${createHash('sha256').update(lines.join('')).digest('hex')}`
}

/** The episodes of one partition: every `count`-th episode in file order, starting at `index`. */
export function partitionEpisodes<T>(episodes: readonly T[], partition: Partition | undefined): T[] {
  if (!partition) return [...episodes]
  return episodes.filter((_, position) => position % partition.count === partition.index - 1)
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A probe that failed by policy: the message is the whole story, so no stack into the harness. */
class ProbeFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProbeFailure'
    this.stack = `${this.name}: ${message}`
  }
}

function workerContext(): WorkerContext {
  // Without the plugin or reporter nothing is provided: read the default baseline from the working directory.
  const provided = inject('timegrounded') as WorkerContext | undefined
  return provided ?? { baselinePath: resolve(process.cwd(), DEFAULT_BASELINE_FILE), update: false }
}

function readBaselineMatch(context: WorkerContext, identity: SuiteIdentity): BaselineMatch {
  if (context.baselinePath === null || !existsSync(context.baselinePath)) return { status: 'missing' }
  const file = parseBaseline(readFileSync(context.baselinePath, 'utf8'), context.baselinePath)
  return matchBaseline(file, identity, context.baselinePath)
}

/**
 * Register the TIVARQ probes as Vitest tests against `memory`: a store, a
 * factory of stores (a fresh one per episode), or `commandAdapter([...])`.
 * Test names are `<suite> › <episode id> › <probe id> …`, so `-t` selects a
 * probe (`-t replacement-00-q3`), an episode (`-t replacement-00`) or a family
 * (`-t replacement`).
 */
export function timegroundedSuite(memory: MemorySource, options: TimegroundedSuiteOptions = {}): void {
  const settings = resolveOptions(options)
  if (isAgentOnly(memory)) {
    throw new SuiteOptionError(`timegroundedSuite(memory): \`memory\` ${AGENT_NOT_STORE}`)
  }
  if (settings.timeGrounded) registerTimeGrounded(memory, settings.timeGrounded)
  const part = settings.partition ? ` part ${settings.partition.index}/${settings.partition.count}` : ''
  describe(`${settings.name} (${settings.split}, ${settings.track}${part})`, async () => {
    const loaded = await loadSplit(settings.datasetDir, settings.split)
    const selected = settings.families ? loaded.episodes.filter((episode) => settings.families!.includes(episode.family)) : loaded.episodes
    const identity: SuiteIdentity = {
      name: settings.name,
      datasetHash: datasetHashOf(loaded.fileHashes),
      split: settings.split,
      track: settings.track,
      families: settings.families ? [...settings.families].sort() : null,
    }
    const probesByEpisode = new Map<string, Probe[]>()
    for (const probe of loaded.probes) {
      const list = probesByEpisode.get(probe.episode_id) ?? []
      list.push(probe)
      probesByEpisode.set(probe.episode_id, list)
    }
    for (const [episodeId, probes] of probesByEpisode) probesByEpisode.set(episodeId, orderProbes(probes))
    // Canonical order over the whole suite (all partitions), so merged shards sort back exactly.
    const order = new Map<string, number>()
    for (const episode of selected) for (const probe of probesByEpisode.get(episode.episode_id) ?? []) order.set(probe.probe_id, order.size)
    const probeTotal = order.size

    const context = workerContext()
    const baseline = readBaselineMatch(context, identity)
    const runnerOptions: RunnerOptions = { track: settings.track, updatePolls: settings.updatePolls, pollIntervalMs: settings.pollIntervalMs }
    let pool: StorePool | undefined

    beforeAll(async () => {
      pool = await openPool(checkedFactory(memory), {
        track: settings.track,
        concurrency: settings.concurrency,
        timeoutMs: settings.timeoutMs,
        name: settings.name,
      })
    }, settings.timeoutMs * 2)
    afterAll(async () => {
      const problems = (await pool?.close()) ?? []
      // Recorded, never dropped: a failing afterAll is how Vitest reports a problem of the whole suite.
      if (problems.length > 0) throw new StoreCloseError(problems)
    }, settings.timeoutMs * 2)

    for (const episode of partitionEpisodes(selected, settings.partition)) {
      registerEpisode(episode, probesByEpisode.get(episode.episode_id) ?? [])
    }

    function registerEpisode(episode: Episode, probes: Probe[]): void {
      describe.concurrent(episode.episode_id, () => {
        let opened: Promise<EpisodeRun | Error> | undefined
        // The pool leases at most `concurrency` stores (one for a single store object), so an episode may wait
        // here as long as other episodes run: no timeout on this hook (each store call has its own).
        // Vitest parses the first parameter as a fixture pattern: it must be a (here empty) destructuring.
        // biome-ignore lint/correctness/noEmptyPattern: Vitest reads this parameter as the (empty) list of fixtures the hook uses.
        beforeAll(async ({}, suite: RunnerTestSuite) => {
          if (suite.tasks.every((task) => task.mode === 'skip' || task.mode === 'todo')) return
          opened = EpisodeRun.open(pool!, episode, runnerOptions).catch(
            (error: unknown) => new Error(`open episode ${episode.episode_id}: ${messageOf(error)}`),
          )
          await opened
        }, 0)
        afterAll(async () => {
          const run = await opened
          if (run instanceof EpisodeRun) await run.close()
        }, settings.timeoutMs * 2)

        for (const probe of probes) {
          const meta: ProbeMeta = {
            kind: 'tivarq-probe',
            suite: identity,
            partition: settings.partition ?? null,
            probeTotal,
            order: order.get(probe.probe_id)!,
            probeId: probe.probe_id,
          }
          const calls = probe.after_event_index + 3 + settings.updatePolls
          const timeout = settings.timeoutMs * calls + settings.updatePolls * settings.pollIntervalMs + 1_000
          test.sequential(`${probe.probe_id} [${probe.role} ${probe.phase}] ${probe.slot}/${probe.scope}`, { meta: { timegrounded: meta }, timeout }, async ({
            task,
            skip,
            annotate,
          }) => {
            const run = await opened
            let row: PredictionRow
            if (run === undefined) row = errorRowFor(probe, episode.family, 'the episode was never opened (the suite failed before it)')
            else if (run instanceof Error) row = errorRowFor(probe, episode.family, run.message)
            else row = await run.answer(probe).catch((error: unknown) => errorRowFor(probe, episode.family, `harness: ${messageOf(error)}`))

            const outcome = outcomeOf(row, isCorrect(row))
            const knownFailure = isKnownFailure(baseline, probe.probe_id)
            const decision = decideProbe(outcome, knownFailure, context.update)
            const recorded = task.meta.timegrounded as ProbeMeta
            Object.assign(recorded, { row: JSON.parse(JSON.stringify(row)) as PredictionRow, outcome, decision })

            const message = () => probeFailureMessage(row, { probe, events: episode.events })
            switch (decision) {
              case 'pass':
                return
              case 'skip':
                skip(message())
                return
              case 'known_failure':
                await annotate(
                  `${knownFailure ? 'known failure (failing in the baseline too)' : 'recorded as a known failure in the new baseline'}: ${message()}`,
                  'timegrounded',
                )
                return
              case 'fail':
                throw new ProbeFailure(message())
            }
          })
        }
      })
    }
  })
}

/** An object that answers like an agent but cannot take events like a store (a common mix-up). */
function isAgentOnly(memory: unknown): boolean {
  if (typeof memory !== 'object' || memory === null) return false
  const candidate = memory as { answer?: unknown; ingest?: unknown }
  return typeof candidate.answer === 'function' && typeof candidate.ingest !== 'function'
}

const AGENT_NOT_STORE =
  'is a time-grounded agent (it has answer() but no ingest()), not a memory store. To run only the time-grounded probe, call `timeGroundedTests(agent)` from timegrounded/vitest; to run TIVARQ too, pass a store and `timeGrounded: { agent }`.'

/** A factory whose product is checked: an agent handed over as a store fails once, saying what to call instead. */
function checkedFactory(memory: MemorySource): MemorySource {
  if (typeof memory !== 'function') return memory
  const factory = memory
  const checked = async () => {
    const store = await factory()
    if (isAgentOnly(store)) throw new SuiteOptionError(`timegroundedSuite(memory): the object the factory returned ${AGENT_NOT_STORE}`)
    return store
  }
  // Keep the factory's name: the pool shows it in messages.
  Object.defineProperty(checked, 'name', { value: factory.name })
  return checked
}

/**
 * The time-grounded probe's cases as tests: control first, then
 * probe, then the optional ceiling, in order. Each test's meta is the case's
 * plain-JSON record; the reporter folds them into the probe-vs-control summary.
 */
function registerTimeGrounded(memory: MemorySource, options: NonNullable<TimegroundedSuiteOptions['timeGrounded']>): void {
  const { agent, ...planOptions } = options
  const subject = agent ?? (memory as unknown as TimeGroundedAgent | (() => TimeGroundedAgent))
  if (typeof subject !== 'function' && typeof (subject as Partial<TimeGroundedAgent>).answer !== 'function') {
    throw new SuiteOptionError(
      'timegroundedSuite: `timeGrounded` needs an agent with `answer(prompt, context)`: pass `timeGrounded.agent`, or a memory object that is also an agent',
    )
  }
  timeGroundedTests(subject, planOptions)
}
