/**
 * Closing what a run started when the run is interrupted (Ctrl-C, a CI job
 * cancelled): without this, the stores' `close()` never runs and what they
 * own (server processes, temporary folders) outlives the run. Each pool that
 * holds long-lived stores registers a closer while it is open; on SIGINT or
 * SIGTERM every closer runs, bounded in time, and then the signal is raised
 * again, so the process ends as it would have.
 */

type Closer = () => Promise<unknown>

const SIGNALS = ['SIGINT', 'SIGTERM'] as const
/** How long the closers may take before the signal is raised again anyway. */
const CLOSE_WITHIN_MS = 5_000

const closers = new Set<Closer>()
let closing = false

/** What an IPC channel whose other end is gone reports, on `process` itself. */
const PARENT_GONE = new Set(['ERR_IPC_CHANNEL_CLOSED', 'EPIPE'])

/**
 * A test runner's worker process usually ends itself as soon as the channel to
 * its parent reports closed, and that parent, hit by the same Ctrl-C, often
 * exits first without waiting for it (Vitest 4's forks pool does both): the
 * worker would then end before any store closed. So while the closers run,
 * the process's 'error' listeners are set aside and that one error is
 * dropped; the returned function puts the listeners back.
 */
function outliveParent(): () => void {
  // Node's typings leave 'error' out of process's own events; it is emitted there all the same.
  const emitter: NodeJS.EventEmitter = process
  const setAside = emitter.listeners('error') as ((error: unknown) => void)[]
  const drop = (error: unknown): void => {
    if (PARENT_GONE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')) return
    for (const listener of setAside) listener.call(process, error)
  }
  emitter.removeAllListeners('error')
  emitter.on('error', drop)
  return () => {
    emitter.removeListener('error', drop)
    for (const listener of setAside) emitter.on('error', listener)
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (closing) return
  closing = true
  const restore = outliveParent()
  const all = Promise.allSettled([...closers].map((close) => close()))
  const bounded = new Promise((resolve) => setTimeout(resolve, CLOSE_WITHIN_MS).unref())
  void Promise.race([all, bounded]).then(() => {
    for (const name of SIGNALS) process.removeListener(name, onSignal)
    restore()
    process.kill(process.pid, signal)
  })
}

/** Run `close` if the process is interrupted while it is registered; returns the function that unregisters it. */
export function closeOnInterrupt(close: Closer): () => void {
  if (closers.size === 0) for (const name of SIGNALS) process.on(name, onSignal)
  closers.add(close)
  return () => {
    closers.delete(close)
    if (closers.size === 0 && !closing) for (const name of SIGNALS) process.removeListener(name, onSignal)
  }
}
