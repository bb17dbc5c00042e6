/**
 * The four reference baselines (spec section 6), in-process. Each also runs as
 * an NDJSON process: `timegrounded baseline NAME`.
 */
import type { StoreFactory, Track } from '../types.js'
import { HybridStore } from './hybrid.js'
import { LatestStore } from './latest.js'
import { OracleStore } from './oracle.js'
import { VersionedStore } from './versioned.js'

export const BUILTIN_NAMES = ['oracle', 'versioned', 'latest', 'hybrid'] as const
export type BuiltinName = (typeof BUILTIN_NAMES)[number]

export interface BuiltinAdapter {
  /** One line for `--help` and the docs. */
  description: string
  /** The track it is meant for. */
  track: Track
  create: StoreFactory
}

/** Every baseline by name; a name without an entry fails to type-check. */
export const BUILTIN_ADAPTERS: Readonly<Record<BuiltinName, BuiltinAdapter>> = {
  oracle: { description: 'gold resolution over the ingested assertions (should score 1.0)', track: 'structured', create: () => new OracleStore() },
  versioned: { description: 'a bitemporal version table per slot and scope', track: 'structured', create: () => new VersionedStore() },
  latest: { description: 'last write by arrival wins; ignores valid time and expiry', track: 'structured', create: () => new LatestStore() },
  hybrid: { description: 'rule-based extraction from the turns into a version table', track: 'conversation', create: () => new HybridStore() },
}

export function isBuiltinName(name: string): name is BuiltinName {
  return (BUILTIN_NAMES as readonly string[]).includes(name)
}

/** A factory of fresh stores of baseline `name` (named `builtin:NAME`); throws a RangeError naming the choices. */
export function builtinAdapter(name: BuiltinName | string): StoreFactory {
  if (!isBuiltinName(name)) throw new RangeError(`unknown baseline ${JSON.stringify(name)}; choose one of ${BUILTIN_NAMES.join(', ')}`)
  const create = BUILTIN_ADAPTERS[name].create
  const factory: StoreFactory = () => create()
  Object.defineProperty(factory, 'name', { value: `builtin:${name}` })
  return factory
}

export { OracleStore, VersionedStore, LatestStore, HybridStore }
export { VersionTable } from './versioned.js'
export { extractAssertion } from './hybrid.js'
