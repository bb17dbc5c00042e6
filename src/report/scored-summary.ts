/**
 * The terminal summary of a scored run, as `run` and `score` print it: the report of its last
 * repetition, its first errors, the notes the command adds (why the run is incomplete, a store that
 * carried state), the spread of the repetitions, the files written and where the page went.
 */
import type { RunAggregate } from '../tivarq/aggregate.js'
import type { PredictionRow } from '../tivarq/results.js'
import type { TivarqReport } from '../tivarq/report-shape.js'
import { renderFirstErrors, renderRepeats, renderReport } from './terminal.js'

/** What the summary shows. */
export interface ScoredRunSummary {
  /** The last repetition's report and rows. */
  readonly report: TivarqReport
  readonly rows: readonly PredictionRow[]
  readonly title: string
  readonly color: boolean
  /** Lines of the command's own, each a paragraph after the first errors. */
  readonly notes: readonly string[]
  /** The aggregate of a repeated run, or null. */
  readonly repeated: RunAggregate | null
  /** The result files written, and their folder. */
  readonly written: readonly string[]
  readonly dir: string
  /** The line that says where the page went, or null when none was written. */
  readonly page: string | null
}

/** The summary as one text, each paragraph separated by a blank line, ending in a newline. */
export function renderScoredRunSummary(summary: ScoredRunSummary): string {
  const { report, rows, title, color } = summary
  let out = `${renderReport(report, { color, title, rows })}\n`
  const firstErrors = renderFirstErrors(rows, { color })
  if (firstErrors !== '') out += `\n${firstErrors}\n`
  for (const note of summary.notes) out += `\n${note}\n`
  if (summary.repeated !== null) out += `\n${renderRepeats(summary.repeated, { color })}\n`
  out += `\nWrote ${summary.written.join(', ')} to ${summary.dir}\n`
  if (summary.page !== null) out += `${summary.page}\n`
  return out
}
