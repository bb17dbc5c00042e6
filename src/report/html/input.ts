/**
 * What `renderHtmlReport` takes: the same data report.json is made from (the
 * scored report, its rows, the split they ran on), plus what only some runs
 * have: a baseline, per-probe decisions, repetitions, time-grounded suites.
 */
import { TimegroundedError } from '../../errors.js'
import type { PredictionRow } from '../../tivarq/results.js'
import type { Episode, Probe } from '../../tivarq/schema.js'
import type { TivarqReport } from '../../tivarq/score.js'
import type { TimeGroundedSuiteSummary } from '../../timegrounded/suite-support.js'
import type { BaselineSuite } from '../../vitest/gate.js'
import type { ProbeDecision } from '../../vitest/meta.js'

/** What ran on what, for the page's header. */
export interface TivarqRunIdentity {
  /** The store or adapter under test: `builtin:latest`, the adapter command, the suite's name. */
  store: string
  /** Which data: `TIVARQ v1`, or a variant as `describeVariant` words it. */
  dataset: string
  /** Content identifier of the data: the run manifest's `dataset_revision` (`sha256:…`). */
  datasetRevision: string
  split: string
  track: string
}

/** A TIVARQ run, as the page shows it. */
export interface TivarqRunInput {
  identity: TivarqRunIdentity
  /** The scored report (`scoreRows`): every figure on the page comes from it, or from `rows` by the scorer's own judgements. */
  report: TivarqReport
  /** The rows `report` was scored from, in the order of predictions.jsonl. */
  rows: readonly PredictionRow[]
  /** The split's episodes: the events of each failing probe's timeline. */
  episodes: readonly Episode[]
  /** The split's probes: each failing probe's question and the instant it was asked about. */
  probes: readonly Probe[]
  /** The suite's baseline entry, as `matchBaseline` accepted it: shown beside the run. @default none */
  baseline?: BaselineSuite | null
  /** How each probe's test ended, by probe id (the Vitest reporter's decisions). @default a wrong answer that was wrong in `baseline` too is a known failure */
  decisions?: Readonly<Record<string, ProbeDecision>>
  /** The report of every repetition, in order, when the run was repeated: their spread. @default none */
  repetitions?: readonly TivarqReport[]
}

/** Everything a report page shows; at least one of `tivarq` and `timeGrounded`. */
export interface HtmlReportInput {
  /** The page's heading and title. @default 'timegrounded report' */
  title?: string
  /** The timegrounded version that made the run (`HARNESS_VERSION`). */
  harnessVersion: string
  /** The TIVARQ run, when there was one. */
  tivarq?: TivarqRunInput
  /** The time-grounded suites (`summarizeTimeGrounded(…).suites`), when any ran. @default none */
  timeGrounded?: readonly TimeGroundedSuiteSummary[]
}

/**
 * A report page cannot be made: its input does not hang together
 * (`HTML_REPORT_INPUT_INVALID`), or the built page script is missing
 * (`HTML_REPORT_ASSET_MISSING`) or unusable (`HTML_REPORT_ASSET_INVALID`).
 */
export class HtmlReportError extends TimegroundedError {
  declare readonly code: 'HTML_REPORT_INPUT_INVALID' | 'HTML_REPORT_ASSET_MISSING' | 'HTML_REPORT_ASSET_INVALID'
  constructor(code: HtmlReportError['code'], message: string, options?: { cause?: unknown }) {
    super(code, message, options)
  }
}

/** Refuse input whose figures could not agree with each other; throws HtmlReportError naming the field. */
export function checkHtmlReportInput(input: HtmlReportInput): void {
  const suites = input.timeGrounded ?? []
  if (input.tivarq === undefined && suites.length === 0) {
    throw new HtmlReportError('HTML_REPORT_INPUT_INVALID', 'renderHtmlReport needs something to show: pass `tivarq` (a scored run) or `timeGrounded` (at least one suite summary).')
  }
  const run = input.tivarq
  if (run === undefined) return
  const total = run.report.probe_counts.total
  if (run.rows.length !== total) {
    throw new HtmlReportError(
      'HTML_REPORT_INPUT_INVALID',
      `\`tivarq.rows\` holds ${run.rows.length} rows but \`tivarq.report\` was scored from ${total}; pass the rows the report was scored from (scoreRows(rows, …)).`,
    )
  }
}
