/**
 * Exit codes and usage errors shared by the subcommands. An exit code is a
 * pure function of what the command found, so a CI script can branch on it.
 */
import { InvalidArgumentError } from 'commander'
import { TimegroundedError } from '../errors.js'
import { type OptionRangeName, rangeProblem } from '../limits.js'
import { terminalText } from '../report/escape.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import type { ValidationResult } from '../tivarq/validate.js'

/** The exit codes of `timegrounded`: 0 clean, 1 problems found, 2 usage or data error, 3 internal error, 4 a result file could not be written (I/O error). */
export const EXIT = { clean: 0, problems: 1, usage: 2, internal: 3, io: 4 } as const

/** One of the values of `EXIT`. */
export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/**
 * `run` and `score`: clean when every report is complete (no error rows, not
 * interrupted). An error row is never a pass: its probe leaves every rate's
 * denominator, so the rates of an incomplete run can only look better.
 */
export function reportsExitCode(reports: readonly TivarqReport[]): ExitCode {
  return reports.every((report) => report.complete) ? EXIT.clean : EXIT.problems
}

/** `validate`: clean when the dataset is valid. */
export function validationExitCode(result: ValidationResult): ExitCode {
  return result.status === 'valid' ? EXIT.clean : EXIT.problems
}

/** `--output ""`: an empty path would silently mean the current folder. */
export function checkOutputPath(option: string, path: string): void {
  if (path.trim() === '') throw new UsageError(`\`${option}\` is empty; give the directory for the result files, e.g. \`${option} out/run\``)
}

/** The codes of `UsageError`, each with what it means. */
export interface UsageErrorCodes {
  /** A command line the user must fix (exit 2). */
  USAGE: 'UsageError'
}

/** A command line the user must fix (code `USAGE`, exit 2). */
export class UsageError extends TimegroundedError<keyof UsageErrorCodes> {
  constructor(message: string) {
    super('USAGE', message)
  }
}

/**
 * A commander argument parser for a numeric option whose range is `OPTION_RANGES[name]`; commander
 * names the option in its refusal, and the refusal names the range and its constant.
 */
export function rangeArgument(name: OptionRangeName): (text: string) => number {
  return (text) => {
    const value = text.trim() === '' ? Number.NaN : Number(text)
    const problem = rangeProblem(name, value)
    if (problem !== null) throw new InvalidArgumentError(`expected ${problem}.`)
    return value
  }
}

/** Write `timegrounded <command>: <message>` to stderr and set the exit code; the one place a command reports a failure. */
export function fail(command: string, message: string, code: ExitCode): void {
  // Messages quote what adapters, servers and files said: escaped, so none of it acts on the terminal.
  process.stderr.write(`timegrounded ${command}: ${terminalText(message, { keepNewlines: true })}\n`)
  process.exitCode = code
}
