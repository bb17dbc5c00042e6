/**
 * `renderHtmlReport`: the run as one self-contained HTML page (charts, the
 * failing probes and their timelines), from the same data as report.json;
 * `writeHtmlReport` writes it. Rendering is pure apart from reading the
 * built page script once per process.
 */
import { mkdirSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { writeFileAtomic } from '../../tivarq/output.js'
import { pageScript } from './asset.js'
import { htmlDocument, inlineJson } from './document.js'
import { checkHtmlReportInput, type HtmlReportInput } from './input.js'
import type { PageData } from './page-data.js'
import { timeGroundedPage } from './time-grounded.js'
import { tivarqPage } from './tivarq-page.js'

/** Title of a page when none is given. */
export const DEFAULT_HTML_TITLE = 'timegrounded report'

/** `sha256:0123456789abcdef…` → `sha256:0123456789ab…`: enough to tell two datasets apart at a glance (the whole one is the item's tooltip). */
function shortRevision(revision: string): string {
  const digestStart = revision.indexOf(':') + 1
  return revision.length - digestStart > 12 ? `${revision.slice(0, digestStart + 12)}…` : revision
}

/** What the page header names: the data, the store, the bootstrap, the version. */
function identityOf(input: HtmlReportInput): PageData['identity'] {
  const items: PageData['identity'] = []
  const run = input.tivarq
  if (run !== undefined) {
    const { identity, report } = run
    const bootstrap = report.transition_success_bootstrap
    items.push(
      { label: 'data', value: `${identity.dataset} (${shortRevision(identity.datasetRevision)}), ${identity.split} split, ${identity.track} track`, title: identity.datasetRevision },
      { label: 'store', value: identity.store },
      { label: 'seed', value: String(bootstrap.seed) },
      { label: 'resamples', value: String(bootstrap.resamples) },
    )
  }
  items.push({ label: 'harness', value: `timegrounded ${input.harnessVersion}` })
  return items
}

/** The page data: every figure computed and worded, ready for the page script. */
export function pageData(input: HtmlReportInput): PageData {
  checkHtmlReportInput(input)
  return {
    title: input.title ?? DEFAULT_HTML_TITLE,
    identity: identityOf(input),
    tivarq: input.tivarq === undefined ? null : tivarqPage(input.tivarq),
    timeGrounded: (input.timeGrounded ?? []).map(timeGroundedPage),
  }
}

/**
 * The report as one HTML page that opens offline: the data inline as JSON,
 * the charting script inline, a Content-Security-Policy that forbids any
 * request. Throws HtmlReportError for input that does not hang together, or
 * when the built page script is missing.
 */
export function renderHtmlReport(input: HtmlReportInput): string {
  const data = pageData(input)
  return htmlDocument({ title: data.title, harnessVersion: input.harnessVersion, dataJson: inlineJson(data), script: pageScript() })
}

/** Render and write the page to `path` (its directory created if missing, the file replaced atomically); returns the absolute path. */
export function writeHtmlReport(path: string, input: HtmlReportInput): string {
  const html = renderHtmlReport(input)
  const target = resolve(path)
  mkdirSync(dirname(target), { recursive: true })
  writeFileAtomic(target, html)
  return target
}
