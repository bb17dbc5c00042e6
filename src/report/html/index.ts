/** The self-contained HTML report: one pure renderer, one writer, their input and error. */
export { renderHtmlReport, writeHtmlReport, pageData, DEFAULT_HTML_TITLE } from './render.js'
export { HtmlReportError } from './input.js'
export type { HtmlReportInput, TivarqRunInput, TivarqRunIdentity } from './input.js'
export { staleValueLeakageInterval, familyIntervals } from './intervals.js'
export type { FamilyIntervals, IntervalOptions } from './intervals.js'
export { FAILURE_KINDS } from './page-data.js'
export type { PageData, FailureKind } from './page-data.js'
