/**
 * The episode runner (spec section 3). For each episode: lease a store reset
 * for it, then for idx = 0..len(events) ingest events[idx-1] and ask every
 * probe whose after_event_index is idx, in (after_event_index, probe_id)
 * order. Adapter faults become `error` rows; nothing an adapter does makes the
 * runner throw or hang.
 */
import { monotonicMs } from '../adapters/clock.js'
import { setTimeout as sleep } from 'node:timers/promises'
import { AdapterFault, PoolClosedError, toFault } from '../adapters/errors.js'
import { TimegroundedError } from '../errors.js'
import type { LeasedStore, StoreLease, StorePool } from './pool.js'
import type { StoreAnswer, Track } from '../adapters/types.js'
import { storeEvent, storeQuery } from '../adapters/views.js'
import { sameAnswer } from '../tivarq/gold.js'
import type { AnsweredRow, ErrorRow, Prediction, PredictionBase, PredictionRow, UnsupportedRow, UpdateLag } from '../tivarq/results.js'
import type { Episode, Probe } from '../tivarq/schema.js'

/** Defaults of the runner's options, in one place (the CLI's `run` and the suites show and use them). */
export const RUNNER_DEFAULTS = { repetition: 0, updatePolls: 0, pollIntervalMs: 0, concurrency: 1, isolationCheck: true } as const

/** How the runner asks a split's probes. */
export interface RunnerOptions {
  /** Which track: `structured` shows assertions, slots and scopes; `conversation` only text and questions. */
  track: Track
  /** 0-based repetition index written into every row, as upstream numbers them. @default 0 */
  repetition?: number
  /** Re-asks of a wrong post-change target probe, to measure update lag. @default 0 */
  updatePolls?: number
  /** Wait before each re-ask, in ms. @default 0 */
  pollIntervalMs?: number
  /**
   * The isolation check: once the measured episodes are done, reset the store that served each episode
   * and ask it again the last probe it answered right there (a reset store answers unknown; see
   * `IsolationFailure` and `checkIsolation`). Its calls come after every measured one, so the measured
   * episodes see upstream's exact call sequence either way; `false` saves its calls (one reset and one
   * query per episode) for a store that is paid per call, and catches no leak. @default true
   */
  isolationCheck?: boolean
}

/** The codes of `RunnerError`, each with what it means. */
export interface RunnerErrorCodes {
  /** A probe was asked before one with a lower `after_event_index`. */
  PROBE_OUT_OF_ORDER: 'RunnerError'
  /** A probe was asked of an episode it does not belong to. */
  PROBE_NOT_IN_EPISODE: 'RunnerError'
  /** A probe's `after_event_index` lies beyond its episode's events. */
  PROBE_INDEX_OUT_OF_RANGE: 'RunnerError'
  /** A runner option (track, repetition, polls, concurrency) cannot work. */
  RUNNER_OPTION_INVALID: 'RunnerError'
}

/** Misuse of the runner (not an adapter fault): probes out of order, or not of this episode. */
export class RunnerError extends TimegroundedError<keyof RunnerErrorCodes> {
  constructor(code: RunnerError['code'], message: string) {
    super(code, message)
  }
}

/** The order probes are asked in: by (after_event_index, probe_id), as upstream. Returns a new array. */
export function orderProbes(probes: readonly Probe[]): Probe[] {
  return [...probes].sort((a, b) => a.after_event_index - b.after_event_index || (a.probe_id < b.probe_id ? -1 : a.probe_id > b.probe_id ? 1 : 0))
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000
}

function checkOptions(options: RunnerOptions): Required<RunnerOptions> {
  const repetition = options.repetition ?? RUNNER_DEFAULTS.repetition
  const updatePolls = options.updatePolls ?? RUNNER_DEFAULTS.updatePolls
  const pollIntervalMs = options.pollIntervalMs ?? RUNNER_DEFAULTS.pollIntervalMs
  if (!Number.isInteger(repetition) || repetition < 0)
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`repetition\` must be a whole number ≥ 0 (0 for the first); got ${repetition}`)
  if (!Number.isInteger(updatePolls) || updatePolls < 0)
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`updatePolls\` must be a whole number ≥ 0; got ${updatePolls}`)
  if (!(Number.isFinite(pollIntervalMs) && pollIntervalMs >= 0))
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`pollIntervalMs\` must be ≥ 0; got ${pollIntervalMs}`)
  if (options.track !== 'structured' && options.track !== 'conversation') {
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`track\` must be structured or conversation; got ${JSON.stringify(options.track)}`)
  }
  return { track: options.track, repetition, updatePolls, pollIntervalMs, isolationCheck: options.isolationCheck ?? RUNNER_DEFAULTS.isolationCheck }
}

