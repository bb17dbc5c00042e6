/**
 * The one interrupt path (Ctrl-C, SIGTERM, SIGHUP, a CI job cancelled).
 * Whatever must happen before the process ends registers here while it is
 * needed: a pool's long-lived stores to close, adapter processes to kill, a
 * CLI command's partial results to write. On the first signal every
 * registered closer starts, all of them bounded by one grace period
 * (`INTERRUPT_GRACE_MS`); then the process ends as its closers asked: with an
 * exit code (the CLI's "incomplete"), carrying on (`run` interrupted while
 * its adapters shut down still writes its page), or by raising the signal
 * again, so it ends as it would have. A second signal ends it at once.
 *
 * Nothing listens while nothing is registered, so the signals keep their
 * default action (and a test runner's own handling) the rest of the time.
 *
 * Two places a signal never reaches are covered too. A worker process whose
 * parent leaves without stopping it (the parent alone was signalled) takes
 * that as a SIGTERM. A worker thread (Vitest's `pool: 'threads'`, Jest's
 * `workerThreads`) gets no signal at all: the process's signals go to its main
 * thread. So a test runner's shells call `joinInterruptRelay()` in both its
 * main thread and its workers; the main thread then tells every thread with
 * closers of the interrupt and waits, within the same grace period, until
 * each says its closers are done. It waits blocked: the test runners end the
 * process a moment after the signal, and only a blocked main thread holds
 * them off. (node:worker_threads loads only there: the CLI never needs it.)
 */
import { EventEmitter } from 'node:events'
import type { BroadcastChannel, MessagePort } from 'node:worker_threads'

/** How long the closers of an interrupt may take, all together, before the process ends anyway. */
export const INTERRUPT_GRACE_MS = 5_000

/** Work to do when interrupted; the process waits (within the grace period) for a promise it returns. */
export type Closer = () => unknown

/** How the process ends once a closer's work is done. */
export interface CloserOptions {
  /** Exit with this code instead of dying of the signal (the CLI's commands: 1, incomplete). */
  exitCode?: number
  /** Do not end the process: the code that registered this closer finishes the run itself. @default false */
  carryOn?: boolean
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const

/**
 * The process the signals reach. Jest runs each test file in a vm context whose `process` is a copy
 * with events of its own, which no signal (nor 'exit') ever reaches: listening there, a Jest run
 * interrupted mid-run left its adapter processes running. Node's core modules come from the real
 * context even there, and a function made by their realm's Function constructor sees that realm's
 * globals, the real `process` among them. Anywhere else it is the same `process`.
 */
function hostProcess(): NodeJS.Process {
  try {
    const OuterFunction = EventEmitter.constructor as FunctionConstructor
    const outer = new OuterFunction('return typeof process === "object" ? process : undefined')() as NodeJS.Process | undefined
    return outer ?? process
  } catch {
    // Code generation from strings is off (`--disallow-code-generation-from-strings`): the copy is all there is.
    return process
  }
}

/** The real process (see `hostProcess`): listen, end and learn of exits on it. */
export const host = hostProcess()

const closers = new Map<Closer, CloserOptions>()
let closing = false
let listening = false

// ---------------------------------------------------------------- the process

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
  const emitter: NodeJS.EventEmitter = host
  const setAside = emitter.listeners('error') as ((error: unknown) => void)[]
  const filter = (error: unknown): void => {
    if (PARENT_GONE.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')) onParentGone()
    // With no listener of its own, the process would have thrown it.
    else if (setAside.length === 0) throw error
    else for (const listener of setAside) listener.call(host, error)
  }
  emitter.removeAllListeners('error')
  emitter.on('error', filter)
  return () => {
    emitter.removeListener('error', filter)
    for (const listener of setAside) emitter.on('error', listener)
  }
}

/** The parent of a process started with an IPC channel (a test runner's worker) left without stopping it. */
function onParentGone(): void {
  if (!closing) interrupted('SIGTERM')
}

function onSignal(signal: NodeJS.Signals): void {
  if (closing) {
    // Asked twice: the user will not wait for the closers, nor for a run carrying on.
    endNow(signal, [...closers.values()], true)
    return
  }
  interrupted(signal)
}

let restoreErrors: (() => void) | undefined

function listen(): void {
  if (listening) return
  listening = true
  for (const name of SIGNALS) host.on(name, onSignal)
  host.on('disconnect', onParentGone)
  restoreErrors = takeOverErrors()
}

function stopListening(): void {
  if (!listening) return
  listening = false
  for (const name of SIGNALS) host.removeListener(name, onSignal)
  host.removeListener('disconnect', onParentGone)
  restoreErrors?.()
  restoreErrors = undefined
}

/** Start every closer (and, in a main thread, the threads' closers), then end the process as they asked. */
function interrupted(signal: NodeJS.Signals): void {
  closing = true
  const deadline = Date.now() + INTERRUPT_GRACE_MS
  interruptThreads(deadline)
  const ending = [...closers.entries()]
  const all = Promise.allSettled(ending.map(([close]) => Promise.resolve().then(close)))
  let timer: NodeJS.Timeout | undefined
  const bounded = new Promise((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))
    timer.unref()
  })
  void Promise.race([all, bounded]).then(() => {
    clearTimeout(timer)
    endNow(
      signal,
      ending.map(([, options]) => options),
    )
  })
}

/** End the process as the closers of this interrupt asked: carry on (unless `forced`), exit with a code, or die of the signal. */
function endNow(signal: NodeJS.Signals, asked: readonly CloserOptions[], forced = false): void {
  if (!forced && asked.some((options) => options.carryOn === true)) {
    closing = false
    if (closers.size === 0 && threads.size === 0) stopListening()
    return
  }
  stopListening()
  const code = asked.find((options) => options.exitCode !== undefined)?.exitCode
  if (code !== undefined) host.exit(code)
  // Another listener (a test runner's own) ends the process its way; with none, die of the signal as Node would have.
  if (host.listenerCount(signal) === 0) host.kill(host.pid, signal)
}

