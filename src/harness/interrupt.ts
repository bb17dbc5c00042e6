/**
 * Closing what a run started when the run is interrupted (Ctrl-C, a CI job
 * cancelled): without this, the stores' `close()` never runs and what they
 * own (server processes, temporary folders) outlives the run. Each pool that
 * holds long-lived stores registers a closer while it is open; on SIGINT or
 * SIGTERM every closer runs, bounded in time, and then the signal is raised
 * again, so the process ends as it would have. A worker process whose parent
 * leaves without stopping it (the parent alone was signalled) takes that as a
 * SIGTERM.
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
 * its parent reports closed (Vitest 4's forks pool's workers exit at once),
 * and that parent, hit by the same Ctrl-C or signalled alone, often exits
 * first without waiting for it: the worker would end before any store closed.
 * So while closers are registered, the process's 'error' listeners are set
 * aside: that error starts the closing as a SIGTERM would, any other goes on
 * to them. The returned function puts them back.
 */
function takeOverErrors(): () => void {
  // Node's typings leave 'error' out of process's own events; it is emitted there all the same.
  const emitter: NodeJS.EventEmitter = process
  const setAside = emitter.listeners('error') as ((error: unknown) => void)[]
  const filter = (error: unknown): void => {
    if (PARENT_GONE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')) onParentGone()
    // With no listener of its own, the process would have thrown it.
    else if (setAside.length === 0) throw error
    else for (const listener of setAside) listener.call(process, error)
  }
  emitter.removeAllListeners('error')
  emitter.on('error', filter)
  return () => {
    emitter.removeListener('error', filter)
    for (const listener of setAside) emitter.on('error', listener)
  }
}

function onSignal(signal: NodeJS.Signals): void {
  if (closing) return
  closing = true
  const all = Promise.allSettled([...closers].map((close) => close()))
  const bounded = new Promise((resolve) => setTimeout(resolve, CLOSE_WITHIN_MS).unref())
  void Promise.race([all, bounded]).then(() => {
    stopListening()
    process.kill(process.pid, signal)
  })
}

/** The parent of a process started with an IPC channel (a test runner's worker) left without stopping it. */
function onParentGone(): void {
  onSignal('SIGTERM')
}

let restoreErrors: (() => void) | undefined

function listen(): void {
  for (const name of SIGNALS) process.on(name, onSignal)
  process.on('disconnect', onParentGone)
  restoreErrors = takeOverErrors()
}

function stopListening(): void {
  for (const name of SIGNALS) process.removeListener(name, onSignal)
  process.removeListener('disconnect', onParentGone)
  restoreErrors?.()
  restoreErrors = undefined
}

/** Run `close` if the process is interrupted while it is registered; returns the function that unregisters it. */
export function closeOnInterrupt(close: Closer): () => void {
  if (closers.size === 0) listen()
  closers.add(close)
  return () => {
    closers.delete(close)
    if (closers.size === 0 && !closing) stopListening()
  }
}