/**
 * A store that keeps state across episodes: reset after `episodeId`, it still answered one of that
 * episode's probes with the value it had learnt there. Recorded beside the rows, never in them:
 * TIVARQ's figures stay upstream's.
 */
export interface IsolationFailure {
  episodeId: string
  /** 0-based, as in the rows. */
  repetition: number
  /** The probe of the episode asked again, and what it asked. */
  probeId: string
  slot: string
  scope: string
  asOf: string
  /** What the store answered (a reset store answers `unknown`). */
  answer: { state: string; value: unknown }
}

/** `state carried over from episode X: …`: the failure in words, with the fix. */
export function describeIsolationFailure(failure: IsolationFailure): string {
  const repetition = failure.repetition > 0 ? ` (repetition ${failure.repetition + 1})` : ''
  return `state carried over from episode ${failure.episodeId}${repetition}: slot ${failure.slot}/${failure.scope} — reset after the episode, the store still answered ${failure.probeId} (as of ${failure.asOf}) with ${JSON.stringify(failure.answer.value)}, learnt in it; a reset store answers unknown, and the next episode would start with this state. Make reset() clear everything, and keep no state at module level (a factory's stores must not share it)`
}

/** One check the isolation check will make: the store that served `episode`, and what it learnt there. */
interface PendingCheck {
  store: LeasedStore
  episode: Episode
  learnt: Probe
  repetition: number
  track: Track
}

/** What the isolation check found and spent (see `checkIsolation`). */
export interface IsolationCheck {
  /** The reset stores that still answered what an earlier episode taught them, in the order the episodes closed. */
  failures: IsolationFailure[]
  /** Episodes checked: each one reset and one query. */
  asked: number
  /** Checks that could not be made (the store failed to start, reset or answer): they count as no failure. */
  unanswered: number
  /** Tokens and cost the store reported for the check's answers: spent by the run, though in no row. */
  usage: { promptTokens?: number; completionTokens?: number }
  costUsd?: number
}

/** The checks waiting for the measured episodes of a pool to end, by pool, in the order the episodes closed. */
const pendingChecks = new WeakMap<StorePool, PendingCheck[]>()

/**
 * The isolation check of every episode run on `pool` (with `isolationCheck` on) since the last call:
 * for each, lease again the store that served it (`acquire`'s `again`: the same object or process; a
 * fresh one from a factory, which shows state kept at module level), which resets it, and ask the last
 * probe the episode answered right. A reset store answers unknown. Call it once the measured episodes
 * are over (`runSplit` does, at its end), so that no measured call comes after a check's. Never throws
 * for adapter faults; a fatal one discards the store, as in an episode.
 */
export async function checkIsolation(pool: StorePool): Promise<IsolationCheck> {
  const pending = pendingChecks.get(pool) ?? []
  pendingChecks.delete(pool)
  const check: IsolationCheck = { failures: [], asked: 0, unanswered: 0, usage: {} }
  for (const [at, entry] of pending.entries()) {
    check.asked++
    const answer = await askAgain(pool, entry)
    if (answer === 'closed') {
      // Closed under the check (an interrupt): the rest cannot be asked.
      check.unanswered += pending.length - at
      check.asked = pending.length
      break
    }
    if (answer === null) {
      check.unanswered++
      continue
    }
    addSpending(check, answer)
    if (answer.state === 'known' && sameAnswer(answer, entry.learnt.expected)) check.failures.push(isolationFailure(entry, answer))
  }
  return check
}

