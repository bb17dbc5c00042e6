/**
 * The base of every pool: leasing through a first-come, first-served semaphore, resetting each store
 * for its episode, and closing once with the problems recorded. Its own file: the kinds of pool differ
 * only in how they make, give back and close a store.
 */
import { DEFAULT_TIMEOUT_MS, checkTimeoutMs } from '../adapters/command.js'
import { AdapterUsageError, PoolClosedError, showArgument, toFault } from '../adapters/errors.js'
import type { EpisodeContext } from '../adapters/types.js'
import { copyInfo } from './declared-capabilities.js'
import type { AcquireOptions, AdapterInfo, CloseProblem, LeasedStore, StoreLease, StorePool } from './store-lease.js'

/** A counting semaphore: at most `capacity` holders; waiters are served first come, first served. */
class Semaphore {
  private held = 0
  private readonly waiters: (() => void)[] = []
  constructor(private readonly capacity: number) {}
  async acquire(): Promise<void> {
    if (this.held < this.capacity) {
      this.held++
      return
    }
    await new Promise<void>((resolve) => this.waiters.push(resolve))
  }
  release(): void {
    const next = this.waiters.shift()
    if (next) next()
    else this.held--
  }
}

export function checkConcurrency(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!(Number.isInteger(value) && value >= 1) && value !== Infinity) {
    throw new AdapterUsageError(
      'ADAPTER_OPTION_INVALID',
      `openPool option \`concurrency\` must be a whole number ≥ 1; got ${showArgument(value)}. Pass e.g. \`concurrency: 2\`, or leave it out for the default.`,
    )
  }
  return value
}

export function checkTimeout(value: number | undefined, where: string): number {
  return checkTimeoutMs(value, where, 'ADAPTER_OPTION_INVALID') ?? DEFAULT_TIMEOUT_MS
}

/** Base of the pools: who is under test, leasing through a semaphore, closing once. */
export abstract class LeasingPool<Resource> implements StorePool {
  isolatedByConstruction = false
  private closed = false
  private readonly closeProblems: CloseProblem[] = []
  protected readonly leases: Semaphore
  constructor(
    capacity: number,
    private readonly adapterInfo: AdapterInfo,
  ) {
    this.leases = new Semaphore(capacity)
  }
  info(): AdapterInfo {
    return copyInfo(this.adapterInfo)
  }
  /** A store ready to reset (spawning or making one if needed): `again`'s own when it is idle here. */
  protected abstract take(again: LeasedStore | undefined): Promise<Resource>
  protected abstract storeOf(resource: Resource): LeasedStore
  /** Return a resource after use (it served `episodeId`); `broken` ones are disposed. */
  protected abstract giveBack(resource: Resource, broken: boolean, episodeId: string): Promise<void>
  protected abstract closeIdle(): Promise<void>
  /** A store or process that failed to close: kept for `close()` to hand over, never dropped. */
  protected recordCloseProblem(message: string, episodeId: string | null): void {
    this.closeProblems.push({ store: this.adapterInfo.name, episodeId, message })
  }
  /** Close an in-process store (after `episodeId`, or null when the pool closes); a failure is recorded. */
  protected closeStore(store: LeasedStore, episodeId: string | null): Promise<void> {
    return store.close().catch((error: unknown) => this.recordCloseProblem(toFault(error, 'store.close').message, episodeId))
  }

  async acquire(context: EpisodeContext, options?: AcquireOptions): Promise<StoreLease> {
    if (this.closed)
      throw new PoolClosedError(
        `pool \`${this.info().name}\` is closed, so it cannot lease a store for episode ${context.episodeId}; open a new one with openPool(), and close a pool only after its last run.`,
      )
    await this.leases.acquire()
    let resource: Resource
    try {
      resource = await this.take(options?.again)
    } catch (error) {
      this.leases.release()
      throw toFault(error, 'starting the store')
    }
    const store = this.storeOf(resource)
    try {
      await store.reset({ episodeId: context.episodeId, seed: context.seed })
    } catch (error) {
      const fault = toFault(error, 'store.reset')
      await this.giveBack(resource, fault.fatal, context.episodeId)
      this.leases.release()
      throw fault
    }
    let released = false
    return {
      store,
      release: async (options) => {
        if (released) return
        released = true
        try {
          await this.giveBack(resource, options?.broken === true, context.episodeId)
        } finally {
          this.leases.release()
          if (this.closed) await this.closeIdle()
        }
      },
    }
  }

  async close(): Promise<CloseProblem[]> {
    this.closed = true
    await this.closeIdle()
    return this.closeProblems.map((problem) => ({ ...problem }))
  }
}
