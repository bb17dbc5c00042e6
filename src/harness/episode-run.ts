/**
 * One episode against one leased store (spec section 3): ingest up to each probe's index, ask it, and
 * turn the answer or fault into its row, with update-lag polling and, for a store that answers in
 * order, the queries of one index sent at once. Its own file: the state of one episode (position,
 * failure, the probe it learnt) is this class's alone; `runSplit` only schedules episodes.
 */
import { monotonicMs } from '../adapters/clock.js'
import { setTimeout as sleep } from 'node:timers/promises'
import { AdapterFault, toFault } from '../adapters/errors.js'
import type { LeasedStore, StoreLease, StorePool } from './store-lease.js'
import type { StoreAnswer, Track } from '../adapters/types.js'
import { storeEvent, storeQuery } from '../adapters/views.js'
import { sameAnswer } from '../tivarq/gold.js'
import type { AnsweredRow, Prediction, PredictionBase, PredictionRow, UnsupportedRow, UpdateLag } from '../tivarq/results.js'
import type { Episode, Probe } from '../tivarq/schema.js'
import { queueIsolationCheck } from './isolation-check.js'
import { errorRow, roundMs, rowBaseFor, rowOf, updateLag } from './row-builders.js'
import { checkOptions, RunnerError, type RunnerOptions } from './runner-options.js'
import { Spending } from './spending.js'

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
      queueIsolationCheck(pool, entry)
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
