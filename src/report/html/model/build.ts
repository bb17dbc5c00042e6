/**
 * The HTML report of a run: its view model (`pageData`, every figure computed
 * and worded from the same data as report.json), the page (`renderHtmlReport`)
 * and the file (`writeHtmlReport`). The CLI's `run`, `score` and `probe` and
 * the end of a test run (`finishRun`) all write it through here.
 */
import { resolve } from 'node:path'
import { writeFileAtomic } from '../../../harness/result-files.js'
import type { PageData } from '../page-data.js'
import { renderReportPage, reportPageChunks } from '../render.js'
import { checkHtmlReportInput, type HtmlReportInput } from './input.js'
import { timeGroundedPage } from './time-grounded.js'
import { tivarqPage } from './tivarq.js'

/** Title of a page when none is given. */
export const DEFAULT_HTML_TITLE = 'timegrounded report'

/** `sha256:0123456789abcdef…` → `sha256:0123456789ab…`: enough to tell two datasets apart at a glance (the whole one is the item's tooltip). */
function shortRevision(revision: string): string {
  const digestStart = revision.indexOf(':') + 1
  return revision.length - digestStart > 12 ? `${revision.slice(0, digestStart + 12)}…` : revision
}

/** What the page header names: the data, what ran, the bootstrap, the version. */
function identityOf(input: HtmlReportInput): PageData['identity'] {
  const items: PageData['identity'] = []
  const run = input.tivarq
  if (run !== undefined) {
    const { identity, report } = run
    const bootstrap = report.transition_success_bootstrap
    const data = identity.data
    if (data !== null) {
      items.push({
        label: 'data',
        value: `${data.name} (${shortRevision(data.revision)}), ${data.split} split, ${data.track} track`,
        title: data.revision,
      })
    }
    items.push(identity.subject, { label: 'seed', value: String(bootstrap.seed) }, { label: 'resamples', value: String(bootstrap.resamples) })
  }
  items.push({ label: 'harness', value: `timegrounded ${input.harnessVersion}` })
  return items
}

/** The page data: every figure computed and worded, ready for the page script. Throws HtmlReportError for input that does not hang together. */
export function pageData(input: HtmlReportInput): PageData {
  checkHtmlReportInput(input)
  return {
    title: input.title ?? DEFAULT_HTML_TITLE,
    harnessVersion: input.harnessVersion,
    identity: identityOf(input),
    tivarq: input.tivarq === undefined ? null : tivarqPage(input.tivarq),
    timeGrounded: (input.timeGrounded ?? []).map(timeGroundedPage),
  }
}

/**
 * The run as one HTML page that opens offline: the data inline as JSON, the
 * charting script inline, a Content-Security-Policy that forbids any request.
 * Throws HtmlReportError for input that does not hang together, or when the
 * built page script is missing.
 */
export function renderHtmlReport(input: HtmlReportInput): string {
  return renderReportPage(pageData(input))
}

/** Render and write the page to `path` (its directory created if missing, the file replaced atomically); returns the absolute path. */
export function writeHtmlReport(path: string, input: HtmlReportInput): string {
  const chunks = reportPageChunks(pageData(input))
  const target = resolve(path)
  writeFileAtomic(target, chunks)
  return target
}
