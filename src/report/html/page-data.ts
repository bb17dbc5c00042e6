/**
 * The HTML report's view model: what the page script receives as JSON. The
 * page's model (`src/report/html/model/`) computes every figure and words every
 * sentence from the run's data; the page only lays them out, draws the charts
 * and filters the table. Shared by the renderer (Node) and the page script
 * (browser), so it imports nothing.
 */

/** Which way a metric is better. */
export type Better = 'higher' | 'lower'

/** How a value moved since the baseline: `changed` when one side has no value (or the metric has no direction). */
export type Change = 'better' | 'worse' | 'changed' | 'same'

/** The kinds a failing probe is filed under; each probe has exactly one. */
export const FAILURE_KINDS = ['wrong', 'stale_leak', 'unsupported', 'error', 'known_failure'] as const
/** One of FAILURE_KINDS. */
export type FailureKind = (typeof FAILURE_KINDS)[number]

/** The whole page. */
export interface PageData {
  title: string
  /** The timegrounded version that made the page (its footer and generator tag). */
  harnessVersion: string
  /** Label/value pairs of the header: data, split, track, store, seed, resamples, version. */
  identity: { label: string; value: string; title?: string }[]
  /** The TIVARQ part, when the run had one. */
  tivarq: TivarqPage | null
  /** One entry per time-grounded suite. */
  timeGrounded: TimeGroundedPage[]
  /** Two runs compared (`timegrounded compare --html`), instead of one run. @default none */
  runComparison?: RunComparisonPage
}

/** One headline card: a value with its denominator, and what it is compared with. */
export interface HeadlineCard {
  label: string
  /** The big figure, e.g. `83.3%` or `12.5 ms`. */
  value: string
  /** The exact figure with its denominator, e.g. `0.833333 (12)`, and what the denominator counts. */
  detail: string
  /** The interval and how it was drawn, when there is one. */
  interval: string | null
  better: Better | null
  /** The baseline's value and the move, when a baseline was given and recorded this metric. */
  baseline: { text: string; change: Change } | null
  primary: boolean
}

/** One family's row in a per-family interval chart. */
export interface FamilyPoint {
  family: string
  value: number | null
  cases: number
  low: number | null
  high: number | null
  baseline: number | null
  baselineCases: number | null
  /** Null without a baseline value to compare with. */
  change: Change | null
}

/** A per-family chart with intervals: transition success or stale-value leakage. */
export interface FamilyChart {
  key: 'transition_success_rate' | 'stale_value_leakage_rate'
  label: string
  better: Better
  points: FamilyPoint[]
}

/** One cell of the baseline comparison: a metric in one family (or `all`). */
export interface ComparisonCell {
  metric: string
  column: string
  before: number | null
  beforeCases: number
  after: number | null
  afterCases: number
  change: Change
  /** The cell's text, e.g. `83%`. */
  text: string
}

/** Baseline against this run, every metric the baseline holds, overall and per family. */
export interface Comparison {
  metrics: string[]
  columns: string[]
  cells: ComparisonCell[]
  /** Counts of moved cells, e.g. `7 better, 12 worse, 3 changed, 130 the same`. */
  summary: string
}

/** Repetitions of the same run: how much the figures moved. */
export interface Spread {
  repetitions: number
  /** One sentence per headline rate: mean, sample sd, range, each score. */
  lines: string[]
  /** Transition success of each family in each repetition (1-based). */
  points: { family: string; repetition: number; value: number }[]
  ranges: { family: string; min: number; max: number }[]
}

/** An event of an episode, as the timeline shows it. */
export interface EventView {
  id: string
  speaker: string
  text: string
  arrivedAt: string
  effectiveAt: string | null
  expiresAt: string | null
  /** The gold assertion in words, e.g. `set personal/coding_language = "Rust"`. */
  assertion: string | null
}

/** An episode, once per page however many of its probes fail. */
export interface EpisodeView {
  id: string
  family: string
  topic: string
  events: EventView[]
}

/** A probe that did not pass. */
export interface FailingProbe {
  id: string
  episode: string
  family: string
  kind: FailureKind
  /** What the row came to, for a known failure too (a known failure is a wrong answer or a stale leak). */
  outcome: 'wrong' | 'stale_leak' | 'unsupported' | 'error'
  role: string
  phase: string
  capability: string
  /** Null when the probe is not among the split's probes given to the renderer. */
  question: string | null
  asOf: string | null
  /** Events ingested before the question was asked. */
  afterEvent: number | null
  expected: string
  answer: string
  /** What it means, e.g. `stale value leaked: returned "email", which was replaced by known "sms" on 2025-01-03`. */
  meaning: string
  /** Indices of the events whose value is the one the store returned. */
  sources: number[]
}

