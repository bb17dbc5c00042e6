/**
 * The pool of adapter processes: up to `concurrency` of them, each a store spoken to over the wire
 * protocol, a dead one replaced at the next lease. Its own file: processes, not objects, with their
 * own start, adoption and interrupt handling.
 */
import type { AdapterProcess, StartedAdapter } from '../adapters/adapter-process.js'
import { type CommandAdapterSpec, describeCommand } from '../adapters/command.js'
import { AdapterFault, AdapterRefusedError, AdapterStartError, toFault } from '../adapters/errors.js'
import { answerFromWire, capabilitiesFromWire, eventToWire, queryToWire, resetRequest, type DeclaredCapabilities } from '../adapters/protocol.js'
import type { Track } from '../adapters/types.js'
import { infoOf, publicCapabilities, refuseUnlessFit } from './declared-capabilities.js'
import { checkConcurrency, checkTimeout, LeasingPool } from './leasing-pool.js'
import type { AdapterInfo, LeasedStore, PoolOptions } from './store-lease.js'

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
export class CommandPool extends LeasingPool<Worker> {
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
