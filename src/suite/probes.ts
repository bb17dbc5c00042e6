/**
 * A TIVARQ suite as tests, for any test runner: the plan of one test per
 * probe (names, order, the record each test starts with), the memory checks
 * done before anything runs, and the step each test takes (answer the probe,
 * judge it by the baseline, word a failure). The Vitest shell
 * (`vitest/suite.ts`) registers the plan as `describe`/`test` blocks.
 */
import { resolve } from 'node:path'
import type { MemorySource } from '../adapters/source.js'
import { TimegroundedError } from '../errors.js'
import type { CloseProblem } from '../harness/store-lease.js'
import { EpisodeRun } from '../harness/episode-run.js'
import { errorRowFor, rowBaseFor } from '../harness/row-builders.js'
import { orderProbes } from '../harness/runner-options.js'
import type { LoadedSplit } from '../tivarq/dataset.js'
import type { PredictionRow } from '../tivarq/results.js'
import { isCorrect } from '../tivarq/row-verdicts.js'
import type { TimeGroundedAgent } from '../time-grounded/agent.js'
import type { TimeGroundedTestsOptions } from '../time-grounded/probe-options.js'
import type { Episode, Probe } from '../tivarq/schema.js'
import { describeVariant } from '../tivarq/variant.js'
import { type BaselineMatch, datasetHashOf, type EntryCheck, type SuiteIdentity } from './baseline.js'
import { entryProblem } from './baseline-evidence.js'
import { probeFailureMessage } from './messages.js'
import { baselineRight, renderEvidence } from './probe-evidence.js'
import { type ResolvedSuiteOptions, SuiteOptionError } from './options.js'
import { type ReferenceOption, referenceRecordOf } from './reference.js'
import { type FlakyPolicy, judgeProbe, type Partition, type ProbeDecision, type ProbeRecord, type ProbeVerdict } from './records.js'

/** One probe's test, as planned. */
export interface PlannedProbe {
  probe: Probe
  /** `replacement-00-q3 [target post] notification_channel/personal`: `-t` selects a probe, an episode or a family by it. */
  name: string
  /** The record the test starts with (its rows and verdict are added once it ran). */
  record: ProbeRecord
  /**
   * The longest the test may take: every store call it may make, each bounded by `timeoutMs`, plus
   * the poll waits. 0 (no limit) with repeats: its test waits for every repetition of its episode,
   * which may wait for a store other episodes hold; each store call is still bounded.
   */
  timeoutMs: number
}

/** One episode's tests, its probes in the order they are asked. */
export interface PlannedEpisode {
  episode: Episode
  probes: PlannedProbe[]
}

/** A suite's tests: what identifies it (for the baseline), how many probes it has over all partitions, this partition's episodes. */
export interface SuitePlan {
  /** `tivarq (dev, structured)`, or `tivarq (dev, structured part 2/3)` for a partition. */
  title: string
  identity: SuiteIdentity
  probeTotal: number
  episodes: PlannedEpisode[]
}

/**
 * How a worker checks the baseline entry it reads against its plan's gold:
 * each probe's recorded outcome against its recorded answers, and with the
 * whole suite in one file (no partition) every figure of the entry.
 */
export function baselineCheckOf(plan: SuitePlan): EntryCheck {
  const bases = plan.episodes.flatMap(({ episode, probes }) => probes.map(({ probe }) => rowBaseFor(probe, episode.family, 0)))
  return (entry) => entryProblem(entry, bases, bases.length === plan.probeTotal)
}

/** The episodes of one partition: every `count`-th episode in file order, starting at `index`. */
export function partitionEpisodes<T>(episodes: readonly T[], partition: Partition | undefined): T[] {
  if (!partition) return [...episodes]
  return episodes.filter((_, position) => position % partition.count === partition.index - 1)
}

/** The title of a suite's outer block. */
export function suiteTitle(settings: Pick<ResolvedSuiteOptions, 'name' | 'split' | 'track' | 'partition' | 'variant'>): string {
  const part = settings.partition ? ` part ${settings.partition.index}/${settings.partition.count}` : ''
  const variant = settings.variant === undefined ? '' : `, variant ${settings.variant}`
  return `${settings.name} (${settings.split}, ${settings.track}${variant}${part})`
}

