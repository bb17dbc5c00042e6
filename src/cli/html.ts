/**
 * The HTML report of `run`, `score` and `probe`: the `--html FILE` and
 * `--no-html` options, and writing the page, where a failure is a warning
 * (the run's own result files and exit code stand).
 */
import { Option } from 'commander'
import { HtmlReportError } from '../report/html/errors.js'
import { writeHtmlReport } from '../report/html/model/build.js'
import type { HtmlReportInput } from '../report/html/model/input.js'
import { describeWriteError } from './fs-errors.js'

/** `--html FILE` as given, `false` for `--no-html`, undefined for the command's default place. */
export type HtmlOption = string | false | undefined

/** `--html <file>`, for `addOption`; `where` says where the page goes by default. */
export function htmlOption(where: string): Option {
  return new Option('--html <file>', `write the HTML report to FILE (default: ${where})`)
}

/** `--no-html`, for `addOption`. */
export function noHtmlOption(): Option {
  return new Option('--no-html', 'write no HTML report')
}

/** Write the page; returns the line that says where it is, or null after a warning on stderr naming what went wrong. */
export function writeCliPage(command: string, path: string, input: HtmlReportInput): string | null {
  try {
    return `HTML report: ${writeHtmlReport(path, input)}`
  } catch (error) {
    const why = error instanceof HtmlReportError ? error.message : describeWriteError(error, path)
    process.stderr.write(`timegrounded ${command}: warning: the HTML report was not written to ${path}: ${why}\n`)
    return null
  }
}
