/**
 * What can go wrong between the harness and a store. Faults are recorded in
 * prediction rows (never thrown out of a run); refusals and start failures stop
 * a run before it begins.
 */
import { type CodeOf, TimegroundedError } from '../errors.js'

/** Why one call to a store failed (each code is described in `ErrorCodes`). `fatal` faults lose the store's memory: the process is restarted. */
export type AdapterFaultCode = CodeOf<'AdapterFault'>

const FATAL: ReadonlySet<AdapterFaultCode> = new Set(['ADAPTER_TIMEOUT', 'ADAPTER_EXITED', 'ADAPTER_RESTART_FAILED', 'ADAPTER_PROTOCOL'])

/** One failed call to a store. The runner records `message` in the prediction row, prefixed by the call. */
export class AdapterFault extends TimegroundedError<CodeOf<'AdapterFault'>> {
  /** True when the store's state is lost or unknown (process dead, stream out of step, call abandoned). */
  readonly fatal: boolean
  constructor(code: AdapterFaultCode, message: string) {
    super(code, message)
    this.fatal = FATAL.has(code)
  }
}

/** The harness refuses an adapter: wrong protocol, or the requested track is not declared. */
export class AdapterRefusedError extends TimegroundedError<CodeOf<'AdapterRefusedError'>> {
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

/** The store or adapter could not be started at all (bad command, crash before the handshake, a factory that throws). */
export class AdapterStartError extends TimegroundedError<CodeOf<'AdapterStartError'>> {
  /** Why, without naming the store (the message does): e.g. ``spawn ./my-adapter ENOENT. Check that the command exists and is executable.`` */
  readonly reason: string
  /** `failed` names what was being done to which store, e.g. ``could not start adapter `./my-adapter` ``. */
  constructor(failed: string, reason: string) {
    super('ADAPTER_START_FAILED', `${failed}: ${reason}`)
    this.reason = reason
  }
}

/** Why the harness refused an argument before running anything (each code is described in `ErrorCodes`). */
export type AdapterUsageCode = CodeOf<'AdapterUsageError'>

/** A bad argument to `openPool`, `commandAdapter` or `referenceStore`: a programming error the caller fixes; nothing was started. */
export class AdapterUsageError extends TimegroundedError<CodeOf<'AdapterUsageError'>> {
  constructor(code: AdapterUsageCode, message: string) {
    super(code, message)
  }
}

/** `acquire()` on a pool after `close()` (code `POOL_CLOSED`). */
export class PoolClosedError extends TimegroundedError<CodeOf<'PoolClosedError'>> {
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
