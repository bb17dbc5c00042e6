/**
 * The isolation check: after the measured episodes, reset each store that served one and ask it the
 * last probe it answered right there; a store that still knows it keeps state across episodes. Its
 * own file because its queue outlives any one episode (a module-level WeakMap by pool) and its calls
 * come after every measured one, apart from the episode run that queues them.
 */
import { AdapterFault, PoolClosedError, toFault } from '../adapters/errors.js'
import type { LeasedStore, StoreLease, StorePool } from './store-lease.js'
import type { StoreAnswer, Track } from '../adapters/types.js'
import { storeQuery } from '../adapters/views.js'
import { sameAnswer } from '../tivarq/gold.js'
import type { Episode, Probe } from '../tivarq/schema.js'

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
export interface PendingCheck {
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

/** Queue `entry`'s check on `pool`, behind the episodes closed before it. */
export function queueIsolationCheck(pool: StorePool, entry: PendingCheck): void {
  const pending = pendingChecks.get(pool)
  if (pending === undefined) pendingChecks.set(pool, [entry])
  else pending.push(entry)
}

/** Forget the checks queued on `pool`: a run cut short is not judged on isolation. */
export function dropIsolationChecks(pool: StorePool): void {
  pendingChecks.delete(pool)
}

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
