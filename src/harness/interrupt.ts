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

function onSignal(signal: NodeJS.Signals): void {
  if (closing) return
  closing = true
  const all = Promise.allSettled([...closers].map((close) => close()))
  const bounded = new Promise((resolve) => setTimeout(resolve, CLOSE_WITHIN_MS).unref())
  void Promise.race([all, bounded]).then(() => {
    for (const name of SIGNALS) process.removeListener(name, onSignal)
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
