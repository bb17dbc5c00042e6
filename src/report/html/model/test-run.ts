/**
 * The HTML report at the end of a test run (`finishRun`, for any runner): one
 * page per suite, next to where its report.json goes, from the same records,
 * rows and report; with the baseline entry beside the run, the per-probe
 * decisions, and the run's time-grounded summary. A run of time-grounded
 * questions alone gets one page of its own.
 */
import { basename, dirname, isAbsolute, join, resolve } from 'node:path'
import type { TimeGroundedSuiteSummary } from '../../../time-grounded/summary.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { TivarqReport } from '../../../tivarq/report-shape.js'
import type { BaselineSuite, SuiteIdentity } from '../../../suite/baseline.js'
import type { ProbeDecision, ProbeRecord } from '../../../suite/records.js'
import { drawnEpisodes } from './failing.js'
import { type HtmlReportInput, runPageInput, timeGroundedPageInput } from './input.js'
import { suiteTimelines } from './suite-timelines.js'

/**
 * Where a page goes: the `html` option (relative to `root`), or, with several
 * suites, in a folder named after the suite beside it, as report.json goes
 * into `outputDir/<suite>`.
 */
export function htmlPathOf(html: string, root: string, suite: string | null): string {
  const path = isAbsolute(html) ? html : resolve(root, html)
  return suite === null ? path : join(dirname(path), suite, basename(path))
}

/** One suite's run, as the end of a test run has it. */
export interface SuitePageRun {
  identity: SuiteIdentity
  /** The probes' records, in canonical order (their decisions are the page's known failures). */
  records: readonly ProbeRecord[]
  rows: readonly PredictionRow[]
  report: TivarqReport
  /** The suite's baseline entry, when the baseline file had one that matched. */
  baseline: BaselineSuite | null
  /** The run's time-grounded suites, shown on the page too. */
  timeGrounded: readonly TimeGroundedSuiteSummary[]
}

/** The page input of one suite: its episodes read again for the timelines (when they are still the data it ran). */
export function suitePageInput(run: SuitePageRun): HtmlReportInput {
  const { identity } = run
  const datasetDir = run.records.find((record) => record.datasetDir !== undefined)?.datasetDir
  const variant = run.records.find((record) => record.variant !== undefined)?.variant
  const decisions: Record<string, ProbeDecision> = {}
  for (const record of run.records) if (record.decision !== undefined) decisions[record.probeId] = record.decision
  return runPageInput({
    title: `timegrounded — ${identity.name}`,
    identity: {
      subject: { label: 'suite', value: identity.name },
      data: {
        name: datasetDir === undefined ? identity.data : `TIVARQ data in ${datasetDir}`,
        revision: identity.datasetHash,
        split: identity.split,
        track: identity.track,
      },
    },
    report: run.report,
    rows: run.rows,
    timelines: suiteTimelines({ dir: datasetDir, variant }, identity.split, identity.datasetHash, drawnEpisodes(run.rows)),
    baseline: run.baseline,
    decisions,
    timeGrounded: run.timeGrounded,
  })
}

/** The page of a run that held time-grounded questions only. */
export function timeGroundedRunPageInput(suites: readonly TimeGroundedSuiteSummary[]): HtmlReportInput {
  return timeGroundedPageInput('timegrounded — time-grounded probe', suites)
}
