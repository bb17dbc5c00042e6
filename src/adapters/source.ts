/**
 * What a user can hand the harness as the memory under test — a store object,
 * a factory of stores, or an adapter command — and the checks every consumer
 * of one (the pool, `serveNdjson`) applies before using it.
 */
import type { CommandAdapterSpec } from './command.js'
import type { PooledStoresSpec } from './pooled.js'
import { AdapterRefusedError, showArgument } from './errors.js'
import type { MemoryStore, StoreFactory } from './types.js'

/** Anything the harness can run: a store object, a factory of stores, long-lived stores (`pooledStores`), or an adapter command. */
export type MemorySource = MemoryStore | StoreFactory | PooledStoresSpec | CommandAdapterSpec

/** A short description of a value for messages: its type, and for an object which methods it lacks. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value)
  if (Array.isArray(value)) return 'an array'
  if (typeof value !== 'object') return `${typeof value} ${showArgument(value)}`
  const missing = (['ingest', 'query'] as const).filter((method) => typeof (value as Record<string, unknown>)[method] !== 'function')
  return `an object without ${missing.join(' and ')}()`
}

/** The least a store must have: an object with `ingest()` and `query()`. */
export function isMemoryStore(value: unknown): value is MemoryStore {
  return (
    value !== null && typeof value === 'object' && typeof (value as MemoryStore).ingest === 'function' && typeof (value as MemoryStore).query === 'function'
  )
}

export function isCommandSpec(source: MemorySource): source is CommandAdapterSpec {
  return (
    typeof source === 'object' && source !== null && (source as CommandAdapterSpec).kind === 'command' && Array.isArray((source as CommandAdapterSpec).argv)
  )
}

/**
 * Spec: memory persists across the turns of one episode only. One store object
 * serves every episode (in process, or behind `serveNdjson`), so without
 * `reset()` it would carry facts into the next one: refused with `AdapterRefusedError`.
 */
export function refuseWithoutReset(store: MemoryStore, name: string, declared: unknown): void {
  if (typeof store.reset === 'function') return
  throw new AdapterRefusedError(
    `store \`${name}\` has no reset() method, but one store object serves every episode and memory must not outlive its episode. Add reset() that forgets everything, or pass a factory, e.g. \`() => createStore()\`.`,
    declared,
  )
}

/** A store's or factory's name for messages: its `name`, else its class, else `fallback`. */
export function storeName(source: object, fallback: string): string {
  const name = (source as { name?: unknown }).name
  if (typeof name === 'string' && name !== '') return name
  const constructorName = (source as { constructor?: { name?: string } }).constructor?.name
  return constructorName && constructorName !== 'Object' && constructorName !== 'Function' ? constructorName : fallback
}

/** Marks a factory whose stores cannot share state across episodes (see `StorePool.isolatedByConstruction`). */
const ISOLATED = Symbol.for('timegrounded.isolatedByConstruction')

/** Mark `factory` as making stores isolated by construction (the built-in model adapters); returns it. */
export function markIsolatedByConstruction<T extends object>(factory: T): T {
  Object.defineProperty(factory, ISOLATED, { value: true })
  return factory
}

/** Whether `source` was marked with `markIsolatedByConstruction`. */
export function isIsolatedByConstruction(source: unknown): boolean {
  return typeof source === 'function' && (source as unknown as Record<symbol, unknown>)[ISOLATED] === true
}
