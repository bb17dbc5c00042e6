/**
 * What a finished `run` shows: its page, the summary on stdout, the job
 * summary, and the exit code. Its own file because it only reads what the
 * repetitions left.
 */
import type { PredictionRow } from '../../../tivarq/results.js'
import { describeIsolationCheck, describeIsolationFailure, type IsolationCheck } from '../../../harness/isolation-check.js'
import type { TivarqReport } from '../../../tivarq/report-shape.js'
import { describeVariant } from '../../../tivarq/variant.js'
import { renderMarkdown, renderRepeatsMarkdown } from '../../../report/markdown.js'
import { renderScoredRunSummary } from '../../../report/scored-summary.js'
import { renderErroredProbes } from '../../../suite/probe-lists.js'
import { appendJobSummary } from '../../../suite/job-summary.js'
import { EXIT, reportsExitCode } from '../../exit-codes.js'
import { wantsColor } from '../../color.js'
import type { OpenRun } from './open-run.js'
import type { PageWriter } from './page.js'
import type { RanRepetitions } from './repetitions.js'

/** The page, the summary on stdout, the job summary, and the exit code. */
export function printRun(run: OpenRun, ran: RanRepetitions, writePage: PageWriter, colorOption: boolean): void {
  const { settings, split, writer } = run
  const { reports, repetitions, repeated, carried } = ran
  const last = reports[reports.length - 1] as TivarqReport
  const lastRows = repetitions[repetitions.length - 1] as readonly PredictionRow[]
  const page = writePage(lastRows, last, reports)
  const color = wantsColor(colorOption, process.stdout)
  const data = split.variant === null ? 'TIVARQ' : describeVariant(split.variant)
  const title = `${data} ${settings.split} · ${settings.track} track · ${run.pool.info().name}${settings.repeat > 1 ? ` · repetition ${reports.length} of ${settings.repeat}` : ''}`
  // The exit code's reason in words: an incomplete run never passes, whatever its rates say.
  const incomplete = renderErroredProbes(repetitions.flat(), repetitions.length)
  const checkLine = isolationCheckLine(settings.isolationCheck ? ran.check : null)
  const notes = [
    ...(incomplete === null ? [] : [`${incomplete} (exit ${EXIT.problems})`]),
    ...carried.map((failure) => `ISOLATION: ${describeIsolationFailure(failure)} (exit ${EXIT.problems})`),
    ...(checkLine === null ? [] : [checkLine]),
  ]
  process.stdout.write(renderScoredRunSummary({ report: last, rows: lastRows, title, color, notes, repeated, written: ran.written, dir: writer.dir, page }))
  // In GitHub Actions, the same report lands in the job summary.
  const summaryWarning = appendJobSummary(renderMarkdown(last, { title, rows: lastRows }) + (repeated === null ? '' : `\n${renderRepeatsMarkdown(repeated)}`))
  if (summaryWarning !== null) process.stderr.write(`${summaryWarning}\n`)
  // Interrupted means incomplete, even when the interrupt only met the adapters' shutdown; a store that carried state fails too.
  process.exitCode = ran.interruptedWhileClosing || carried.length > 0 ? EXIT.problems : reportsExitCode(reports)
}

/** That the check was off, or what the store reported spending on it (beside the rows' own figures); null when neither. */
function isolationCheckLine(check: IsolationCheck | null): string | null {
  if (check === null) return `${describeIsolationCheck(null, '--no-isolation-check')}.`
  const reported = check.usage.promptTokens !== undefined || check.usage.completionTokens !== undefined || check.costUsd !== undefined
  return reported ? `${describeIsolationCheck(check, '')}.` : null
}
