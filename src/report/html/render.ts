/**
 * `renderReportPage`: a report's view model as one self-contained HTML page
 * (the data inline, the charting script inline, a CSP that forbids every
 * request). Pure apart from reading the built page script once per process.
 * The view model itself is made by `src/report/html/model/`
 * from the same data as report.json.
 */
import { pageScript } from './asset.js'
import { type DocumentParts, htmlDocument, htmlDocumentChunks, inlineJson } from './document.js'
import type { PageData } from './page-data.js'

/** The page of `page`. Throws HtmlReportError when the built page script is missing or unusable. */
export function renderReportPage(page: PageData): string {
  return htmlDocument(documentParts(page))
}

/** The same page as the pieces a file is written from (`htmlDocumentChunks`): the script as its bytes, no string of the whole page. */
export function reportPageChunks(page: PageData): (string | Buffer)[] {
  return htmlDocumentChunks(documentParts(page))
}

function documentParts(page: PageData): DocumentParts {
  return { title: page.title, harnessVersion: page.harnessVersion, dataJson: inlineJson(page), script: pageScript() }
}