/** Reset the store that served the entry's episode and ask its learnt probe again; null when that failed, `closed` when the pool is. */
async function askAgain(pool: StorePool, entry: PendingCheck): Promise<StoreAnswer | null | 'closed'> {
  const context = { episodeId: entry.episode.episode_id, seed: entry.episode.seed }
  let lease: StoreLease
  try {
    lease = await pool.acquire(context, { again: entry.store })
  } catch (error) {
    if (error instanceof AdapterFault) return null
    if (error instanceof PoolClosedError) return 'closed'
    throw error
  }
  try {
    const answer = await lease.store.query(storeQuery(entry.learnt, entry.track))
    await lease.release()
    return answer
  } catch (error) {
    await lease.release({ broken: toFault(error, 'the isolation check').fatal })
    return null
  }
}

function addSpending(check: IsolationCheck, answer: StoreAnswer): void {
  const { promptTokens, completionTokens } = answer.usage ?? {}
  if (promptTokens !== undefined) check.usage.promptTokens = (check.usage.promptTokens ?? 0) + promptTokens
  if (completionTokens !== undefined) check.usage.completionTokens = (check.usage.completionTokens ?? 0) + completionTokens
  if (answer.costUsd !== undefined) check.costUsd = (check.costUsd ?? 0) + answer.costUsd
}

function isolationFailure(entry: PendingCheck, answer: StoreAnswer): IsolationFailure {
  const { episode, learnt } = entry
  return {
    episodeId: episode.episode_id,
    repetition: entry.repetition,
    probeId: learnt.probe_id,
    slot: learnt.slot,
    scope: learnt.scope,
    asOf: learnt.as_of,
    answer: { state: answer.state, value: answer.value },
  }
}

/**
 * The isolation check's spending in words (`isolation check: 60 episodes asked again …`), or, when
 * `check` is null, that the check was off and by which switch (`offBy`): what a summary says beside
 * the rows' own figures.
 */
export function describeIsolationCheck(check: IsolationCheck | null, offBy: string): string {
  if (check === null) return `isolation check off (${offBy}): a store that keeps state across episodes is not caught`
  const spent: string[] = []
  if (check.usage.promptTokens !== undefined || check.usage.completionTokens !== undefined)
    spent.push(`${check.usage.promptTokens ?? 0} prompt + ${check.usage.completionTokens ?? 0} completion tokens`)
  if (check.costUsd !== undefined) spent.push(`cost ${Math.round(check.costUsd * 1e8) / 1e8} USD`)
  const unanswered = check.unanswered > 0 ? `, ${check.unanswered} unanswered` : ''
  const reported = spent.length > 0 ? `; the store reported ${spent.join(', ')} for them, in no row` : ''
  return `isolation check: ${check.asked} ${check.asked === 1 ? 'episode' : 'episodes'} asked again after the measured ones (a reset and a query each${unanswered})${reported}`
}

/** One episode against one leased store; probes are answered in order. Open with `EpisodeRun.open`. */
export class EpisodeRun {
  /** Every later probe of the episode becomes an error with this message (ingest failed, reset failed, process lost). */
  private failure: string | null
  /** The failure is a fatal fault that lost the store's memory: later probes are abandoned, not asked. */
  private abandoned = false
  private ingested = 0
  private position = 0
  private readonly capabilities: { clock: boolean; history: boolean }
  /** The last probe of this episode the store answered with the right known value: what its reset must forget. */
  private learnt: Probe | null = null
  /** An in-process store keeps its memory after a failed call; an adapter process that failed is killed, and its memory with it. */
  private inProcess = false

  private constructor(
    private readonly episode: Episode,
    private readonly options: Required<RunnerOptions>,
    private lease: StoreLease | null,
    capabilities: { clock: boolean; history: boolean },
    failure: string | null,
    private readonly pool: StorePool | null,
  ) {
    this.capabilities = capabilities
    this.failure = failure
  }