/** Plan the tests of a loaded split under `settings`. */
export function planSuite(loaded: LoadedSplit, settings: ResolvedSuiteOptions): SuitePlan {
  const families = settings.families
  const selected = families ? loaded.episodes.filter((episode) => families.includes(episode.family)) : loaded.episodes
  const identity: SuiteIdentity = {
    name: settings.name,
    datasetHash: datasetHashOf(loaded.fileHashes),
    data: loaded.variant === null ? 'TIVARQ v1' : describeVariant(loaded.variant),
    split: settings.split,
    track: settings.track,
    families: families ? [...families].sort() : null,
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
  const episodes = partitionEpisodes(selected, settings.partition).map((episode) => ({
    episode,
    probes: (probesByEpisode.get(episode.episode_id) ?? []).map((probe) => ({
      probe,
      name: `${probe.probe_id} [${probe.role} ${probe.phase}] ${probe.slot}/${probe.scope}`,
      record: {
        kind: 'tivarq-probe',
        suite: identity,
        partition: settings.partition ?? null,
        probeTotal,
        ...(settings.datasetDir === undefined ? {} : { datasetDir: resolve(settings.datasetDir) }),
        ...(settings.variant === undefined ? {} : { variant: settings.variant }),
        order: order.get(probe.probe_id) as number,
        probeId: probe.probe_id,
        repeats: settings.repeats,
        ...referenceRecordOf(settings.reference),
      } satisfies ProbeRecord,
      timeoutMs:
        settings.repeats > 1
          ? 0
          : settings.timeoutMs * (probe.after_event_index + 3 + settings.updatePolls) + settings.updatePolls * settings.pollIntervalMs + 1_000,
    })),
  }))
  return { title: suiteTitle(settings), identity, probeTotal, episodes }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Open an episode on the pool. Never rejects: an episode that cannot be
 * opened becomes the error each of its probes records.
 */
export function openEpisode(open: () => Promise<EpisodeRun>, episode: Episode): Promise<EpisodeRun | Error> {
  return open().catch((error: unknown) => new Error(`open episode ${episode.episode_id}: ${messageOf(error)}`))
}

/** Ask one probe of an opened episode (or record why it could not be asked). Never rejects. @default repetition 0 */
export async function answerProbe(opened: EpisodeRun | Error | undefined, episode: Episode, probe: Probe, repetition = 0): Promise<PredictionRow> {
  if (opened === undefined) return errorRowFor(probe, episode.family, 'the episode was never opened (the suite failed before it)', repetition)
  if (opened instanceof Error) return errorRowFor(probe, episode.family, opened.message, repetition)
  return opened.answer(probe).catch((error: unknown) => errorRowFor(probe, episode.family, `harness: ${messageOf(error)}`, repetition))
}

/**
 * Ask `probes` of an opened episode in order, handing each row to `take` as it comes: through
 * `EpisodeRun.answerEach`, so an adapter process gets the queries of one index together. Never
 * rejects: a probe the runner refuses records why (as `answerProbe` does) and the rest are asked one
 * by one. @default repetition 0
 */
export async function answerProbes(
  opened: EpisodeRun | Error,
  episode: Episode,
  probes: readonly Probe[],
  take: (row: PredictionRow, probe: Probe) => void,
  repetition = 0,
): Promise<void> {
  let done = 0
  if (opened instanceof EpisodeRun) {
    try {
      await opened.answerEach(probes, (row) => take(row, probes[done++]!))
    } catch (error) {
      const refused = probes[done++]!
      take(errorRowFor(refused, episode.family, `harness: ${messageOf(error)}`, repetition), refused)
    }
  }
  for (const probe of probes.slice(done)) take(await answerProbe(opened, episode, probe, repetition), probe)
}

/** The error a probe's test throws when the policy fails it: the message is the whole story, so no stack into the harness. */
export class ProbeFailure extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ProbeFailure'
    this.stack = `${this.name}: ${message}`
  }
}

/** A probe's verdict and the sentence a test shows for it. */
export interface SettledProbe extends ProbeVerdict {
  /** What was expected, what came back and what it means; for a known failure, prefixed with why it does not fail. */
  message(): string
}

/**
 * Judge a probe's rows (one per repetition) against the baseline, in this run's update mode; strictly when no
 * gate runs (`gated` false: see `strictDecision`), and then a failure the gate would have let through says why.
 * `probes` is how many the suite has (the per-probe rule under repeats corrects for them).
 * @default flaky 'report', gated true, probes 1
 */
