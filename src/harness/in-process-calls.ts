/**
 * Calls into an in-process store: sync results passed straight through, promises raced against a
 * timeout, data copied in and answers copied out, every failure an `AdapterFault`. Its own file: the
 * single, factory and reused pools all wrap their stores this way.
 */
import { AdapterFault, toFault } from '../adapters/errors.js'
import { checkAnswer, withDefaults, type DeclaredCapabilities } from '../adapters/protocol.js'
import type { MemoryStore, StoreCapabilities } from '../adapters/types.js'
import { publicCapabilities } from './declared-capabilities.js'
import type { LeasedStore } from './store-lease.js'

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as PromiseLike<unknown>).then === 'function'
}

/**
 * Call a store method: sync results pass straight through; a promise races a
 * timer. A call that hangs cannot be cancelled in-process, so it is abandoned.
 * One promise settled by whichever comes first, not `Promise.race` over a timer
 * promise: every call of an asynchronous store pays this, and on Node 20 the
 * race's extra promises were a quarter of a split's time for a store that
 * answers at once (docs/performance.md).
 */
export function invoke<T>(what: string, timeoutMs: number, call: () => T | PromiseLike<T>): Promise<T> {
  let result: T | PromiseLike<T>
  try {
    result = call()
  } catch (error) {
    return Promise.reject(toFault(error, what))
  }
  if (!isThenable(result)) return Promise.resolve(result)
  const pending = result
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new AdapterFault('ADAPTER_TIMEOUT', `${what} did not settle within ${timeoutMs} ms (\`timeoutMs\`); the call was abandoned`)),
      timeoutMs,
    )
    Promise.resolve(pending).then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(toFault(error, what))
      },
    )
  })
}

export async function readCapabilities(store: MemoryStore, timeoutMs: number): Promise<DeclaredCapabilities> {
  const capabilities = store.capabilities
  if (typeof capabilities === 'function') {
    return withDefaults(await invoke('store.capabilities', timeoutMs, () => (capabilities as () => StoreCapabilities).call(store)))
  }
  return withDefaults(capabilities)
}

/** Wrap an in-process store: copies in, copies out, timeouts, faults. */
export function wrapStore(store: MemoryStore, declared: DeclaredCapabilities, timeoutMs: number): LeasedStore {
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
export function closingOnce(store: LeasedStore): LeasedStore {
  let closing: Promise<void> | undefined
  return { ...store, close: () => (closing ??= store.close()) }
}
