/**
 * `pooledStores(start, { size })`: a source for stores that own a process or
 * a connection, too costly to start per episode. The pool starts them lazily,
 * at most `size` (and never more than the episodes run at once), lends each
 * to one episode at a time with its `reset()` in between, and closes every one
 * once, at the end of the run or when the run is interrupted.
 */
import { AdapterUsageError, showArgument } from './errors.js'
import type { MemoryStore } from './types.js'

/** How to start one long-lived store. Made by `pooledStores`. */
export interface PooledStoresSpec {
  readonly kind: 'pooled'
  /** Start one store (a process, a connection); called only when every started one is busy. */
  readonly start: () => MemoryStore | Promise<MemoryStore>
  /** The most stores started. @default the run's concurrency */
  readonly size?: number
}

/** Long-lived stores, started lazily and reused across episodes: `pooledStores(() => MyServerStore.start(), { size: 2 })`. */
export function pooledStores(start: () => MemoryStore | Promise<MemoryStore>, options: { size?: number } = {}): PooledStoresSpec {
  if (typeof start !== 'function') {
    throw new AdapterUsageError(
      'ADAPTER_SOURCE_INVALID',
      `pooledStores(start) needs a function that starts one store, e.g. pooledStores(() => MyStore.start()); got ${showArgument(start)}`,
    )
  }
  const size = options.size
  if (size !== undefined && !(Number.isInteger(size) && size >= 1)) {
    throw new AdapterUsageError(
      'ADAPTER_OPTION_INVALID',
      `pooledStores option \`size\` must be a whole number ≥ 1; got ${showArgument(size)}. Leave it out to start up to the run's concurrency.`,
    )
  }
  const spec: { -readonly [K in keyof PooledStoresSpec]: PooledStoresSpec[K] } = { kind: 'pooled', start }
  if (size !== undefined) spec.size = size
  Object.defineProperty(spec, 'name', { value: start.name === '' ? 'pooled stores' : start.name, enumerable: false })
  return Object.freeze(spec)
}

export function isPooledSpec(source: unknown): source is PooledStoresSpec {
  return (
    typeof source === 'object' && source !== null && (source as PooledStoresSpec).kind === 'pooled' && typeof (source as PooledStoresSpec).start === 'function'
  )
}