/** The TIVARQ part of the page. */
export interface TivarqPage {
  complete: boolean
  /** `complete`, or why not, with the row counts. */
  status: string
  /** Which probes and transitions the run did not measure and why (capabilities not declared), or null when it measured all. */
  notMeasured: string | null
  cards: HeadlineCard[]
  families: string[]
  familyCharts: FamilyChart[]
  /** How the per-family intervals were drawn. */
  intervalNote: string
  comparison: Comparison | null
  /** Why there is no comparison (no baseline given, or the baseline is of other data). */
  comparisonNote: string
  spread: Spread | null
  failing: FailingProbe[]
  /** Failing probes by kind, in FAILURE_KINDS order. */
  kindCounts: Record<FailureKind, number>
  episodes: Record<string, EpisodeView>
  /** Why some failing probes have no timeline (their episodes were not in the data the page was made from), or null. */
  timelineNote: string | null
  /** How many probes passed (for the table's caption). */
  passed: number
}

/** One arm of a time-grounded comparison. */
export interface TimeGroundedArm {
  arm: 'control' | 'probe' | 'ceiling'
  mode: string
  accuracy: number | null
  correct: number
  questions: number
  errors: number
}

/** A time-grounded suite: control, probe, ceiling and the paired delta. */
export interface TimeGroundedPage {
  suite: string
  agent: string
  dataset: string
  arms: TimeGroundedArm[]
  delta: { value: number | null; low: number | null; high: number | null; n: number; level: number; seed: number; resamples: number } | null
  /** How the delta reads (sign and units), or why it was not computed. */
  deltaNote: string
  verdict: string | null
  caveat: string
}

/**
 * The caption of the failing-probes table. Unsupported probes are listed there
 * too (so they can be opened), but they were not measured, so they are counted
 * apart from the probes that failed.
 */
export function failingCaption(page: Pick<TivarqPage, 'failing' | 'kindCounts' | 'passed'>): string {
  const unsupported = page.kindCounts.unsupported
  const failed = page.failing.length - unsupported
  const measured = failed + page.passed
  const notMeasured = unsupported === 0 ? '' : `; ${unsupported} more ${unsupported === 1 ? 'was' : 'were'} not measured (unsupported), listed below too`
  return `${failed} of ${measured} measured probes did not pass${notMeasured}. Open a probe (Enter or Space on its id) to see its episode as a timeline.`
}

/** What a comparison's interval shows for a metric, as `compareRuns` judges it. */
export type ComparedVerdict = 'better' | 'worse' | 'no-difference' | 'not-measured' | 'too-few-episodes'

/** One metric of two runs, side by side: both figures, the paired difference and its verdict. */
export interface ComparedCard {
  label: string
  better: Better
  /** A's and B's figures with their counts, e.g. `84.6% (165 of 195)`. */
  a: string
  b: string
  /** B − A, e.g. `+0.077`, or a dash. */
  difference: string
  /** The paired interval and its level, or why there is none. */
  interval: string
  verdict: ComparedVerdict
  /** The verdict line `timegrounded compare` prints. */
  verdictLine: string
}

/** One family's paired difference of a metric. */
export interface DifferencePoint {
  family: string
  difference: number | null
  low: number | null
  high: number | null
  verdict: ComparedVerdict
  /** e.g. `retro_correction: B − A = 0.500 (15 of 30 → 30 of 30), interval 0.500 to 0.500`. */
  text: string
}

/** A metric's per-family differences B − A with their paired intervals. */
export interface DifferenceChart {
  metric: string
  label: string
  better: Better
  points: DifferencePoint[]
}

/** A probe B fixed or broke, with the timeline view of its episode (`view.answer` holds both stores' answers). */
export interface ChangedProbe {
  change: 'fixed' | 'broken'
  answerA: string
  answerB: string
  view: FailingProbe
}

/** Two runs of the same probes compared: the page of `timegrounded compare --html`. */
export interface RunComparisonPage {
  a: string
  b: string
  /** How the intervals were drawn and judged: resamples, seed, level, correction. */
  intervalNote: string
  cards: ComparedCard[]
  families: string[]
  charts: DifferenceChart[]
  /** McNemar's exact test of the fixed and broken probes, overall, in words. */
  mcnemar: string
  changes: ChangedProbe[]
  episodes: Record<string, EpisodeView>
  /** Why some changed probes have no timeline, or null. */
  timelineNote: string | null
}