export function settleProbe(
  rows: readonly PredictionRow[],
  episode: Episode,
  probe: Probe,
  baseline: BaselineMatch,
  update: boolean,
  flaky: FlakyPolicy = 'report',
  gated = true,
  probes = 1,
): SettledProbe {
  const verdict = judgeProbe(rows, baseline, update, flaky, gated, probes)
  const lenient = gated ? verdict.decision : judgeProbe(rows, baseline, update, flaky, true, probes).decision
  const failure = () => repeatedFailure(rows, verdict, (row) => probeFailureMessage(row, { probe, events: episode.events }))
  return {
    ...verdict,
    message: () => {
      if (lenient !== verdict.decision) return `${failure()} ${strictNote(lenient, verdict.knownFailure)}`
      if (verdict.decision === 'suspect') {
        const before = baselineRight(baseline, probe.probe_id)
        return `suspect, not failing CI on its own (${renderEvidence(verdict.evidence!)}${before === null ? '' : `; right in ${before} repetitions of the baseline`}): ${failure()}`
      }
      if (verdict.decision !== 'known_failure') return failure()
      return `${verdict.knownFailure ? 'known failure (failing in the baseline too)' : 'recorded as a known failure in the new baseline'}: ${failure()}`
    },
  }
}

/** Why a probe the gate would have let through fails when no gate runs. */
function strictNote(lenient: ProbeDecision, knownFailure: boolean): string {
  const what =
    lenient === 'skip'
      ? 'an unsupported probe fails instead of being skipped'
      : lenient === 'flaky'
        ? 'a flaky probe fails'
        : knownFailure
          ? "the baseline's known failure fails"
          : 'a wrong answer fails (nothing is recorded)'
  return `(Strict: no timegrounded gate runs in this run, so ${what}; the timegrounded note of this test file says how to add the gate.)`
}

/** The failure sentence of a probe's rows: one row's, and with repeats how often it happened and in which repetition the one shown. */
function repeatedFailure(rows: readonly PredictionRow[], verdict: ProbeVerdict, sentence: (row: PredictionRow) => string): string {
  const total = rows.length
  const shown = rows.find((row) => row.status === 'error') ?? rows.find((row) => row.status === 'answered' && !isCorrect(row)) ?? rows[0]!
  if (total === 1) return sentence(shown)
  const where = `repetition ${shown.repetition + 1} of ${total}`
  switch (verdict.result) {
    case 'error':
      return `failed in ${rows.filter((row) => row.status === 'error').length} of ${total} repetitions; ${where}: ${sentence(shown)}`
    case 'flaky':
      return `flaky: right in ${rows.filter(isCorrect).length} of ${total} repetitions; wrong in ${where}: ${sentence(shown)}`
    case 'wrong':
      if (verdict.evidence !== undefined && verdict.decision === 'fail')
        return `wrong in all ${total} repetitions, beyond chance (${renderEvidence(verdict.evidence)}); ${where}: ${sentence(shown)}`
      return `wrong in all ${total} repetitions; ${where}: ${sentence(shown)}`
    default:
      return sentence(shown)
  }
}

// ─── Every repetition of one episode ────────────────────────────────────────

/** An episode being asked in every repetition: each probe's rows as they complete. */
export interface AskedEpisode {
  /** Resolves once the first repetition holds a store (or could not get one): until then the episode waits its turn. */
  started: Promise<void>
  /** A selected probe's row in every repetition, in order. Never rejects. */
  rows(probeId: string): Promise<PredictionRow[]>
  /** Resolves once every repetition ran and closed; rejects with the first failure to close (every row is in by then). */
  done: Promise<void>
}

/**
 * Ask `probes` (in order, those the runner selected) in each of `repeats`
 * repetitions of `episode`: repetition r opens the episode on a fresh store
 * (`open(r)`: a factory's new instance, a store object or adapter process
 * reset), asks every probe, and closes it before repetition r + 1 starts, so
 * an episode holds at most one store at a time and repetitions never see
 * each other's memory.
 */
export function askEpisode(open: (repetition: number) => Promise<EpisodeRun>, episode: Episode, probes: readonly Probe[], repeats: number): AskedEpisode {
  const pending = new Map<string, { rows: PredictionRow[]; resolve: (rows: PredictionRow[]) => void; promise: Promise<PredictionRow[]> }>()
  for (const probe of probes) {
    let resolve!: (rows: PredictionRow[]) => void
    const promise = new Promise<PredictionRow[]>((settle) => (resolve = settle))
    pending.set(probe.probe_id, { rows: [], resolve, promise })
  }
  let markStarted!: () => void
  const started = new Promise<void>((settle) => (markStarted = settle))
  const done = (async () => {
    let closeFailure: unknown = null
    for (let repetition = 0; repetition < repeats; repetition++) {
      const opened = await openEpisode(() => open(repetition), episode)
      markStarted()
      await answerProbes(
        opened,
        episode,
        probes,
        (row, probe) => {
          const entry = pending.get(probe.probe_id)!
          entry.rows.push(row)
          if (entry.rows.length === repeats) entry.resolve(entry.rows)
        },
        repetition,
      )
      // A store that fails to close still leaves every row recorded; the failure is reported once all repetitions ran.
      if (opened instanceof EpisodeRun) await opened.close().catch((error: unknown) => (closeFailure ??= error))
    }
    if (closeFailure !== null) throw closeFailure
  })()
  return {
    started,
    done,
    rows: (probeId) => pending.get(probeId)?.promise ?? Promise.resolve([]),
  }
}

