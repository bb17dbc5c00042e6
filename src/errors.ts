/**
 * Errors the project throws at its users. Each class has a stable `code` that
 * callers may branch on; messages name the culprit (file:line, field, option in
 * backticks) and the fix.
 */
import type { DatasetIssue } from './tivarq/validate.js'

/** Base class of every user-facing error of timegrounded; `code` never changes between versions. */
export class TimegroundedError extends Error {
  /** Stable machine-readable identifier, e.g. `DATASET_INVALID`. */
  readonly code: string

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
    this.code = code
  }
}

/**
 * A TIVARQ directory failed validation. `issues` holds what was found (as data,
 * bounded by `maxIssues`); `omittedIssues` counts those cut; the message renders them one per line.
 */
export class DatasetError extends TimegroundedError {
  readonly issues: readonly DatasetIssue[]
  readonly omittedIssues: number
  readonly dir: string

  constructor(dir: string, issues: readonly DatasetIssue[], omittedIssues: number, renderedIssues: string) {
    const total = issues.length + omittedIssues
    super(
      'DATASET_INVALID',
      `TIVARQ dataset at ${dir} is invalid (${total} ${total === 1 ? 'issue' : 'issues'}); fix the files or point to a valid copy:\n${renderedIssues}`,
    )
    this.dir = dir
    this.issues = issues
    this.omittedIssues = omittedIssues
  }
}
