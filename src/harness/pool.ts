/**
 * Stores on lease, one episode at a time. Whatever the source — a store
 * object, a factory, or an adapter command — the runner sees the same
 * `StoreLease`: a store whose every method is async, bounded by a timeout, and
 * fails only with an `AdapterFault`. Data crosses into in-process stores as
 * fresh copies, and answers come back as fresh copies.
 */
import type { AdapterProcess, StartedAdapter } from '../adapters/adapter-process.js'
import { type CommandAdapterSpec, DEFAULT_TIMEOUT_MS, checkTimeoutMs, describeCommand } from '../adapters/command.js'
import { AdapterFault, AdapterRefusedError, AdapterStartError, AdapterUsageError, PoolClosedError, showArgument, toFault } from '../adapters/errors.js'
import {
  PROTOCOL,
  answerFromWire,
  capabilitiesFromWire,
  checkAnswer,
  eventToWire,
  queryToWire,
  resetRequest,
  withDefaults,
  type DeclaredCapabilities,
} from '../adapters/protocol.js'
import { isPooledSpec, type PooledStoresSpec } from '../adapters/pooled.js'
import { describeValue, isCommandSpec, isIsolatedByConstruction, isMemoryStore, type MemorySource, refuseWithoutReset, storeName } from '../adapters/source.js'
import type { EpisodeContext, MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreFactory, StoreQuery, Track } from '../adapters/types.js'
import { closeOnInterrupt } from '../interrupt.js'

/** Who is under test, as recorded in the run manifest. */
export interface AdapterInfo {
  /** e.g. `builtin:latest`, or the command line. */
  name: string
  /** The adapter command, or null for an in-process store. */
  command: string[] | null
  /** As the adapter declared it; null when it did not. */
  adapterVersion: string | null
  /** Declared capabilities, with defaults applied. */
  capabilities: Required<Pick<StoreCapabilities, 'clock' | 'history' | 'inspection'>> & { tracks: Track[] }
  /** The model configuration the store declared (`modelConfig`, `model_config` on the wire), when it did. */
  modelConfig?: Record<string, unknown>
  /** The prompt configuration the store declared (`promptConfig`, `prompt_config` on the wire), when it did. */
  promptConfig?: Record<string, unknown>
}

/** A leased store: every method present and async; failures are `AdapterFault`s. */
export interface LeasedStore extends MemoryStore {
  capabilities: StoreCapabilities
  /** False for an in-process store without `reset()` (a factory's, used for one episode and dropped): nothing to check after a reset. */
  readonly resets?: boolean
  /**
   * Answers calls in the order they were made, so the runner may make the next before the last is
   * answered (an adapter process: one reply line per request line, in order). @default false
   */
  readonly answersInOrder?: boolean
  reset(context: EpisodeContext): Promise<void>
  ingest(event: StoreEvent): Promise<void>
  advanceClock(asOf: string): Promise<void>
  query(query: StoreQuery): Promise<StoreAnswer>
  inspect(): Promise<unknown>
  close(): Promise<void>
}

/** One store on loan to one episode; give it back with `release()`. */
export interface StoreLease {
  /** Already reset for the episode it was acquired for. */
  store: LeasedStore
  /** Give the store back; `broken` (after a fatal fault) discards it (a process is killed and later restarted). */
  release(options?: { broken?: boolean }): Promise<void>
}

/** A store or adapter process that failed to close: the pool records it rather than drop it. */
export interface CloseProblem {
  /** The pool's name: the store, the factory or the adapter command. */
  store: string
  /** The episode the store had served, or null when the pool itself was closing. */
  episodeId: string | null
  /** Why, e.g. ``store.close threw: disk full``. */
  message: string
}

/** Options of `StorePool.acquire`. */
export interface AcquireOptions {
  /**
   * Lease this store again when the pool still holds it idle (a store object or pooled store not
   * replaced, an adapter process still running): the isolation check asks the store that served an
   * episode. A factory's pool makes a fresh store as always, and one whose store is gone leases another.
   */
  again?: LeasedStore
}

/** Stores on lease, one episode at a time (see `openPool`). */
export interface StorePool {
  /**
   * The pool's stores cannot keep state across episodes by construction (the built-in model adapters: a
   * fresh instance per episode, nothing at module level), so the runner's isolation check, a real
   * (and, for a model, paid) query per episode, is skipped. @default false
   */
  readonly isolatedByConstruction?: boolean
  /** Who is under test: name, command, version and declared capabilities (a fresh copy). */
  info(): AdapterInfo
  /** A store reset for this episode. Waits while every store is leased; rejects with an `AdapterFault` when the store cannot be started or reset. */
  acquire(context: EpisodeContext, options?: AcquireOptions): Promise<StoreLease>
  /** Close every store and process (leased ones as they are released); resolves to every close problem met so far, during the run too (a factory's stores close after each episode). @default [] when all closed cleanly */
  close(): Promise<CloseProblem[]>
}

