/**
 * The five reference baselines (spec section 6), in-process. Each also runs as
 * an NDJSON process: `timegrounded baseline NAME`.
 */
import { AdapterUsageError } from '../errors.js'
import type { StoreFactory, Track } from '../types.js'
import { HybridStore } from './hybrid.js'
import { CorrectingHybridStore } from './hybrid-corrections.js'
import { LatestStore } from './latest.js'
import { OracleStore } from './oracle.js'
import { VersionedStore } from './versioned.js'

/** Names of the reference baselines, as `builtin:NAME` and `timegrounded baseline NAME` take them. */
export const BUILTIN_NAMES = ['oracle', 'versioned', 'latest', 'hybrid', 'hybrid-corrections'] as const
/** One of `BUILTIN_NAMES`. */
export type BuiltinName = (typeof BUILTIN_NAMES)[number]

/** A reference baseline: what it is, its track, and how to make one. */
export interface BuiltinAdapter {
  /** One line for `--help` and the docs. */
  description: string
  /** The track it is meant for. */
  track: Track
  /** A fresh, empty store. */
  create: StoreFactory
}

/** Every baseline by name; a name without an entry fails to type-check. */
export const BUILTIN_ADAPTERS: Readonly<Record<BuiltinName, BuiltinAdapter>> = {
  oracle: { description: 'gold resolution over the ingested assertions (should score 1.0)', track: 'structured', create: () => new OracleStore() },
  versioned: { description: 'a bitemporal version table per slot and scope', track: 'structured', create: () => new VersionedStore() },
  latest: { description: 'last write by arrival wins; ignores valid time and expiry', track: 'structured', create: () => new LatestStore() },
  hybrid: {
    description: "upstream's reference hybrid: keyword-read turns, gold resolution (drops retro corrections)",
    track: 'conversation',
    create: () => new HybridStore(),
  },
  'hybrid-corrections': {
    description: 'hybrid with a phrasing-rule reader that also places retro corrections',
    track: 'conversation',
    create: () => new CorrectingHybridStore(),
  },
}

/** True when `name` is one of `BUILTIN_NAMES`. */
export function isBuiltinName(name: string): name is BuiltinName {
  return (BUILTIN_NAMES as readonly string[]).includes(name)
}

/** A factory of fresh stores of baseline `name` (named `builtin:NAME`); throws `AdapterUsageError` (`BASELINE_UNKNOWN`) naming the choices. */
export function builtinAdapter(name: BuiltinName | string): StoreFactory {
  if (!isBuiltinName(name)) {
    throw new AdapterUsageError(
      'BASELINE_UNKNOWN',
      `unknown baseline ${JSON.stringify(name)}; choose one of ${BUILTIN_NAMES.join(', ')} (e.g. builtinAdapter('oracle'), or \`--adapter builtin:oracle\` on the command line)`,
    )
  }
  const create = BUILTIN_ADAPTERS[name].create
  const factory: StoreFactory = () => create()
  Object.defineProperty(factory, 'name', { value: `builtin:${name}` })
  return factory
}

export { OracleStore, VersionedStore, LatestStore, HybridStore, CorrectingHybridStore }
export { VersionTable } from './versioned.js'
export { BaselineQueryError, structuredQuery, type BaselineQueryField } from './query.js'
export { extractAssertion, readQuestion } from './hybrid-corrections.js'
export { readTurn } from './hybrid.js'
