/**
 * What can go wrong with recorded model calls, each with a stable code: a
 * cassette line that is not what was written, a request with no recording
 * to replay, a mode that is not one, a cassette that cannot be written.
 */
import { TimegroundedError } from '../errors.js'

/** The codes of `CassetteError`, each with what it means. */
export interface CassetteErrorCodes {
  /** A cassette line is not a recorded call as timegrounded writes one (bad JSON, a field of the wrong shape, an edited entry). */
  CASSETTE_INVALID: 'CassetteError'
  /** In replay, a request has no recorded answer. */
  CASSETTE_MISS: 'CassetteError'
  /** The mode (option or environment variable) is not record, replay or auto. */
  CASSETTE_MODE_INVALID: 'CassetteError'
  /** The cassette could not be written (its folder, its lock or the rename failed). */
  CASSETTE_WRITE_FAILED: 'CassetteError'
  /** A model answer cannot be recorded (it holds a part a cassette does not carry). */
  CASSETTE_UNRECORDABLE: 'CassetteError'
}

/** Recorded model calls failed; `code` says how (see `CassetteErrorCodes`). */
export class CassetteError extends TimegroundedError<keyof CassetteErrorCodes> {
  constructor(
    code: keyof CassetteErrorCodes,
    message: string,
    /** The cassette file concerned. */
    readonly file: string,
    /** The 1-based line, for a problem with one line; null otherwise. */
    readonly line: number | null = null,
  ) {
    super(code, message)
  }
}