/** Options of `openPool`. */
export interface PoolOptions {
  /** The track to run; the adapter must declare it. */
  track: Track
  /** Stores leased at once: processes for a command, instances for a factory; a single store object is always 1. @default 1 for a command, unbounded for a factory */
  concurrency?: number
  /** Time one call may take before it is abandoned (a process is killed). @default 30000 */
  timeoutMs?: number
  /** Name recorded in the manifest. @default the command line, or the factory's / store's name */
  name?: string
}

/** Open a pool over `source`: reads and checks its capabilities; throws `AdapterRefusedError` (also for a store object without `reset()`), `AdapterStartError`, or `AdapterUsageError` for a bad source or option. */
export async function openPool(source: MemorySource, options: PoolOptions): Promise<StorePool> {
  return openPoolAdopting(source, options, null)
}

/**
 * `openPool`, with `started`: an adapter process already started by `startAdapter` before the caller
 * knew it would open a pool (the CLI starts `run`'s while it loads). The pool owns it from here: a
 * command pool whose spec and timeout it was started with takes it as its first process; any other
 * pool kills it. Inside the package only; `openPool` is the public form.
 */
export async function openPoolAdopting(source: MemorySource, options: PoolOptions, started: StartedAdapter | null): Promise<StorePool> {
  if (isCommandSpec(source)) return CommandPool.open(source, options, started)
  started?.process.kill()
  if (isPooledSpec(source)) return ReusedStorePool.open(source, options)
  if (typeof source === 'function') {
    const pool = await FactoryPool.open(source, options)
    pool.isolatedByConstruction = isIsolatedByConstruction(source)
    return pool
  }
  if (isMemoryStore(source)) return SingleStorePool.open(source, options)
  throw new AdapterUsageError(
    'ADAPTER_SOURCE_INVALID',
    `openPool(source) got ${describeValue(source)}; pass a MemoryStore (an object with ingest() and query()), a store factory (a function returning one), pooledStores(() => start()), or commandAdapter(['python3', 'adapter.py'])`,
  )
}

// ------------------------------------------------------------ shared parts

function refuseUnlessFit(declared: DeclaredCapabilities, track: Track, who: string, raw: unknown): void {
  if (declared.protocol !== PROTOCOL) {
    throw new AdapterRefusedError(
      `${who} declared protocol ${JSON.stringify(declared.protocol)}; the harness speaks ${JSON.stringify(PROTOCOL)}. Reply to {"type":"capabilities"} with "protocol":"${PROTOCOL}".`,
      raw,
    )
  }
  if (!declared.tracks.includes(track)) {
    const tracks = declared.tracks.length === 0 ? 'no tracks' : `tracks [${declared.tracks.join(', ')}]`
    throw new AdapterRefusedError(
      `${who} declared ${tracks}, not the requested ${track} track. Declare "${track}" in its capabilities' tracks, or run another track.`,
      raw,
    )
  }
}

function infoOf(name: string, command: string[] | null, declared: DeclaredCapabilities): AdapterInfo {
  const info: AdapterInfo = {
    name,
    command,
    adapterVersion: declared.adapterVersion,
    capabilities: { clock: declared.clock, history: declared.history, inspection: declared.inspection, tracks: [...declared.tracks] },
  }
  return withConfigs(info, declared)
}

function publicCapabilities(declared: DeclaredCapabilities): StoreCapabilities {
  const capabilities: StoreCapabilities = { tracks: [...declared.tracks], clock: declared.clock, history: declared.history, inspection: declared.inspection }
  if (declared.adapterVersion !== null) capabilities.adapterVersion = declared.adapterVersion
  return withConfigs(capabilities, declared)
}

/** `target` with the declared model and prompt configurations, when there are any. */
function withConfigs<T extends { modelConfig?: Record<string, unknown>; promptConfig?: Record<string, unknown> }>(
  target: T,
  declared: Pick<DeclaredCapabilities, 'modelConfig' | 'promptConfig'>,
): T {
  if (declared.modelConfig !== null) target.modelConfig = structuredClone(declared.modelConfig)
  if (declared.promptConfig !== null) target.promptConfig = structuredClone(declared.promptConfig)
  return target
}

/**
 * A fresh copy of `info`, field by field (the runner asks for it at every episode; structuredClone
 * costs ten times as much: about 3 ms of a run's 180 episodes, measured): the same keys in the same order, the configurations deep-copied.
 */
function copyInfo(info: AdapterInfo): AdapterInfo {
  const copy: AdapterInfo = {
    ...info,
    command: info.command === null ? null : [...info.command],
    capabilities: { ...info.capabilities, tracks: [...info.capabilities.tracks] },
  }
  return withConfigs(copy, { modelConfig: info.modelConfig ?? null, promptConfig: info.promptConfig ?? null })
}

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