// ─── What is handed over as the memory ──────────────────────────────────────

/** An object that answers like an agent but cannot take events like a store (a common mix-up). */
export function isAgentOnly(memory: unknown): boolean {
  if (typeof memory !== 'object' || memory === null) return false
  const candidate = memory as { answer?: unknown; ingest?: unknown }
  return typeof candidate.answer === 'function' && typeof candidate.ingest !== 'function'
}

const AGENT_NOT_STORE =
  'is a time-grounded agent (it has answer() but no ingest()), not a memory store. To run only the time-grounded probe, call `timeGroundedTests(agent)`; to run TIVARQ too, pass a store and `timeGrounded: { agent }`.'

/**
 * The memory a suite runs, checked: an agent handed over as a store is
 * refused at once (or, from a factory, at its first store), saying what to
 * call instead. Throws `SuiteOptionError`.
 */
export function checkedMemory(memory: MemorySource): MemorySource {
  if (isAgentOnly(memory)) throw new SuiteOptionError(`timegroundedSuite(memory): \`memory\` ${AGENT_NOT_STORE}`)
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
 * The suite's reference store, checked as its memory is (`checkedMemory`), or undefined without one.
 * The very object the suite runs is refused: the two would share one store's state. Throws `SuiteOptionError`.
 */
export function checkedReference(memory: MemorySource, reference: ReferenceOption | undefined): ReferenceOption | undefined {
  if (reference === undefined) return undefined
  if (reference.store === memory)
    throw new SuiteOptionError(
      `timegroundedSuite(memory, options): \`reference.store\` is the suite's own \`memory\`; give the reference a store of its own (another object, or a factory), so that the two never share state`,
    )
  return { ...reference, store: checkedMemory(reference.store) }
}

/** The codes of `StoreCloseError`, each with what it means. */
export interface StoreCloseErrorCodes {
  /** Stores or adapter processes of a suite failed to close (the results stand). */
  STORE_CLOSE_FAILED: 'StoreCloseError'
}

/** Stores or adapter processes of a suite that failed to close; the runner reports it as an error of the whole suite. */
export class StoreCloseError extends TimegroundedError<keyof StoreCloseErrorCodes> {
  constructor(problems: readonly CloseProblem[]) {
    const lines = problems.map(
      (problem) => `  closing \`${problem.store}\`${problem.episodeId === null ? '' : ` after episode ${problem.episodeId}`} failed: ${problem.message}`,
    )
    super(
      'STORE_CLOSE_FAILED',
      `${problems.length === 1 ? 'a store' : `${problems.length} stores`} failed to close (the probe results stand; fix the store's close()):\n${lines.join('\n')}`,
    )
    // The message is the whole story: no stack into the harness.
    this.stack = `${this.name}: ${this.message}`
  }
}

/** A suite's `timeGrounded` agent: `agent`, else the memory itself (one object may be both). Throws `SuiteOptionError` when neither answers. */
export function timeGroundedAgentOf(
  memory: MemorySource,
  options: NonNullable<ResolvedSuiteOptions['timeGrounded']>,
): { agent: TimeGroundedAgent | (() => TimeGroundedAgent | Promise<TimeGroundedAgent>); options: TimeGroundedTestsOptions } {
  const { agent, ...rest } = options
  const subject = agent ?? (memory as unknown as TimeGroundedAgent | (() => TimeGroundedAgent))
  if (typeof subject !== 'function' && typeof (subject as Partial<TimeGroundedAgent>).answer !== 'function') {
    throw new SuiteOptionError(
      'timegroundedSuite: `timeGrounded` needs an agent with `answer(prompt, context)`: pass `timeGrounded.agent`, or a memory object that is also an agent',
    )
  }
  return { agent: subject, options: rest }
}
