/**
 * Stores on lease, one episode at a time. Whatever the source — a store
 * object, a factory, or an adapter command — the runner sees the same
 * `StoreLease`: a store whose every method is async, bounded by a timeout, and
 * fails only with an `AdapterFault`. Data crosses into in-process stores as
 * fresh copies, and answers come back as fresh copies. This file picks the kind
 * of pool for a source; the contract is store-lease.ts, the kinds are
 * in-process-pools.ts and command-pool.ts.
 */
import type { StartedAdapter } from '../adapters/adapter-process.js'
import { AdapterUsageError } from '../adapters/errors.js'
import { isPooledSpec } from '../adapters/pooled.js'
import { describeValue, isCommandSpec, isIsolatedByConstruction, isMemoryStore, type MemorySource } from '../adapters/source.js'
import { CommandPool } from './command-pool.js'
import { FactoryPool, ReusedStorePool, SingleStorePool } from './in-process-pools.js'
import type { PoolOptions, StorePool } from './store-lease.js'

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