function checkConcurrency(value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback
  if (!(Number.isInteger(value) && value >= 1) && value !== Infinity) {
    throw new AdapterUsageError(
      'ADAPTER_OPTION_INVALID',
      `openPool option \`concurrency\` must be a whole number ≥ 1; got ${showArgument(value)}. Pass e.g. \`concurrency: 2\`, or leave it out for the default.`,
    )
  }
  return value
}

function checkTimeout(value: number | undefined, where: string): number {
  return checkTimeoutMs(value, where, 'ADAPTER_OPTION_INVALID') ?? DEFAULT_TIMEOUT_MS
}

/** Base of the pools: who is under test, leasing through a semaphore, closing once. */
abstract class LeasingPool<Resource> implements StorePool {
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

// -------------------------------------------------------- in-process stores

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function'
}

/**
 * Call a store method: sync results pass straight through; a promise races a
 * timer. A call that hangs cannot be cancelled in-process, so it is abandoned.
 */
async function invoke<T>(what: string, timeoutMs: number, call: () => T | PromiseLike<T>): Promise<T> {
  let result: T | PromiseLike<T>
  try {
    result = call()
  } catch (error) {
    throw toFault(error, what)
  }
  if (!isThenable(result)) return result
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new AdapterFault('ADAPTER_TIMEOUT', `${what} did not settle within ${timeoutMs} ms (\`timeoutMs\`); the call was abandoned`)),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([Promise.resolve(result).then(undefined, (error: unknown) => Promise.reject(toFault(error, what))), timeout])
  } finally {
    clearTimeout(timer)
  }
}

async function readCapabilities(store: MemoryStore, timeoutMs: number): Promise<DeclaredCapabilities> {
  const capabilities = store.capabilities
  if (typeof capabilities === 'function') {
    return withDefaults(await invoke('store.capabilities', timeoutMs, () => (capabilities as () => StoreCapabilities).call(store)))
  }
  return withDefaults(capabilities)
}

/** Wrap an in-process store: copies in, copies out, timeouts, faults. */
function wrapStore(store: MemoryStore, declared: DeclaredCapabilities, timeoutMs: number): LeasedStore {
  return {
    capabilities: publicCapabilities(declared),
    resets: typeof store.reset === 'function',
    reset: (context) => invoke('store.reset', timeoutMs, () => store.reset?.({ ...context })),
    ingest: (event) => invoke('store.ingest', timeoutMs, () => store.ingest(structuredClone(event))),
    advanceClock: (asOf) => invoke('store.advanceClock', timeoutMs, () => store.advanceClock?.(asOf)),
    query: async (query) => {
      const answer = await invoke('store.query', timeoutMs, () => store.query(structuredClone(query)))
      return checkAnswer(answer)
    },
    inspect: (): Promise<unknown> => invoke('store.inspect', timeoutMs, () => store.inspect?.()).then((view) => structuredClone(view)),
    close: () => invoke('store.close', timeoutMs, () => store.close?.()),
  }
}

/**
 * `store` whose close runs once: a second call waits for the first. The pool's own close and
 * Ctrl-C's may both reach a store, and the one that comes second must wait for it, not skip it.
 */
function closingOnce(store: LeasedStore): LeasedStore {
  let closing: Promise<void> | undefined
  return { ...store, close: () => (closing ??= store.close()) }
}

/** One store object, leased to one episode at a time and reset between them. */
class SingleStorePool extends LeasingPool<LeasedStore> {
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
class FactoryPool extends LeasingPool<LeasedStore> {
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
class ReusedStorePool extends LeasingPool<LeasedStore> {
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

// -------------------------------------------------------- adapter processes

/** `started` is the process a pool would start for `spec` with `timeoutMs`: the same command, folder, environment and call timeout. */
function startedAs(started: StartedAdapter, spec: CommandAdapterSpec, timeoutMs: number): boolean {
  const argv = started.spec.argv
  return (
    started.timeoutMs === timeoutMs &&
    started.spec.cwd === spec.cwd &&
    argv.length === spec.argv.length &&
    argv.every((arg, index) => arg === spec.argv[index]) &&
    JSON.stringify(started.spec.env ?? null) === JSON.stringify(spec.env ?? null)
  )
}

/** Wrap an adapter process as a store: camelCase to the wire and back. */
function processStore(process: AdapterProcess, declared: DeclaredCapabilities): LeasedStore {
  const ok = async (): Promise<void> => undefined
  return {
    capabilities: publicCapabilities(declared),
    answersInOrder: true,
    reset: (context) => process.call(resetRequest(context)).then(ok),
    ingest: (event) => process.call({ type: 'ingest', event: eventToWire(event) }).then(ok),
    advanceClock: (asOf) => process.call({ type: 'advance_clock', as_of: asOf }).then(ok),
    query: (query) => process.call(queryToWire(query)).then(answerFromWire),
    inspect: () => process.call({ type: 'inspect' }),
    // The pool owns the process: a lease cannot close it.
    close: ok,
  }
}

interface Worker {
  process: AdapterProcess
  store: LeasedStore
}

/** Up to `concurrency` adapter processes; a dead one is replaced at the next lease. */
class CommandPool extends LeasingPool<Worker> {
  private readonly idle: Worker[] = []
  private readonly everyone = new Set<Worker>()
  private constructor(
    private readonly spec: CommandAdapterSpec,
    private readonly timeoutMs: number,
    private readonly track: Track,
    adapterInfo: AdapterInfo,
    first: Worker,
    capacity: number,
  ) {
    super(capacity, adapterInfo)
    this.idle.push(first)
    this.everyone.add(first)
  }