  /** Lease a store reset for `episode`. A store that cannot be started or reset makes every probe an error row. */
  static async open(pool: StorePool, episode: Episode, options: RunnerOptions): Promise<EpisodeRun> {
    const checked = checkOptions(options)
    const info = pool.info()
    const { clock, history } = info.capabilities
    let run: EpisodeRun
    try {
      const lease = await pool.acquire({ episodeId: episode.episode_id, seed: episode.seed })
      run = new EpisodeRun(episode, checked, lease, { clock, history }, null, pool)
    } catch (error) {
      if (!(error instanceof AdapterFault)) throw error
      run = new EpisodeRun(episode, checked, null, { clock, history }, `reset: ${error.message}`, null)
    }
    run.inProcess = info.command === null
    return run
  }

  /** Why the rest of the episode is abandoned after a fatal fault, worded by the kind of store. */
  private abandonment(where: string, stage: string, fault: AdapterFault): string {
    if (this.inProcess)
      return `abandoned: the store failed ${where} (${stage}: ${fault.message}); the call was given up and may still be running, so the rest of the episode is not asked`
    return `abandoned: the adapter failed ${where} and lost the episode's memory (${stage}: ${fault.message})`
  }

  /** Ingest up to the probe's index, then ask it. Never throws for adapter faults; throws `RunnerError` on misuse. */
  async answer(probe: Probe): Promise<PredictionRow> {
    const base = this.begin(probe)
    const skipped = this.notAsked(probe, base)
    if (skipped !== null) return skipped
    await this.ingestUpTo(probe.after_event_index)
    if (this.failure !== null) return errorRow(base, this.failure, null)
    return this.rowFor(probe, base, await this.ask(probe))
  }

  /**
   * Answer `probes` (in `orderProbes` order) one after another, handing each row to `take` as soon as
   * it is known (a callback, not an async generator: a generator's yields cost several promise turns
   * per row, where a row costs one; `take` may throw, which stops the episode there): the same rows, from
   * the same requests in the same order, as `answer()` on each in turn. When the store answers in
   * order (an adapter process) and no answer decides what is sent next, the queries of the probes asked
   * at one after_event_index are sent at once rather than each after the last reply: that is, when
   * the store declares no clock (else an advance_clock, which may fail, comes before each query) and
   * update polling is off (else a wrong answer is asked again). Throws `RunnerError` on misuse, after
   * handing over the rows of the probes before the one at fault, as `answer()` would.
   */
  async answerEach(probes: readonly Probe[], take: (row: PredictionRow) => void): Promise<void> {
    for (let first = 0; first < probes.length; ) {
      let end = first + 1
      while (end < probes.length && probes[end]!.after_event_index === probes[first]!.after_event_index) end++
      const group = probes.slice(first, end)
      if (this.canAskTogether(group)) await this.answerTogether(group, take)
      else for (const probe of group) take(await this.answer(probe))
      first = end
    }
  }

  /** Whether `group` (probes of one after_event_index) may have its queries sent at once: see `answerEach`. */
  private canAskTogether(group: readonly Probe[]): boolean {
    if (this.failure !== null || this.lease?.store.answersInOrder !== true) return false
    if (this.capabilities.clock || this.options.updatePolls > 0) return false
    // A probe at fault is left to answer(), which throws at it after the rows before it.
    if (group.some((probe) => this.probeProblem(probe) !== null)) return false
    return group.filter((probe) => this.supports(probe)).length > 1
  }

  /** The rows of `group`, its queries sent at once (see `answerEach`); each timed from when the store could start on it. */
  private async answerTogether(group: readonly Probe[], take: (row: PredictionRow) => void): Promise<void> {
    const bases = group.map((probe) => this.begin(probe))
    await this.ingestUpTo(group[0]!.after_event_index)
    const store = this.lease?.store
    const sent = group.map((probe, at) => (store && this.notAsked(probe, bases[at]!) === null ? sendQuery(store, probe, this.options.track) : null))
    let lastReply = Number.NEGATIVE_INFINITY
    for (let at = 0; at < group.length; at++) {
      const probe = group[at]!
      const base = bases[at]!
      // Once a probe is not asked it stays so (the failure and the lost lease never clear): unsent queries come here.
      const skipped = this.notAsked(probe, base)
      if (skipped !== null) {
        take(skipped)
        continue
      }
      const reply = await sent[at]!
      // The store works on one query at a time: this one from its sending or from the reply before it.
      const latencyMs = reply.at - Math.max(reply.sentAt, lastReply)
      lastReply = reply.at
      const asked: Asked =
        'answer' in reply
          ? { status: 'answered', answer: reply.answer, latencyMs }
          : { status: 'fault', stage: 'query', fault: reply.fault, latencyMs: roundMs(latencyMs) }
      const row = this.rowFor(probe, base, asked)
      take(row instanceof Promise ? await row : row)
    }
  }

