/**
 * The episode runner (spec section 3). For each episode: lease a store reset
 * for it, then for idx = 0..len(events) ingest events[idx-1] and ask every
 * probe whose after_event_index is idx, in (after_event_index, probe_id)
 * order. Adapter faults become `error` rows; nothing an adapter does makes the
 * runner throw or hang.
 */
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { AdapterFault, toFault } from '../adapters/errors.js'
import { type CodeOf, TimegroundedError } from '../errors.js'
import type { StoreLease, StorePool } from './pool.js'
import type { StoreAnswer, Track } from '../adapters/types.js'
import { storeEvent, storeQuery } from '../adapters/views.js'
import { sameAnswer } from '../tivarq/gold.js'
import type { AnsweredRow, ErrorRow, Prediction, PredictionBase, PredictionRow, UnsupportedRow, UpdateLag } from '../tivarq/results.js'
import type { Episode, Probe } from '../tivarq/schema.js'

/** Defaults of the runner's options, in one place (the CLI's `run` and the suites show and use them). */
export const RUNNER_DEFAULTS = { repetition: 0, updatePolls: 0, pollIntervalMs: 0, concurrency: 1 } as const

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
}

/** Misuse of the runner (not an adapter fault): probes out of order, or not of this episode. */
export class RunnerError extends TimegroundedError<CodeOf<'RunnerError'>> {
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
  return { track: options.track, repetition, updatePolls, pollIntervalMs }
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
  /** An in-process store keeps its memory after a failed call; an adapter process that failed is killed, and its memory with it. */
  private inProcess = false

  private constructor(
    private readonly episode: Episode,
    private readonly options: Required<RunnerOptions>,
    private lease: StoreLease | null,
    capabilities: { clock: boolean; history: boolean },
    failure: string | null,
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
      run = new EpisodeRun(episode, checked, lease, { clock, history }, null)
    } catch (error) {
      if (!(error instanceof AdapterFault)) throw error
      run = new EpisodeRun(episode, checked, null, { clock, history }, `reset: ${error.message}`)
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
    this.checkProbe(probe)
    this.position = probe.after_event_index
    const base = rowBaseFor(probe, this.episode.family, this.options.repetition)
    if (probe.capability !== 'basic' && !this.capabilities[probe.capability]) {
      return { ...base, status: 'unsupported' } satisfies UnsupportedRow
    }
    if (this.failure !== null) return this.abandoned ? { ...errorRow(base, this.failure, null), abandoned: true } : errorRow(base, this.failure, null)
    const lease = this.lease
    if (!lease) return errorRow(base, 'the episode is closed', null)

    while (this.ingested < probe.after_event_index) {
      const event = this.episode.events[this.ingested]!
      try {
        await lease.store.ingest(storeEvent(event, this.options.track))
      } catch (error) {
        const fault = toFault(error, 'store.ingest')
        // Spec: an ingest failure stops ingestion; this and every later probe is an error.
        this.failure = `ingest: ${fault.message}`
        if (fault.fatal) await this.releaseBroken()
        return errorRow(base, this.failure, null)
      }
      this.ingested++
    }

    const asked = await this.ask(probe)
    if (asked.status === 'fault') {
      const { stage, fault, latencyMs } = asked
      if (fault.fatal) {
        this.failure = this.abandonment(`at probe ${probe.probe_id}`, stage, fault)
        this.abandoned = true
        await this.releaseBroken()
      }
      return errorRow(base, `${stage}: ${fault.message}`, latencyMs)
    }

    const { answer, latencyMs } = asked
    // Quality is judged on the first answer; re-asks only add lag and spending.
    const spent = new Spending()
    spent.add(answer)
    // Update lag applies to post-change target rows only; other rows carry no lag fields at all.
    const lag = probe.role === 'target' && probe.phase === 'post' ? await this.pollForUpdate(probe, answer, latencyMs, spent) : {}
    const prediction: Prediction = { state: answer.state, value: answer.value }
    if (answer.rawAnswer !== undefined) prediction.raw_answer = answer.rawAnswer
    spent.record(prediction)
    return { ...base, status: 'answered', prediction, latency_ms: roundMs(latencyMs), ...lag } satisfies AnsweredRow
  }

