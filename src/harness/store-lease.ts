/**
 * The lease contract: what a pool hands the runner (`StoreLease`, `LeasedStore`), what it records of
 * who is under test, and the `StorePool` every kind of pool implements. Its own file so that the
 * runner, the manifest and the suites depend on the contract, not on how any pool is built.
 */
import type { EpisodeContext, MemoryStore, StoreAnswer, StoreCapabilities, StoreEvent, StoreQuery, Track } from '../adapters/types.js'

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