  /** Check a probe about to be answered, move the episode to its index, and start its row. */
  private begin(probe: Probe): PredictionBase {
    const problem = this.probeProblem(probe)
    if (problem !== null) throw problem
    this.position = probe.after_event_index
    return rowBaseFor(probe, this.episode.family, this.options.repetition)
  }

  private supports(probe: Probe): boolean {
    return probe.capability === 'basic' || this.capabilities[probe.capability]
  }

  /** The row of a probe that is not asked: unsupported, or the episode failed or closed. Null when it is to be asked. */
  private notAsked(probe: Probe, base: PredictionBase): PredictionRow | null {
    if (!this.supports(probe)) return rowOf(base, { status: 'unsupported' }) satisfies UnsupportedRow
    if (this.failure !== null)
      return this.abandoned ? Object.assign(errorRow(base, this.failure, null), { abandoned: true as const }) : errorRow(base, this.failure, null)
    if (!this.lease) return errorRow(base, 'the episode is closed', null)
    return null
  }

  /** Ingest the events before `index` not yet ingested; a failure stops ingesting (spec: every later probe is an error). */
  private async ingestUpTo(index: number): Promise<void> {
    const lease = this.lease!
    while (this.ingested < index) {
      const event = this.episode.events[this.ingested]!
      try {
        await lease.store.ingest(storeEvent(event, this.options.track))
      } catch (error) {
        const fault = toFault(error, 'store.ingest')
        this.failure = `ingest: ${fault.message}`
        if (fault.fatal) await this.releaseBroken()
        return
      }
      this.ingested++
    }
  }

  /**
   * The row of an asked probe, from its answer (then update polling) or its fault (a fatal one abandons
   * the episode). A row that needs no further call (no re-ask, no release) comes as it is, not as a
   * promise: most rows, each spared the turns of awaiting one.
   */
  private rowFor(probe: Probe, base: PredictionBase, asked: Asked): PredictionRow | Promise<PredictionRow> {
    if (asked.status === 'fault') {
      const { stage, fault, latencyMs } = asked
      if (!fault.fatal) return errorRow(base, `${stage}: ${fault.message}`, latencyMs)
      this.failure = this.abandonment(`at probe ${probe.probe_id}`, stage, fault)
      this.abandoned = true
      return this.releaseBroken().then(() => errorRow(base, `${stage}: ${fault.message}`, latencyMs))
    }

    const { answer, latencyMs } = asked
    // Quality is judged on the first answer; re-asks only add lag and spending.
    const spent = new Spending()
    spent.add(answer)
    // Update lag applies to post-change target rows only; other rows carry no lag fields at all.
    if (probe.role !== 'target' || probe.phase !== 'post') return this.answeredRow(probe, base, answer, latencyMs, spent, {})
    const correct = sameAnswer(answer, probe.expected)
    // Nothing to re-ask: the lag is the first latency, and the row needs no promise.
    if (!this.mayReask(correct, 0)) return this.answeredRow(probe, base, answer, latencyMs, spent, updateLag(latencyMs, 0, correct))
    return this.pollForUpdate(probe, correct, latencyMs, spent).then((lag) => this.answeredRow(probe, base, answer, latencyMs, spent, lag))
  }

  /** The row of an answered probe: its first answer, what every answer spent, and its update lag when it has one (else `{}`). */
  private answeredRow(probe: Probe, base: PredictionBase, answer: StoreAnswer, latencyMs: number, spent: Spending, lag: UpdateLag | object): AnsweredRow {
    if (probe.expected.state === 'known' && sameAnswer(answer, probe.expected)) this.learnt = probe
    const prediction: Prediction = { state: answer.state, value: answer.value }
    if (answer.rawAnswer !== undefined) prediction.raw_answer = answer.rawAnswer
    spent.record(prediction)
    return Object.assign(rowOf(base, { status: 'answered' as const, prediction, latency_ms: roundMs(latencyMs) }), lag) satisfies AnsweredRow
  }

