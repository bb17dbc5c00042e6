/**
 * The HTML report of `run`, `score` and `probe`: the `--html FILE` and
 * `--no-html` options, and the line (or the warning on stderr) that says how
 * writing the page went (`writeReportPage` writes it and never throws).
 */
import { join, resolve } from 'node:path'
import { Option } from 'commander'
import { DEFAULT_HTML_FILE } from '../harness/result-files.js'
import type { HtmlReportInput } from '../report/html/model/input.js'
import { writeReportPage } from '../report/html/write-page.js'

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
  const written = writeReportPage(path, input)
  if (written.path !== null) return `HTML report in ${written.path}`
  process.stderr.write(`timegrounded ${command}: warning: the HTML report was not written to ${path}: ${written.problem}\n`)
  return null
}

/**
 * The earlier run's files worth a word: `removed` without the page at the default place when this
 * command writes its own page there (it is replaced, as report.json is, not left out).
 */
export function removedNotReplaced(removed: readonly string[], html: HtmlOption, dir: string): string[] {
  const pageThere = html !== false && (html === undefined || resolve(html) === join(dir, DEFAULT_HTML_FILE))
  return pageThere ? removed.filter((name) => name !== DEFAULT_HTML_FILE) : [...removed]
}