  static async open(spec: CommandAdapterSpec, options: PoolOptions, early: StartedAdapter | null = null): Promise<CommandPool> {
    let timeoutMs: number
    let capacity: number
    try {
      timeoutMs = spec.timeoutMs !== undefined ? checkTimeout(spec.timeoutMs, 'commandAdapter') : checkTimeout(options.timeoutMs, 'openPool')
      capacity = checkConcurrency(options.concurrency, 1)
    } catch (error) {
      early?.process.kill()
      throw error
    }
    // A process started otherwise than this pool would start its own is not the one under test.
    const adopted = early !== null && startedAs(early, spec, timeoutMs) ? early : undefined
    if (adopted === undefined) early?.process.kill()
    const started = await CommandPool.start(spec, timeoutMs, options.track, adopted).catch((error: unknown) => {
      if (error instanceof AdapterRefusedError) throw error
      throw new AdapterStartError(`could not start adapter \`${describeCommand(spec.argv)}\``, toFault(error, 'the adapter').message)
    })
    const info = infoOf(options.name ?? describeCommand(spec.argv), [...spec.argv], started.declared)
    return new CommandPool(spec, timeoutMs, options.track, info, started.worker, capacity)
  }

  /** Spawn a process (or take `started`, one already spawned for this spec) and check its capabilities. */
  private static async start(
    spec: CommandAdapterSpec,
    timeoutMs: number,
    track: Track,
    early?: StartedAdapter,
  ): Promise<{ worker: Worker; declared: DeclaredCapabilities }> {
    // The process client (and node:child_process with it) loads with the first process a pool starts.
    const started = early ?? (await import('../adapters/adapter-process.js')).startAdapter(spec, timeoutMs)
    const { process } = started
    try {
      const reply = await started.capabilities
      const declared = capabilitiesFromWire(reply)
      refuseUnlessFit(declared, track, `adapter \`${process.command}\``, reply)
      return { worker: { process, store: processStore(process, declared) }, declared }
    } catch (error) {
      process.kill()
      if (error instanceof AdapterFault && error.code !== 'ADAPTER_RESTART_FAILED') {
        throw new AdapterFault('ADAPTER_RESTART_FAILED', `the capabilities handshake failed: ${error.message}`)
      }
      throw error
    }
  }

  protected async take(again: LeasedStore | undefined): Promise<Worker> {
    const at = this.idle.findIndex((worker) => worker.store === again && worker.process.alive)
    if (at >= 0) return this.idle.splice(at, 1)[0]!
    for (let worker = this.idle.pop(); worker; worker = this.idle.pop()) {
      if (worker.process.alive) return worker
      this.everyone.delete(worker)
    }
    try {
      const { worker } = await CommandPool.start(this.spec, this.timeoutMs, this.track)
      this.everyone.add(worker)
      return worker
    } catch (error) {
      // A restarted process that refuses is as broken as one that does not start.
      throw error instanceof AdapterFault ? error : new AdapterFault('ADAPTER_RESTART_FAILED', `restarting the adapter failed: ${(error as Error).message}`)
    }
  }

  protected storeOf(worker: Worker): LeasedStore {
    return worker.store
  }

  protected async giveBack(worker: Worker, broken: boolean): Promise<void> {
    if (broken || !worker.process.alive) {
      this.everyone.delete(worker)
      worker.process.kill()
      await worker.process.close(0)
      return
    }
    this.idle.push(worker)
  }

  protected async closeIdle(): Promise<void> {
    const idle = this.idle.splice(0)
    await Promise.all(
      idle.map((worker) => {
        this.everyone.delete(worker)
        return worker.process.close(Math.min(this.timeoutMs, 2_000)).then((problem) => {
          if (problem !== null) this.recordCloseProblem(problem, null)
        })
      }),
    )
  }
}
