/**
 * The five reference stores (upstream's baselines, spec section 6), in-process.
 * Each also runs as an NDJSON process: `timegrounded reference NAME`.
 * ("Baseline" in timegrounded means only the committed gate file.)
 */
import { AdapterUsageError } from '../errors.js'
import type { StoreFactory, Track } from '../types.js'
import { HybridStore } from './hybrid.js'
import { CorrectingHybridStore } from './hybrid-corrections.js'
import { LatestStore } from './latest.js'
import { OracleStore } from './oracle.js'
import { VersionedStore } from './versioned.js'

/** Names of the reference stores, as `--adapter builtin:NAME` and `timegrounded reference NAME` take them. */
export const REFERENCE_STORE_NAMES = ['oracle', 'versioned', 'latest', 'hybrid', 'hybrid-corrections'] as const
/** One of `REFERENCE_STORE_NAMES`. */
export type ReferenceStoreName = (typeof REFERENCE_STORE_NAMES)[number]

/** A reference store: what it is, its track, and how to make one. */
export interface ReferenceStoreEntry {
  /** One line for `--help` and the docs. */
  description: string
  /** The track it is meant for. */
  track: Track
  /** A fresh, empty store. */
  create: StoreFactory
}

/** Every reference store by name; a name without an entry fails to type-check. */
export const REFERENCE_STORES: Readonly<Record<ReferenceStoreName, ReferenceStoreEntry>> = {
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

/** True when `name` is one of `REFERENCE_STORE_NAMES`. */
export function isReferenceStoreName(name: string): name is ReferenceStoreName {
  return (REFERENCE_STORE_NAMES as readonly string[]).includes(name)
}

/** A factory of fresh reference stores `name` (named `builtin:NAME`); throws `AdapterUsageError` (`REFERENCE_STORE_UNKNOWN`) naming the choices. */
export function referenceStore(name: ReferenceStoreName | string): StoreFactory {
  if (!isReferenceStoreName(name)) {
    throw new AdapterUsageError(
      'REFERENCE_STORE_UNKNOWN',
      `unknown reference store ${JSON.stringify(name)}; choose one of ${REFERENCE_STORE_NAMES.join(', ')} (e.g. referenceStore('oracle'), or \`--adapter builtin:oracle\` on the command line)`,
    )
  }
  const create = REFERENCE_STORES[name].create
  const factory: StoreFactory = () => create()
  Object.defineProperty(factory, 'name', { value: `builtin:${name}` })
  return factory
}

export { HybridStore }
export { ReferenceQueryError } from './query.js'
export { extractAssertion } from './hybrid-corrections.js'
export { readTurn } from './hybrid.js'
