/**
 * The pools of in-process stores: one store object reset between episodes, a fresh store per episode
 * from a factory, and stores started once and reused (`pooledStores`). Their own file: they share the
 * in-process call wrapping, which the adapter-process pool does not use.
 */
import { AdapterFault, AdapterStartError, toFault } from '../adapters/errors.js'
import type { DeclaredCapabilities } from '../adapters/protocol.js'
import type { PooledStoresSpec } from '../adapters/pooled.js'
import { describeValue, isMemoryStore, refuseWithoutReset, storeName } from '../adapters/source.js'
import type { MemoryStore, StoreFactory } from '../adapters/types.js'
import { closeOnInterrupt } from '../interrupt.js'
import { infoOf, refuseUnlessFit } from './declared-capabilities.js'
import { closingOnce, invoke, readCapabilities, wrapStore } from './in-process-calls.js'
import { checkConcurrency, checkTimeout, LeasingPool } from './leasing-pool.js'
import type { AdapterInfo, LeasedStore, PoolOptions } from './store-lease.js'

/** One store object, leased to one episode at a time and reset between them. */
export class SingleStorePool extends LeasingPool<LeasedStore> {
  private constructor(
    private readonly wrapped: LeasedStore,
    adapterInfo: AdapterInfo,
  ) {
    super(1, adapterInfo)
  }
  static async open(store: MemoryStore, options: PoolOptions): Promise<SingleStorePool> {
    const timeoutMs = checkTimeout(options.timeoutMs, 'openPool')
    const name = options.name ?? storeName(store, 'store')
    const declared = await readCapabilities(store, timeoutMs).catch((error: unknown) => {
      throw new AdapterStartError(`could not read the capabilities of store \`${name}\``, toFault(error, 'store.capabilities').message)
    })
    refuseUnlessFit(declared, options.track, `store \`${name}\``, declared)
    refuseWithoutReset(store, name, declared)
    return new SingleStorePool(wrapStore(store, declared, timeoutMs), infoOf(name, null, declared))
  }
  protected async take(): Promise<LeasedStore> {
    return this.wrapped
  }
  protected storeOf(resource: LeasedStore): LeasedStore {
    return resource
  }
  // A single object cannot be replaced: even after a fault it is reset and reused.
  protected async giveBack(): Promise<void> {}
  private closing: Promise<void> | null = null
  protected closeIdle(): Promise<void> {
    this.closing ??= this.closeStore(this.wrapped, null)
    return this.closing
  }
}

/** Call the factory and check its product: anything but a store would fail every call with a cryptic "is not a function". */
async function makeStore(factory: StoreFactory, timeoutMs: number, who = 'the store factory'): Promise<MemoryStore> {
  const store: unknown = await invoke(who, timeoutMs, factory)
  if (isMemoryStore(store)) return store
  if (typeof store === 'function') {
    throw new AdapterFault(
      'ADAPTER_RESTART_FAILED',
      `${who} returned a function (a factory, not a store): pass that function itself, not one that returns it — \`referenceStore('latest')\` is already a factory, so write \`timegroundedSuite(referenceStore('latest'))\`, not \`timegroundedSuite(() => referenceStore('latest'))\``,
    )
  }
  throw new AdapterFault(
    'ADAPTER_RESTART_FAILED',
    `${who} returned ${describeValue(store)}, not a MemoryStore; return an object with ingest() and query() (awaited if the factory is async)`,
  )
}

/** A fresh store per episode. */
export class FactoryPool extends LeasingPool<LeasedStore> {
  private spare: LeasedStore | null
  private constructor(
    private readonly factory: StoreFactory,
    private readonly declared: DeclaredCapabilities,
    private readonly timeoutMs: number,
    adapterInfo: AdapterInfo,
    first: LeasedStore,
    capacity: number,
  ) {
    super(capacity, adapterInfo)
    this.spare = first
  }
  static async open(factory: StoreFactory, options: PoolOptions): Promise<FactoryPool> {
    const timeoutMs = checkTimeout(options.timeoutMs, 'openPool')
    const capacity = checkConcurrency(options.concurrency, Infinity)
    const name = options.name ?? storeName(factory, 'factory')
    // The first store tells us the capabilities, then serves the first episode.
    let first: MemoryStore
    let declared: DeclaredCapabilities
    try {
      first = await makeStore(factory, timeoutMs)
      declared = await readCapabilities(first, timeoutMs)
    } catch (error) {
      throw new AdapterStartError(`could not make a store with factory \`${name}\``, toFault(error, 'the store factory').message)
    }
    refuseUnlessFit(declared, options.track, `store \`${name}\``, declared)
    return new FactoryPool(factory, declared, timeoutMs, infoOf(name, null, declared), wrapStore(first, declared, timeoutMs), capacity)
  }
  protected async take(): Promise<LeasedStore> {
    const spare = this.spare
    if (spare) {
      this.spare = null
      return spare
    }
    const store = await makeStore(this.factory, this.timeoutMs)
    return wrapStore(store, this.declared, this.timeoutMs)
  }
  protected storeOf(resource: LeasedStore): LeasedStore {
    return resource
  }
  protected async giveBack(resource: LeasedStore, _broken: boolean, episodeId: string): Promise<void> {
    await this.closeStore(resource, episodeId)
  }
  protected async closeIdle(): Promise<void> {
    const spare = this.spare
    this.spare = null
    if (spare) await this.closeStore(spare, null)
  }
}

