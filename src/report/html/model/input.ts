/**
 * What the HTML report is made from: the same data report.json is made from
 * (the scored report, its rows, the split they ran on), plus what only some
 * runs have: a baseline, per-probe decisions, repetitions, time-grounded
 * suites. The CLI's `run`, `score` and `probe` and the end of a test run
 * (`finishRun`) each fill it in.
 */
import { HtmlReportError } from '../errors.js'
import type { TimeGroundedSuiteSummary } from '../../../time-grounded/summary.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { Episode, Probe } from '../../../tivarq/schema.js'
import type { TivarqReport } from '../../../tivarq/report-shape.js'
import type { BaselineSuite } from '../../../suite/baseline.js'
import type { ProbeDecision } from '../../../suite/records.js'
import { HARNESS_VERSION } from '../../../version.js'
import type { Timelines } from './timelines.js'

/** What ran on what, for the page's header. */
export interface TivarqRunIdentity {
  /** What ran, as the header names it: `{ label: 'store', value: 'builtin:latest' }`, `{ label: 'suite', value: 'tivarq' }`, `{ label: 'predictions', value: 'out/predictions.jsonl' }`. */
  subject: { label: string; value: string }
  /** The data, when known (a predictions file scored on its own does not say). */
  data: {
    /** `TIVARQ v1`, or a variant as `describeVariant` words it. */
    name: string
    /** Content identifier: the run manifest's `dataset_revision`, or a suite's dataset hash (`sha256:…`). */
    revision: string
    split: string
    track: string
  } | null
}

/** A TIVARQ run, as the page shows it. */
export interface TivarqRunInput {
  identity: TivarqRunIdentity
  /** The scored report (`scoreRows`): every figure on the page comes from it, or from `rows` by the scorer's own judgements. */
  report: TivarqReport
  /** The rows `report` was scored from, in the order of predictions.jsonl. */
  rows: readonly PredictionRow[]
  /** The episodes of the split: the events of each failing probe's timeline (a probe whose episode is missing is shown without one). */
  episodes: readonly Episode[]
  /** The probes of the split: each failing probe's question and the instant it was asked about. */
  probes: readonly Probe[]
  /** Why `episodes` is empty or partial, shown on the page, e.g. the suite's data could not be read again. @default none */
  episodesNote?: string
  /** The suite's baseline entry, as `matchBaseline` accepted it: shown beside the run. @default none */
  baseline?: BaselineSuite | null
  /** How each probe's test ended, by probe id (the end of a test run's decisions). @default a wrong answer that was wrong in `baseline` too is a known failure */
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
  /** The time-grounded suites (`summarizeTimeGrounded(…).suites`, of a test run or of a `probe`), when any ran. @default none */
  timeGrounded?: readonly TimeGroundedSuiteSummary[]
}

/** One TIVARQ run's page, as every caller has it: what ran on what, the scored report and its rows, the timelines found for them. */
export interface RunPage extends Pick<TivarqRunInput, 'report' | 'rows' | 'baseline' | 'decisions' | 'repetitions'> {
  title: string
  identity: TivarqRunIdentity
  /** The episodes and probes the rows asked (or why some are missing). */
  timelines: Timelines
  /** The run's time-grounded suites, shown on the page too. @default none */
  timeGrounded?: readonly TimeGroundedSuiteSummary[]
}

/** The page input of a TIVARQ run: built here for `run`, `score` and the end of a test run alike. */
export function runPageInput(page: RunPage): HtmlReportInput {
  const { timelines } = page
  return {
    title: page.title,
    harnessVersion: HARNESS_VERSION,
    tivarq: {
      identity: page.identity,
      report: page.report,
      rows: page.rows,
      episodes: timelines.episodes,
      probes: timelines.probes,
      ...(timelines.note === undefined ? {} : { episodesNote: timelines.note }),
      ...(page.baseline === undefined ? {} : { baseline: page.baseline }),
      ...(page.decisions === undefined ? {} : { decisions: page.decisions }),
      ...(page.repetitions === undefined ? {} : { repetitions: page.repetitions }),
    },
    ...(page.timeGrounded === undefined ? {} : { timeGrounded: page.timeGrounded }),
  }
}

/** The page of time-grounded suites alone (`probe`, or a test run of time-grounded questions only). */
export function timeGroundedPageInput(title: string, suites: readonly TimeGroundedSuiteSummary[]): HtmlReportInput {
  return { title, harnessVersion: HARNESS_VERSION, timeGrounded: suites }
}

/** Refuse input whose figures could not agree with each other; throws HtmlReportError naming the field. */
export function checkHtmlReportInput(input: HtmlReportInput): void {
  const suites = input.timeGrounded ?? []
  if (input.tivarq === undefined && suites.length === 0) {
    throw new HtmlReportError(
      'HTML_REPORT_INPUT_INVALID',
      'the HTML report needs something to show: pass `tivarq` (a scored run) or `timeGrounded` (at least one suite summary).',
    )
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