  /**
   * Release the store (idempotent). Unless the pool's stores are isolated by construction, the
   * episode's isolation check is queued, for `checkIsolation` once the measured episodes are over.
   */
  async close(): Promise<void> {
    const lease = this.lease
    this.lease = null
    if (this.failure === null) this.failure = 'the episode is closed'
    if (lease === null) return
    const pool = this.pool
    const checkable = pool !== null && pool.isolatedByConstruction !== true && lease.store.resets !== false
    if (this.options.isolationCheck && this.learnt !== null && checkable) {
      const entry = { store: lease.store, episode: this.episode, learnt: this.learnt, repetition: this.options.repetition, track: this.options.track }
      const pending = pendingChecks.get(pool)
      if (pending === undefined) pendingChecks.set(pool, [entry])
      else pending.push(entry)
    }
    await lease.release()
  }

  /** advance_clock (when declared) then query; latency covers the query only. */
  private async ask(probe: Probe): Promise<Asked> {
    const store = this.lease!.store
    if (this.capabilities.clock) {
      try {
        await store.advanceClock(probe.as_of)
      } catch (error) {
        return { status: 'fault', stage: 'advance_clock', fault: toFault(error, 'store.advanceClock'), latencyMs: null }
      }
    }
    const started = monotonicMs()
    try {
      const answer = await store.query(storeQuery(probe, this.options.track))
      return { status: 'answered', answer, latencyMs: monotonicMs() - started }
    } catch (error) {
      return { status: 'fault', stage: 'query', fault: toFault(error, 'store.query'), latencyMs: roundMs(monotonicMs() - started) }
    }
  }

  /**
   * Update lag: re-ask a wrong post-change answer up to `updatePolls` times.
   * The lag is the first latency plus every wait and later latency. When the
   * answer is still wrong at the end (or a re-ask failed) the row is censored,
   * and the lag is the time elapsed so far (spec section 3: it is recorded
   * either way; the scorer leaves censored lags out of the observed figures).
   */
  private async pollForUpdate(probe: Probe, firstCorrect: boolean, firstLatencyMs: number, spent: Spending): Promise<UpdateLag> {
    let lag = firstLatencyMs
    let polls = 0
    let correct = firstCorrect
    while (this.mayReask(correct, polls)) {
      const waitStarted = monotonicMs()
      if (this.options.pollIntervalMs > 0) await sleep(this.options.pollIntervalMs)
      lag += monotonicMs() - waitStarted
      polls++
      const asked = await this.ask(probe)
      if (asked.status === 'fault') {
        if (asked.fault.fatal) {
          this.failure = this.abandonment(`while polling probe ${probe.probe_id}`, asked.stage, asked.fault)
          this.abandoned = true
          await this.releaseBroken()
        }
        break
      }
      lag += asked.latencyMs
      spent.add(asked.answer)
      correct = sameAnswer(asked.answer, probe.expected)
    }
    return updateLag(lag, polls, correct)
  }

  /** Whether a post-change answer, right or wrong as `correct` says, is asked again after `polls` re-asks. */
  private mayReask(correct: boolean, polls: number): boolean {
    return !correct && polls < this.options.updatePolls && this.lease !== null
  }

  private async releaseBroken(): Promise<void> {
    const lease = this.lease
    this.lease = null
    await lease?.release({ broken: true })
  }

  /** What is wrong with asking `probe` now (not of this episode, beyond its events, out of order), or null. */
  private probeProblem(probe: Probe): RunnerError | null {
    const id = this.episode.episode_id
    if (probe.episode_id !== id) return new RunnerError('PROBE_NOT_IN_EPISODE', `probe ${probe.probe_id} belongs to episode ${probe.episode_id}, not ${id}`)
    if (probe.after_event_index > this.episode.events.length) {
      return new RunnerError(
        'PROBE_INDEX_OUT_OF_RANGE',
        `probe ${probe.probe_id}: after_event_index ${probe.after_event_index} exceeds the ${this.episode.events.length} events of episode ${id}`,
      )
    }
    if (probe.after_event_index < this.position) {
      return new RunnerError(
        'PROBE_OUT_OF_ORDER',
        `probe ${probe.probe_id} (after_event_index ${probe.after_event_index}) was asked after a probe at index ${this.position}; ask probes in orderProbes() order`,
      )
    }
    return null
  }
}