  /** Release the store (idempotent). */
  async close(): Promise<void> {
    const lease = this.lease
    this.lease = null
    if (this.failure === null) this.failure = 'the episode is closed'
    await lease?.release()
  }

  /** advance_clock (when declared) then query; latency covers the query only. */
  private async ask(
    probe: Probe,
  ): Promise<
    { status: 'answered'; answer: StoreAnswer; latencyMs: number } | { status: 'fault'; stage: string; fault: AdapterFault; latencyMs: number | null }
  > {
    const store = this.lease!.store
    if (this.capabilities.clock) {
      try {
        await store.advanceClock(probe.as_of)
      } catch (error) {
        return { status: 'fault', stage: 'advance_clock', fault: toFault(error, 'store.advanceClock'), latencyMs: null }
      }
    }
    const started = performance.now()
    try {
      const answer = await store.query(storeQuery(probe, this.options.track))
      return { status: 'answered', answer, latencyMs: performance.now() - started }
    } catch (error) {
      return { status: 'fault', stage: 'query', fault: toFault(error, 'store.query'), latencyMs: roundMs(performance.now() - started) }
    }
  }

  /**
   * Update lag: re-ask a wrong post-change answer up to `updatePolls` times.
   * The lag is the first latency plus every wait and later latency. When the
   * answer is still wrong at the end (or a re-ask failed) the row is censored,
   * and the lag is the time elapsed so far (spec section 3: it is recorded
   * either way; the scorer leaves censored lags out of the observed figures).
   */
  private async pollForUpdate(probe: Probe, first: StoreAnswer, firstLatencyMs: number, spent: Spending): Promise<UpdateLag> {
    let lag = firstLatencyMs
    let polls = 0
    let correct = sameAnswer(first, probe.expected)
    while (!correct && polls < this.options.updatePolls && this.lease) {
      const waitStarted = performance.now()
      if (this.options.pollIntervalMs > 0) await sleep(this.options.pollIntervalMs)
      lag += performance.now() - waitStarted
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
    return { update_lag_ms: roundMs(lag), update_lag_polls: polls, update_lag_censored: !correct }
  }

  private async releaseBroken(): Promise<void> {
    const lease = this.lease
    this.lease = null
    await lease?.release({ broken: true })
  }

  private checkProbe(probe: Probe): void {
    const id = this.episode.episode_id
    if (probe.episode_id !== id) throw new RunnerError('PROBE_NOT_IN_EPISODE', `probe ${probe.probe_id} belongs to episode ${probe.episode_id}, not ${id}`)
    if (probe.after_event_index > this.episode.events.length) {
      throw new RunnerError(
        'PROBE_INDEX_OUT_OF_RANGE',
        `probe ${probe.probe_id}: after_event_index ${probe.after_event_index} exceeds the ${this.episode.events.length} events of episode ${id}`,
      )
    }
    if (probe.after_event_index < this.position) {
      throw new RunnerError(
        'PROBE_OUT_OF_ORDER',
        `probe ${probe.probe_id} (after_event_index ${probe.after_event_index}) was asked after a probe at index ${this.position}; ask probes in orderProbes() order`,
      )
    }
  }
}

/** The fields every row of `probe` shares, in upstream's order (gold copied, so a row never aliases the dataset). */
function rowBaseFor(probe: Probe, family: string, repetition: number): PredictionBase {
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

/** An error row; `latency_ms` only when the failing query was timed. */
function errorRow(base: PredictionBase, error: string, latencyMs: number | null): ErrorRow {
  return latencyMs === null ? { ...base, status: 'error', error } : { ...base, status: 'error', latency_ms: latencyMs, error }
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
}

/**
 * Run every probe of a split. Rows come back in canonical order (episode file
 * order, then `orderProbes`) whatever the concurrency, so a concurrent run
 * gives the same rows (latency aside) as a sequential one.
 */
export async function runSplit(input: RunSplitInput): Promise<PredictionRow[]> {
  const { episodes, pool, options, onRow } = input
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
        for (const probe of probes) {
          const row = await run.answer(probe)
          results[index]!.push(row)
          onRow?.(row)
        }
      } catch (error) {
        stopped ??= error
      } finally {
        await run.close()
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, episodes.length)) }, worker))
  if (stopped !== null) throw stopped
  return results.flat()
}
