/**
 * `run`'s adapter process, started before the run command is even loaded. A child's own start-up
 * (a Node or Python interpreter, its imports) and its capabilities reply take about 0.1 s, which
 * otherwise follow our module and dataset loading instead of overlapping them. The process is
 * started as the pool starts every one (`startAdapter`, same spec and timeout as `run` would give
 * it); `run` hands it to its pool, which adopts it. One that nobody took (a usage error, an
 * unreadable dataset, `--help` after all) is closed by `closeEarlyAdapter` as a pool closes an idle
 * process: stdin ended, a grace period, then killed.
 */
import type { StartedAdapter } from '../adapters/adapter-process.js'
import { commandAdapter, DEFAULT_TIMEOUT_MS } from '../adapters/command.js'
import { rangeArgument } from './exit-codes.js'

let early: StartedAdapter | null = null

/**
 * The capabilities call's timeout runs from the spawn, as it always has; but while this process loads
 * its modules and the dataset, a reply cannot be read, so a timer shorter than that loading (under a
 * busy machine, a second or more) could fire on an adapter that did answer in time. Below this, the
 * process starts when the pool opens, as without the head start.
 */
const EARLY_START_MIN_TIMEOUT_MS = 5_000

/**
 * The adapter command and call timeout of `run [OPTIONS] -- COMMAND [ARGS…]`, or null for any other
 * form: another command, help, `--adapter` (no process then), no command, a `--timeout-ms` that
 * commander would refuse or too short to share with our loading. A form read wrong costs only the
 * head start: the pool adopts a process only when it was started with the spec and timeout the run
 * itself resolved.
 */
export function earlyAdapterCommand(args: readonly string[]): { argv: string[]; timeoutMs: number } | null {
  const end = args.indexOf('--')
  if (args[0] !== 'run' || end === -1 || end === args.length - 1 || args[end + 1] === '') return null
  const options = args.slice(1, end)
  if (options.some((arg) => arg === '-h' || arg === '--help' || arg === '--adapter' || arg.startsWith('--adapter='))) return null
  let timeoutMs = DEFAULT_TIMEOUT_MS
  for (let at = 0; at < options.length; at++) {
    const arg = options[at] as string
    const text = arg === '--timeout-ms' ? options[++at] : arg.startsWith('--timeout-ms=') ? arg.slice('--timeout-ms='.length) : undefined
    if (text === undefined) continue
    try {
      timeoutMs = rangeArgument('timeoutMs')(text)
    } catch {
      return null
    }
  }
  return timeoutMs < EARLY_START_MIN_TIMEOUT_MS ? null : { argv: args.slice(end + 1), timeoutMs }
}

/**
 * Start the adapter process of `run … -- COMMAND`, when `args` (the arguments after the script) are
 * that form. The process client is loaded here, not by this module: `run` takes the process from
 * this module whatever its store is, and an in-process store needs no process machinery.
 */
export async function startEarlyAdapter(args: readonly string[]): Promise<void> {
  const command = earlyAdapterCommand(args)
  if (command === null || early !== null) return
  const { startAdapter } = await import('../adapters/adapter-process.js')
  try {
    early = startAdapter(commandAdapter(command.argv, { timeoutMs: command.timeoutMs }), command.timeoutMs)
  } catch {
    // What refuses to start here (an argument `spawn` rejects) is left to the pool, which reports it as usual.
    early = null
  }
}

/** The process started early, handed over once (to the pool, which owns it from then on); null when none was started or it was taken. */
export function takeEarlyAdapter(): StartedAdapter | null {
  const taken = early
  early = null
  return taken
}

/**
 * Close the early process if nobody took it, as a pool closes an idle process. What went wrong on
 * its way out is not reported: the run never used it, and the reason the run stopped was.
 */
export async function closeEarlyAdapter(): Promise<void> {
  const left = takeEarlyAdapter()
  if (left === null) return
  await left.process.close(Math.min(left.timeoutMs, 2_000))
}
