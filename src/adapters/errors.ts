/**
 * What can go wrong between the harness and a store. Faults are recorded in
 * prediction rows (never thrown out of a run); refusals and start failures stop
 * a run before it begins.
 */
import { TimegroundedError } from '../errors.js'

/** Why one call to a store failed (each code is described in `AdapterFaultCodes`). `fatal` faults lose the store's memory: the process is restarted. */
export type AdapterFaultCode = keyof AdapterFaultCodes

const FATAL: ReadonlySet<AdapterFaultCode> = new Set(['ADAPTER_TIMEOUT', 'ADAPTER_EXITED', 'ADAPTER_RESTART_FAILED', 'ADAPTER_PROTOCOL'])

/** The codes of `AdapterFault`, each with what it means. */
export interface AdapterFaultCodes {
  /** A store call did not settle within the timeout; a process is killed. */
  ADAPTER_TIMEOUT: 'AdapterFault'
  /** The adapter process exited or was killed by a signal. */
  ADAPTER_EXITED: 'AdapterFault'
  /** A fresh store for a lease could not be made: the process did not (re)start or failed its handshake, or the factory returned no store. */
  ADAPTER_RESTART_FAILED: 'AdapterFault'
  /** A line on stdout was not one JSON object answering the request (non-JSON, extra or oversized line). */
  ADAPTER_PROTOCOL: 'AdapterFault'
  /** The adapter answered `{"error": …}`. */
  ADAPTER_REPLIED_ERROR: 'AdapterFault'
  /** An answer whose state or value is not valid, that is past a limit of src/limits.ts (its size, its usage or cost), or a reply line over `MAX_REPLY_LINE_CHARS`. */
  ADAPTER_INVALID_ANSWER: 'AdapterFault'
  /** An in-process store method threw or rejected. */
  ADAPTER_THREW: 'AdapterFault'
}

/** One failed call to a store. The runner records `message` in the prediction row, prefixed by the call. */
export class AdapterFault extends TimegroundedError<keyof AdapterFaultCodes> {
  /** True when the store's state is lost or unknown (process dead, stream out of step, call abandoned). */
  readonly fatal: boolean
  constructor(code: AdapterFaultCode, message: string) {
    super(code, message)
    this.fatal = FATAL.has(code)
  }
}

/** The codes of `AdapterRefusedError`, each with what it means. */
export interface AdapterRefusedErrorCodes {
  /** The harness refuses an adapter: wrong protocol, an undeclared track, or a shared store without `reset()`. */
  ADAPTER_REFUSED: 'AdapterRefusedError'
}

/** The harness refuses an adapter: wrong protocol, or the requested track is not declared. */
export class AdapterRefusedError extends TimegroundedError<keyof AdapterRefusedErrorCodes> {
  constructor(
    message: string,
    /** What the adapter declared, as it declared it. */
    readonly declared: unknown,
  ) {
    super('ADAPTER_REFUSED', message)
    // The message says what to change; a stack into the harness would only push it out of an adapter's stderr tail.
    this.stack = `${this.name} [ADAPTER_REFUSED]: ${message}`
  }
}

/** The codes of `AdapterStartError`, each with what it means. */
export interface AdapterStartErrorCodes {
  /** The store or adapter could not be started at all (bad command, crash before the handshake). */
  ADAPTER_START_FAILED: 'AdapterStartError'
}

/** The store or adapter could not be started at all (bad command, crash before the handshake, a factory that throws). */
export class AdapterStartError extends TimegroundedError<keyof AdapterStartErrorCodes> {
  /** Why, without naming the store (the message does): e.g. ``spawn ./my-adapter ENOENT. Check that the command exists and is executable.`` */
  readonly reason: string
  /** `failed` names what was being done to which store, e.g. ``could not start adapter `./my-adapter` ``. */
  constructor(failed: string, reason: string) {
    super('ADAPTER_START_FAILED', `${failed}: ${reason}`)
    this.reason = reason
  }
}

/** Why the harness refused an argument before running anything (each code is described in `AdapterUsageErrorCodes`). */
export type AdapterUsageCode = keyof AdapterUsageErrorCodes

/** The codes of `AdapterUsageError`, each with what it means. */
export interface AdapterUsageErrorCodes {
  /** `openPool(source)` got something that is not a store, a factory or a command adapter. */
  ADAPTER_SOURCE_INVALID: 'AdapterUsageError'
  /** `commandAdapter(argv, options)` got an empty command, a non-string argument or a bad option. */
  ADAPTER_COMMAND_INVALID: 'AdapterUsageError'
  /** A pool option (`concurrency`, `timeoutMs`) is out of range. */
  ADAPTER_OPTION_INVALID: 'AdapterUsageError'
  /** `referenceStore(name)` got a name that is not a reference store. */
  REFERENCE_STORE_UNKNOWN: 'AdapterUsageError'
}

/** A bad argument to `openPool`, `commandAdapter` or `referenceStore`: a programming error the caller fixes; nothing was started. */
export class AdapterUsageError extends TimegroundedError<keyof AdapterUsageErrorCodes> {
  constructor(code: AdapterUsageCode, message: string) {
    super(code, message)
  }
}

/** The codes of `PoolClosedError`, each with what it means. */
export interface PoolClosedErrorCodes {
  /** `acquire()` on a pool after `close()`. */
  POOL_CLOSED: 'PoolClosedError'
}

/** `acquire()` on a pool after `close()` (code `POOL_CLOSED`). */
export class PoolClosedError extends TimegroundedError<keyof PoolClosedErrorCodes> {
  constructor(message: string) {
    super('POOL_CLOSED', message)
  }
}

/** A bad argument as a message shows it: numbers as written (`NaN`, `-5`), everything else as JSON. */
export function showArgument(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'function' || value === undefined)
    return typeof value === 'function' ? 'a function' : String(value)
  return JSON.stringify(value) ?? String(value)
}

/** Turn anything thrown by a store into a fault (non-fatal unless it already is a fault). */
export function toFault(error: unknown, what: string): AdapterFault {
  if (error instanceof AdapterFault) return error
  const reason = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error)
  return new AdapterFault('ADAPTER_THREW', `${what} threw: ${reason}`)
}
