/**
 * Writing the HTML report, for every caller (`run`, `score`, `probe`, the end
 * of a test run): the page is a view of result files already written, so a
 * page that cannot be written never throws; the caller gets the reason, worded
 * one way, and its own results and exit code stand.
 */
import { writeHtmlReport } from './model/build.js'
import type { HtmlReportInput } from './model/input.js'
import { HtmlReportError } from './errors.js'
import { describeWriteError } from '../../harness/write-errors.js'

/** The page written (its absolute path), or why not. */
export type WrittenPage = { path: string; problem: null } | { path: null; problem: string }

/** Render and write the page at `path`; never throws. */
export function writeReportPage(path: string, input: HtmlReportInput): WrittenPage {
  try {
    return { path: writeHtmlReport(path, input), problem: null }
  } catch (error) {
    return { path: null, problem: error instanceof HtmlReportError ? error.message : describeWriteError(error, path) }
  }
}