/** A probe asked: its answer, or the fault of the call that failed (`latencyMs` null when no query was timed). */
type Asked = { status: 'answered'; answer: StoreAnswer; latencyMs: number } | { status: 'fault'; stage: string; fault: AdapterFault; latencyMs: number | null }

/** A query sent without waiting for the ones before it, settled with when it was sent and when its reply came. */
type SentQuery = { answer: StoreAnswer; sentAt: number; at: number } | { fault: AdapterFault; sentAt: number; at: number }

function sendQuery(store: LeasedStore, probe: Probe, track: Track): Promise<SentQuery> {
  const sentAt = monotonicMs()
  return store.query(storeQuery(probe, track)).then(
    (answer) => ({ answer, sentAt, at: monotonicMs() }),
    (error: unknown) => ({ fault: toFault(error, 'store.query'), sentAt, at: monotonicMs() }),
  )
}

/** The fields every row of `probe` shares, in upstream's order (gold copied, so a row never aliases the dataset); the baseline check rebuilds rows from them. */
export function rowBaseFor(probe: Probe, family: string, repetition: number): PredictionBase {
  return {
    probe_id: probe.probe_id,
    episode_id: probe.episode_id,
    expected: { state: probe.expected.state, value: Array.isArray(probe.expected.value) ? [...probe.expected.value] : probe.expected.value },
    role: probe.role,
    transition_id: probe.transition_id,
    phase: probe.phase,
    capability: probe.capability,
    old_value: Array.isArray(probe.old_value) ? [...probe.old_value] : probe.old_value,
    family,
    repetition,
  }
}

/**
 * A row: `base`'s fields, then `rest`'s, in that order, in a fresh object. Object.assign, not a spread:
 * run once per row, before V8 has optimised it, `{ ...base }` costs ten times as much.
 */
function rowOf<Rest extends object>(base: PredictionBase, rest: Rest): PredictionBase & Rest {
  return Object.assign({}, base, rest)
}

/** A row's update-lag fields: the lag in ms, the re-asks made, and whether the answer was still wrong at the end. */
function updateLag(lagMs: number, polls: number, correct: boolean): UpdateLag {
  return { update_lag_ms: roundMs(lagMs), update_lag_polls: polls, update_lag_censored: !correct }
}

/** An error row; `latency_ms` only when the failing query was timed. */
function errorRow(base: PredictionBase, error: string, latencyMs: number | null): ErrorRow {
  return latencyMs === null ? rowOf(base, { status: 'error' as const, error }) : rowOf(base, { status: 'error' as const, latency_ms: latencyMs, error })
}

/** The `error` row of a probe that could not be answered, built as the runner builds its own. @default repetition 0 */
export function errorRowFor(probe: Probe, family: string, message: string, repetition = 0): ErrorRow {
  return errorRow(rowBaseFor(probe, family, repetition), message, null)
}

/**
 * Tokens and cost the adapter reported for one probe, summed over the first
 * answer and every update-lag re-ask: they were all spent, so a report that
 * left re-asks out would understate what a run cost. A field is recorded only
 * when some answer reported it.
 */
class Spending {
  private prompt: number | undefined
  private completion: number | undefined
  private cost: number | undefined

  add(answer: StoreAnswer): void {
    if (answer.usage) {
      if (answer.usage.promptTokens !== undefined) this.prompt = (this.prompt ?? 0) + answer.usage.promptTokens
      if (answer.usage.completionTokens !== undefined) this.completion = (this.completion ?? 0) + answer.usage.completionTokens
    }
    if (answer.costUsd !== undefined) this.cost = (this.cost ?? 0) + answer.costUsd
  }

