/**
 * The base of every error the project throws at its users. Each subclass
 * carries stable codes that callers may branch on, declared beside it in the
 * layer that throws it — `interface <Name>Codes { <CODE>: '<Name>' }`, the
 * class built as `extends TimegroundedError<keyof <Name>Codes>` — so a class
 * can only be built with its own codes, and this bottom layer names none of
 * the classes above it. Messages name the
 * culprit (file:line, field, option in backticks) and the fix.
 */

/** Base class of every user-facing error of timegrounded; `code` never changes between versions. */
export class TimegroundedError<Code extends string = string> extends Error {
  /** Stable machine-readable identifier, e.g. `DATASET_INVALID`. */
  readonly code: Code

  protected constructor(code: Code, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}
