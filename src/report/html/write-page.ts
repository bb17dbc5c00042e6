/**
 * Writing the HTML report, for every caller (`run`, `score`, `probe`,
 * `compare`, the end of a test run): the page is a view of result files
 * already written, so a page that cannot be written never throws; the caller
 * gets the reason, worded one way, and its own results and exit code stand.
 */
import { resolve } from 'node:path'
import { writeHtmlReport } from './model/build.js'
import type { HtmlReportInput } from './model/input.js'
import { type ComparisonTimelines, comparisonPageData } from './model/run-comparison.js'
import { HtmlReportError } from './errors.js'
import { reportPageChunks } from './render.js'
import type { RunComparison } from '../compare/compare-runs.js'
import { describeWriteError } from '../../harness/write-errors.js'
import { writeFileAtomic } from '../../harness/result-files.js'

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

/** Render and write the page of two runs compared at `path` (replaced atomically); never throws. */
export function writeComparisonPage(path: string, comparison: RunComparison, timelines: ComparisonTimelines, title: string): WrittenPage {
  const target = resolve(path)
  try {
    writeFileAtomic(target, reportPageChunks(comparisonPageData(comparison, timelines, title)))
    return { path: target, problem: null }
  } catch (error) {
    return { path: null, problem: error instanceof HtmlReportError ? error.message : describeWriteError(error, path) }
  }
}