  /** Into the prediction, where upstream keeps what the adapter reported. */
  record(prediction: Prediction): void {
    if (this.prompt !== undefined || this.completion !== undefined) {
      prediction.usage = {}
      if (this.prompt !== undefined) prediction.usage.prompt_tokens = this.prompt
      if (this.completion !== undefined) prediction.usage.completion_tokens = this.completion
    }
    if (this.cost !== undefined) prediction.cost_usd = this.cost
  }
}

/** What `runSplit` runs: a split's episodes and probes against a pool. */
export interface RunSplitInput {
  /** Episodes in file order. */
  episodes: Episode[]
  /** Probes of those episodes, in any order. */
  probes: Probe[]
  /** Where stores are leased from (see `openPool`). */
  pool: StorePool
  /** Track, repetition and update-lag polling. */
  options: RunnerOptions
  /** Episodes in flight at once (each holds one lease). @default 1 */
  concurrency?: number
  /** Called with each row as soon as it is known (in completion order under concurrency). */
  onRow?: (row: PredictionRow) => void
  /** Called when a reset store still knew what an earlier episode taught it (see `IsolationFailure`). */
  onIsolation?: (failure: IsolationFailure) => void
  /** Called once the isolation check ran at the end (not when it is off or deferred), with what it found and spent. */
  onIsolationCheck?: (check: IsolationCheck) => void
  /**
   * Leave the isolation check's queued questions to the caller's own `checkIsolation(pool)`, after
   * further runs on the same pool (the CLI's repetitions), so that none of its calls comes between
   * measured ones. @default false: checked at the end of this run
   */
  deferIsolationCheck?: boolean
}

/**
 * Run every probe of a split. Rows come back in canonical order (episode file
 * order, then `orderProbes`) whatever the concurrency, so a concurrent run
 * gives the same rows (latency aside) as a sequential one. The isolation
 * check runs once every episode is done (see `checkIsolation`).
 */
export async function runSplit(input: RunSplitInput): Promise<PredictionRow[]> {
  const { episodes, pool, options, onRow, onIsolation } = input
  const concurrency = input.concurrency ?? RUNNER_DEFAULTS.concurrency
  if (!(Number.isInteger(concurrency) && concurrency >= 1))
    throw new RunnerError('RUNNER_OPTION_INVALID', `\`concurrency\` must be a whole number ≥ 1; got ${concurrency}`)
  checkOptions(options)
  const byEpisode = new Map<string, Probe[]>(episodes.map((episode) => [episode.episode_id, []]))
  for (const probe of input.probes) {
    const list = byEpisode.get(probe.episode_id)
    if (!list)
      throw new RunnerError(
        'PROBE_NOT_IN_EPISODE',
        `probe ${probe.probe_id} names episode ${probe.episode_id}, which is not among the ${episodes.length} episodes given`,
      )
    list.push(probe)
  }

  const results: PredictionRow[][] = episodes.map(() => [])
  let next = 0
  let stopped: unknown = null
  const worker = async (): Promise<void> => {
    while (stopped === null && next < episodes.length) {
      const index = next++
      const episode = episodes[index]!
      const probes = orderProbes(byEpisode.get(episode.episode_id) ?? [])
      if (probes.length === 0) continue
      let run: EpisodeRun
      try {
        run = await EpisodeRun.open(pool, episode, options)
      } catch (error) {
        // Not an adapter fault (those become rows): a closed pool or a bug. Stop taking episodes.
        stopped ??= error
        return
      }
      try {
        const rows = results[index]!
        await run.answerEach(probes, (row) => {
          rows.push(row)
          onRow?.(row)
        })
      } catch (error) {
        stopped ??= error
      } finally {
        await run.close()
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, episodes.length)) }, worker))
  if (stopped !== null) {
    // A run cut short is not judged on isolation: a later run on the pool must not ask its episodes.
    if (input.deferIsolationCheck !== true) pendingChecks.delete(pool)
    throw stopped
  }
  if (input.deferIsolationCheck !== true) {
    // After every measured call: the episodes saw upstream's call sequence, whatever the check asks.
    const check = await checkIsolation(pool)
    for (const failure of check.failures) onIsolation?.(failure)
    if (options.isolationCheck !== false) input.onIsolationCheck?.(check)
  }
  return results.flat()
}