/**
 * Long-lived stores (`pooledStores`): started when every started one is busy,
 * up to the pool's capacity; reset and lent again after each episode; closed
 * once, when the pool closes or the process is interrupted. A store that
 * failed fatally is closed and replaced by a fresh one at a later lease.
 */
export class ReusedStorePool extends LeasingPool<LeasedStore> {
  private readonly idle: LeasedStore[] = []
  private readonly everyone = new Set<LeasedStore>()
  /** Stores being started: an interrupt meanwhile waits for each, then closes it. */
  private readonly starting = new Set<Promise<LeasedStore>>()
  private readonly unregister: () => void
  private constructor(
    private readonly spec: PooledStoresSpec,
    private readonly declared: DeclaredCapabilities,
    private readonly timeoutMs: number,
    adapterInfo: AdapterInfo,
    first: LeasedStore,
    capacity: number,
  ) {
    super(capacity, adapterInfo)
    this.idle.push(first)
    this.everyone.add(first)
    // Ctrl-C skips the end of the run: close every started store then, leased or not, and each one
    // still starting once it has started (else it would outlive the process: a server, a database).
    this.unregister = closeOnInterrupt(() =>
      Promise.allSettled([...[...this.everyone].map((store) => store.close()), ...[...this.starting].map((start) => start.then((store) => store.close()))]),
    )
  }

  static async open(spec: PooledStoresSpec, options: PoolOptions): Promise<ReusedStorePool> {
    const timeoutMs = checkTimeout(options.timeoutMs, 'openPool')
    const limit = checkConcurrency(options.concurrency, 1)
    const capacity = Math.min(spec.size ?? limit, limit)
    const name = options.name ?? storeName(spec, 'pooled stores')
    let first: MemoryStore
    let declared: DeclaredCapabilities
    try {
      first = await makeStore(spec.start, timeoutMs, 'pooledStores(start)')
      declared = await readCapabilities(first, timeoutMs)
    } catch (error) {
      throw new AdapterStartError(`could not start a store with pooledStores \`${name}\``, toFault(error, 'pooledStores(start)').message)
    }
    const wrapped = closingOnce(wrapStore(first, declared, timeoutMs))
    try {
      refuseUnlessFit(declared, options.track, `store \`${name}\``, declared)
      refuseWithoutReset(first, name, declared)
    } catch (error) {
      await wrapped.close().catch(() => undefined)
      throw error
    }
    return new ReusedStorePool(spec, declared, timeoutMs, infoOf(name, null, declared), wrapped, Number.isFinite(capacity) ? capacity : 1)
  }
  protected async take(again: LeasedStore | undefined): Promise<LeasedStore> {
    const at = again === undefined ? -1 : this.idle.indexOf(again)
    const idle = at >= 0 ? this.idle.splice(at, 1)[0] : this.idle.pop()
    if (idle) return idle
    const starting = makeStore(this.spec.start, this.timeoutMs, 'pooledStores(start)').then((made) =>
      closingOnce(wrapStore(made, this.declared, this.timeoutMs)),
    )
    this.starting.add(starting)
    try {
      const store = await starting
      this.everyone.add(store)
      return store
    } finally {
      this.starting.delete(starting)
    }
  }
  protected storeOf(resource: LeasedStore): LeasedStore {
    return resource
  }
  protected async giveBack(resource: LeasedStore, broken: boolean, episodeId: string): Promise<void> {
    if (!broken) {
      this.idle.push(resource)
      return
    }
    // Still among everyone while it closes: Ctrl-C meanwhile waits for this close.
    await this.closeStore(resource, episodeId)
    this.everyone.delete(resource)
  }
  protected async closeIdle(): Promise<void> {
    const idle = this.idle.splice(0)
    await Promise.all(idle.map((store) => this.closeStore(store, null)))
    for (const store of idle) this.everyone.delete(store)
    if (this.everyone.size === 0) this.unregister()
  }
}