/**
 * Run `close` if the process is interrupted while it is registered; returns the function that
 * unregisters it. `options` say how the process ends afterwards (by default, of the signal).
 */
export function closeOnInterrupt(close: Closer, options: CloserOptions = {}): () => void {
  closers.set(close, options)
  if (inThread) joinRelay()
  else listen()
  return () => {
    closers.delete(close)
    if (closers.size > 0 || closing) return
    if (inThread) leaveRelay()
    else if (threads.size === 0) stopListening()
  }
}

// ---------------------------------------------------------------- worker threads

/** The channel between a process's main thread and its worker threads (messages below). */
const RELAY = 'timegrounded:interrupt'

/** A thread with closers says `open` (with the flag it raises once they are done), then `done` when it has none left. */
type FromThread = { kind: 'open'; thread: number; closed: SharedArrayBuffer } | { kind: 'done'; thread: number }
type FromMain = { kind: 'interrupt' }

type WorkerThreads = typeof import('node:worker_threads')

let channel: BroadcastChannel | undefined
/** node:worker_threads, once the relay is joined. */
let workerThreads: WorkerThreads | undefined
/** This is a worker thread that joined the relay: its closers wait for the main thread's word, not for a signal. */
let inThread = false

function openChannel(api: WorkerThreads, onMessage: (data: unknown) => void): BroadcastChannel {
  const opened = new api.BroadcastChannel(RELAY)
  opened.onmessage = (event) => onMessage((event as MessageEvent).data)
  // It must never keep a thread, or the process, alive.
  opened.unref()
  return opened
}

/** In the main thread: the flag of each thread that has closers, raised (to 1) once they are done. */
const threads = new Map<number, Int32Array>()

function onThreadMessage(data: unknown): void {
  const message = data as FromThread
  if (message.kind === 'open') {
    threads.set(message.thread, new Int32Array(message.closed))
    listen()
  } else if (message.kind === 'done') {
    threads.delete(message.thread)
    if (threads.size === 0 && closers.size === 0 && !closing) stopListening()
  }
}

/**
 * node:worker_threads, loaded only here. Synchronously where Node can (a Jest test file's vm context
 * refuses a dynamic import); undefined where neither way works there, which only leaves threads out.
 */
async function loadWorkerThreads(): Promise<WorkerThreads | undefined> {
  const builtin = (host as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule
  if (typeof builtin === 'function') return builtin.call(host, 'node:worker_threads') as WorkerThreads
  return import('node:worker_threads').catch(() => undefined)
}

/**
 * In a test runner's main thread, pass interrupts on to the worker threads that run the tests and
 * wait for their closers; in a worker thread, have this thread's closers run when the main thread
 * says so (see the top of this file). In a worker process (a forks pool), which gets its own
 * signals, it changes nothing. Once is enough; later calls do nothing.
 */
export async function joinInterruptRelay(): Promise<void> {
  if (workerThreads !== undefined) return
  const api = await loadWorkerThreads()
  if (api === undefined || workerThreads !== undefined) return
  workerThreads = api
  if (api.isMainThread) {
    channel = openChannel(api, onThreadMessage)
    return
  }
  inThread = true
  // Closers registered before the relay was joined were waiting for a signal that never comes here.
  if (closers.size > 0) {
    stopListening()
    joinRelay()
  }
}

/** Tell the threads with closers, and wait, blocked, until each has closed or `deadline` passes. */
function interruptThreads(deadline: number): void {
  if (channel === undefined || inThread || workerThreads === undefined) return
  // Node takes a BroadcastChannel here too (its docs say so), though its typings name only MessagePort.
  const port = channel as unknown as MessagePort
  const { receiveMessageOnPort } = workerThreads
  // Threads that opened just before the signal, whose message this thread has not read yet.
  for (let queued = receiveMessageOnPort(port); queued !== undefined; queued = receiveMessageOnPort(port)) onThreadMessage(queued.message)
  if (threads.size === 0) return
  channel.postMessage({ kind: 'interrupt' } satisfies FromMain)
  for (const flag of threads.values()) {
    const left = deadline - Date.now()
    if (left <= 0) break
    Atomics.wait(flag, 0, 0, left)
  }
}

let closedFlag: Int32Array | undefined

/** In a worker thread with closers: be known to the main thread, and close when it passes an interrupt on. */
function joinRelay(): void {
  if (closedFlag !== undefined || workerThreads === undefined) return
  channel ??= openChannel(workerThreads, (data) => {
    if ((data as FromMain).kind === 'interrupt' && !closing) void closeThread()
  })
  const closed = new SharedArrayBuffer(4)
  closedFlag = new Int32Array(closed)
  channel.postMessage({ kind: 'open', thread: workerThreads.threadId, closed } satisfies FromThread)
}

function leaveRelay(): void {
  if (closedFlag === undefined || channel === undefined || workerThreads === undefined) return
  closedFlag = undefined
  channel.postMessage({ kind: 'done', thread: workerThreads.threadId } satisfies FromThread)
}

/** The main thread passed an interrupt on: run this thread's closers, then raise the flag it waits on. */
async function closeThread(): Promise<void> {
  closing = true
  const flag = closedFlag
  const bounded = new Promise((resolve) => setTimeout(resolve, INTERRUPT_GRACE_MS).unref())
  await Promise.race([Promise.allSettled([...closers.keys()].map((close) => Promise.resolve().then(close))), bounded])
  if (flag === undefined) return
  Atomics.store(flag, 0, 1)
  Atomics.notify(flag, 0)
}
