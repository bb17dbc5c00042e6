/** Pure string renderers of TIVARQ reports: terminal, Markdown, side by side. */
export { renderReport, renderFamilyTable, renderFirstErrors } from './terminal.js'
export type { RenderOptions } from './terminal.js'
export { renderMarkdown } from './markdown.js'
export { renderSideBySide } from './side-by-side.js'
export type { SideBySideEntry } from './side-by-side.js'
export { formatRate, formatScore, formatDetection, formatInterval, describeBootstrap, describeRepeats, headlineMetrics } from './format.js'
export type { HeadlineMetric } from './format.js'
