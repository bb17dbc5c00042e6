/**
 * The TIVARQ v1 scorer (spec section 5): prediction rows in, `report.json` out.
 * One scorer for the CLI, the library and the Vitest reporter. Pure: no I/O.
 *
 * Every rate is `{ score, cases }`: `score` rounded half-to-even to 6 decimals
 * (as Python's `round`) and `null` — never 0 — when `cases` is 0.
 */
import { FAMILIES } from './vocabulary.js'
import type { AnswerValue } from './schema.js'
import { sameValue } from './gold.js'
import type { AnsweredRow, PredictionRow } from './results.js'
import { DEFAULT_RESAMPLES, type BootstrapInterval, ratioInterval } from '../stats/bootstrap.js'
import { percentileIndex, quantileSorted, roundHalfEven, type SortedSamples, sortSamples } from '../stats/quantile.js'

// ─── Report shape ────────────────────────────────────────────────────────────

/** A rate with its denominator. `score` is null when `cases` is 0. */
export interface Rate {
  score: number | null
  cases: number
}

/** The hits among the cases of a rate: the exact numbers a `Rate` rounds. */
export interface Count {
  hits: number
  cases: number
}

/** What a detection's precision, recall and F1 come from. */
export interface DetectionCounts {
  tp: number
  fp: number
  fn: number
}

/** Precision, recall and F1 of predicting a set of states, with the counts they come from. */
export interface DetectionMetrics {
  /** tp / (tp + fp); null when nothing was predicted in the set. */
  precision: number | null
  /** tp / (tp + fn); null when gold is never in the set. */
  recall: number | null
  /** 2tp / (2tp + fp + fn); null when all three are 0. */
  f1: number | null
  tp: number
  fp: number
  fn: number
}

/** Every metric of section 5, over one set of rows. */
export interface TivarqMetrics {
  /** Primary metric: transitions whose pre and post answers, controls and no-leak all hold. Higher is better. */
  transition_success_rate: Rate
  /** Correct answers among answered non-history rows. Higher is better. */
  current_state_accuracy: Rate
  /** Invalidated values returned as current, among stale-risk rows. Lower is better. */
  stale_value_leakage_rate: Rate
  /** Correct control answers (phase not `pre`) among answered non-history rows. Higher is better. */
  unaffected_fact_retention: Rate
  /** Detection of `needs_clarification`. */
  clarification: DetectionMetrics
  /** Detection of `unknown`, `withdrawn` and `expired`. */
  abstention: DetectionMetrics
  /** Correct answers among answered `history` rows. */
  historical_accuracy: Rate
  /** Correct answers among answered rows whose gold state is `expired`. */
  expiration_accuracy: Rate
  /** Answer latency over answered rows (percentile index rule), 3 decimals; `cases` counts the latencies. */
  query_latency_ms: { p50: number | null; p95: number | null; cases: number }
  /** Time until a post-change answer is right, over the answered rows that carry a lag (post-change target rows). */
  update_lag_ms: {
    observed_mean: number | null
    observed_p95: number | null
    /** Rows with a measured, uncensored lag. */
    observed: number
    /** Rows still wrong after the last poll. */
    censored: number
    /** Answered rows carrying a lag: the answered target rows of phase `post`. */
    post_change_cases: number
  }
  /** Token counts the adapter reported inside `prediction.usage` (never part of correctness). */
  reported_tokens: { prompt: number; completion: number; cases_with_usage: number }
  /** Cost the adapter reported inside `prediction.cost_usd`, total rounded to 8 decimals (0 when no row reported one). */
  reported_cost_usd: { total: number; cases_with_cost: number }
}

/** `probe_counts` of a report: rows by status. */
export interface ProbeCounts {
  total: number
  answered: number
  unsupported: number
  error: number
}

/**
 * The episode-level percentile bootstrap interval of transition success, in
 * full: `defined` counts resamples holding at least one transition; `unit`
 * says what was resampled; an episode drawn twice counts twice (upstream
 * collapses repeated draws by episode id).
 */
export type TransitionSuccessInterval = BootstrapInterval & { unit: 'episode'; repeated_draws: 'counted_separately' }

/** Per-family slice of the report. */
export interface FamilyReport {
  probe_counts: { total: number; answered: number }
  metrics: TivarqMetrics
}

/** `report.json`: snake_case, keys in upstream's order, plus ours after theirs. */
export interface TivarqReport {
  /** Every expected row is present and answered or unsupported (no errors). */
  complete: boolean
  probe_counts: ProbeCounts
  metrics: TivarqMetrics
  /** `[low, high]` of the interval below, as upstream writes it; null when no resample held a transition. */
  transition_success_95pct_bootstrap_ci: [number, number] | null
  /** Ours: the same interval with how it was made (level, resamples, seed, unit, repeated-draw rule, defined resamples). */
  transition_success_bootstrap: TransitionSuccessInterval
  by_family: Record<string, FamilyReport>
  /** Present only when fewer rows than expected were scored because the run stopped early. */
  interrupted?: { expected_probes: number; finished_probes: number }
  /** Present instead of `interrupted` when the run finished but was given fewer probes to run (`-t`, files left out). */
  selected?: { expected_probes: number; selected_probes: number }
}

/** Options of `scoreRows`. */
export interface ScoreOptions {
  /** Seed of the bootstrap (required, so every report can be replayed); the CLI passes the run seed, by default 20261001. */
  seed: number
  /** Bootstrap resamples. @default 1000 (at least 500) */
  resamples?: number
  /** Rows a finished run would have; fewer rows make the report incomplete and `interrupted`. @default rows.length */
  expectedProbes?: number
  /**
   * Why fewer rows than `expectedProbes` may be present: the run stopped early
   * (`interrupted`), it ran to the end on a subset its user chose (`selected`),
   * or a file holds fewer rows of this repetition than of another and cannot
   * say why (`absent`: the report is incomplete, with no reason recorded).
   * @default 'interrupted'
   */
  missingRows?: 'interrupted' | 'selected' | 'absent'
}

// ─── Row-level judgements (shared with the Vitest reporter) ─────────────────

/** What one row came to, for messages: a stale leak is a wrong answer worth naming. */
export type RowOutcome = 'correct' | 'stale_leak' | 'wrong' | 'unsupported' | 'error'

/** The answered prediction equals gold (same state, same canonical value). */
export function isCorrect(row: PredictionRow): boolean {
  // sameAnswer of the prediction (a missing value read as null) and gold, without building the prediction's answer.
  return row.status === 'answered' && row.prediction.state === row.expected.state && sameValue(row.prediction.value ?? null, row.expected.value)
}

/** The row is at risk of a stale value: it has an old value, and gold is not that value. */
export function isStaleRisk(row: Pick<PredictionRow, 'old_value' | 'expected'>): boolean {
  if (row.old_value === null || row.old_value === undefined) return false
  return row.expected.state !== 'known' || !sameValue(row.expected.value, row.old_value)
}

/** A stale-risk row answered with the invalidated value as current. */
export function isStaleLeak(row: PredictionRow): boolean {
  if (row.status !== 'answered' || !isStaleRisk(row)) return false
  return row.prediction.state === 'known' && sameValue(row.prediction.value, row.old_value as AnswerValue)
}

/** Classify one row: correct, stale_leak, wrong, unsupported or error. */
export function classifyRow(row: PredictionRow): RowOutcome {
  if (row.status !== 'answered') return row.status
  if (isCorrect(row)) return 'correct'
  return isStaleLeak(row) ? 'stale_leak' : 'wrong'
}

function isCurrent(row: PredictionRow): row is AnsweredRow {
  return row.status === 'answered' && row.capability !== 'history'
}

function isControl(row: AnsweredRow): boolean {
  return (row.role === 'control' || row.role === 'scope_control') && row.phase !== 'pre'
}

// ─── Transitions ────────────────────────────────────────────────────────────

// The loops over every row count by index rather than `for…of`: a command's scoring runs in V8's
// interpreter, where each step of an array iterator is a call and a result object (about 40 bytes a
// row, for the garbage collector), and an index is neither.

/** One scored transition: the first answered target `pre` and `post` rows of (episode, transition). */
export interface TransitionOutcome {
  episode_id: string
  transition_id: string
  family: string
  success: boolean
  pre_correct: boolean
  post_correct: boolean
  /** The post answer returned the invalidated value. */
  leak: boolean
  /** The episode's controls: answered non-history control rows of phase check/post. */
  controls: { cases: number; correct: number }
  pre_probe_id: string
  post_probe_id: string
}

/**
 * How the scorer judges an answered row: right or not, and whether it leaked
 * the invalidated value. `scoreRows` judges each row once and reads the
 * verdicts back (every row is counted in its family and overall, and again for
 * the interval); the exported functions judge as they go.
 */
interface Judge {
  correct(row: AnsweredRow): boolean
  leak(row: AnsweredRow): boolean
}

const JUDGE_AS_NEEDED: Judge = { correct: isCorrect, leak: isStaleLeak }

const CORRECT = 1
const STALE_RISK = 2
const STALE_LEAK = 4

/** An answered row's verdicts as bits: correct, at stale risk, leaked (a leak is looked for only at a risk). */
function verdictOf(row: AnsweredRow): number {
  const risk = isStaleRisk(row)
  return (isCorrect(row) ? CORRECT : 0) | (risk ? STALE_RISK : 0) | (risk && isStaleLeak(row) ? STALE_LEAK : 0)
}

/** Every row's verdicts, made once as `scoreRows` reads the rows (`judge`) and read back by the transitions. */
class Verdicts implements Judge {
  private readonly bits = new Map<PredictionRow, number>()

  /** The row's verdicts, made now and kept. */
  judge(row: AnsweredRow): number {
    const bits = verdictOf(row)
    this.bits.set(row, bits)
    return bits
  }

  private of(row: AnsweredRow): number {
    return this.bits.get(row) as number
  }

  correct(row: AnsweredRow): boolean {
    return (this.of(row) & CORRECT) !== 0
  }

  leak(row: AnsweredRow): boolean {
    return (this.of(row) & STALE_LEAK) !== 0
  }
}

/** The first answered target `pre` and `post` rows of one (episode, transition), and the first of its rows. */
interface TransitionGroup {
  first: AnsweredRow
  pre?: AnsweredRow
  post?: AnsweredRow
}

/** The transition groups of `rows` in the order each first appears, and every episode's control tally. */
function transitionGroups(rows: readonly PredictionRow[], judge: Judge) {
  const controls = new Map<string, { cases: number; correct: number }>()
  const groups: TransitionGroup[] = []
  // By episode, then transition: string keys, so no separator character can make two pairs collide.
  const byEpisode = new Map<string, Map<string, TransitionGroup>>()
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    if (row.status !== 'answered') continue
    if (isCurrent(row) && isControl(row)) {
      const tally = controls.get(row.episode_id) ?? { cases: 0, correct: 0 }
      tally.cases++
      if (judge.correct(row)) tally.correct++
      controls.set(row.episode_id, tally)
    }
    if (row.role !== 'target') continue
    let transitions = byEpisode.get(row.episode_id)
    if (transitions === undefined) {
      transitions = new Map()
      byEpisode.set(row.episode_id, transitions)
    }
    let group = transitions.get(row.transition_id)
    if (group === undefined) {
      group = { first: row }
      transitions.set(row.transition_id, group)
      groups.push(group)
    }
    if (row.phase === 'pre' && group.pre === undefined) group.pre = row
    if (row.phase === 'post' && group.post === undefined) group.post = row
  }
  return { controls, groups }
}

function outcomesOf(rows: readonly PredictionRow[], judge: Judge): TransitionOutcome[] {
  const { controls, groups } = transitionGroups(rows, judge)
  const outcomes: TransitionOutcome[] = []
  for (const { pre, post, first } of groups) {
    if (pre === undefined || post === undefined) continue
    const episodeControls = controls.get(first.episode_id) ?? { cases: 0, correct: 0 }
    const preCorrect = judge.correct(pre)
    const postCorrect = judge.correct(post)
    const leak = judge.leak(post)
    outcomes.push({
      episode_id: first.episode_id,
      transition_id: first.transition_id,
      family: familyOf(first),
      success: preCorrect && postCorrect && episodeControls.cases > 0 && episodeControls.correct === episodeControls.cases && !leak,
      pre_correct: preCorrect,
      post_correct: postCorrect,
      leak,
      controls: episodeControls,
      pre_probe_id: pre.probe_id,
      post_probe_id: post.probe_id,
    })
  }
  return outcomes
}

/**
 * Transitions in row order. A group counts only with both a `pre` and a `post`
 * answered target row; success needs both right, every episode control right
 * (and at least one control), and no leak of the old value.
 */
export function transitionOutcomes(rows: readonly PredictionRow[]): TransitionOutcome[] {
  return outcomesOf(rows, JUDGE_AS_NEEDED)
}

/** A row's family; upstream rows without one take it from `episode_id` ("<family>-<NN>"). */
export function familyOf(row: { family?: string; episode_id: string }): string {
  if (typeof row.family === 'string' && row.family.length > 0) return row.family
  const cut = row.episode_id.lastIndexOf('-')
  return cut > 0 ? row.episode_id.slice(0, cut) : row.episode_id
}

// ─── Metrics ────────────────────────────────────────────────────────────────

function ratio(numerator: number, denominator: number): number | null {
  return denominator === 0 ? null : roundHalfEven(numerator / denominator, 6)
}

const CLARIFICATION_STATES: ReadonlySet<string> = new Set(['needs_clarification'])
const ABSTENTION_STATES: ReadonlySet<string> = new Set(['unknown', 'withdrawn', 'expired'])

function detection({ tp, fp, fn }: DetectionCounts): DetectionMetrics {
  return { precision: ratio(tp, tp + fp), recall: ratio(tp, tp + fn), f1: ratio(2 * tp, 2 * tp + fp + fn), tp, fp, fn }
}

/** Which sorted sample (1 = the smallest) a report's p-th percentile of n samples is, for the renderers to say beside it. */
export function percentileRank(n: number, p: number): number {
  return percentileIndex(n, p) + 1
}

/** The p-th percentile of sorted samples, rounded half-to-even to 3 decimals; null without samples. */
function percentile3(sorted: SortedSamples, p: number): number | null {
  const value = quantileSorted(sorted, p)
  return value === null ? null : roundHalfEven(value, 3)
}

// As upstream counts them: a row reports usage when `prediction.usage` is a non-empty object.
function usageOf(row: AnsweredRow): { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined {
  const usage: unknown = row.prediction.usage
  return usage !== null && typeof usage === 'object' && Object.keys(usage).length > 0
    ? (usage as { prompt_tokens?: unknown; completion_tokens?: unknown })
    : undefined
}

function costOf(row: AnsweredRow): number | undefined {
  const cost: unknown = row.prediction.cost_usd
  return typeof cost === 'number' && Number.isFinite(cost) ? cost : undefined
}

function finiteNumber(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

/**
 * The exact counts behind the quality metrics of some rows: every rate's hits
 * and cases, every detection's tp, fp and fn. Counts add up over disjoint sets
 * of episodes (transition success depends on an episode's rows alone), which is
 * what pooling repetitions and the episode bootstrap rely on.
 */
export interface QualityCounts {
  transition_success_rate: Count
  current_state_accuracy: Count
  stale_value_leakage_rate: Count
  unaffected_fact_retention: Count
  clarification: DetectionCounts
  abstention: DetectionCounts
  historical_accuracy: Count
  expiration_accuracy: Count
}

/** The quality part of a report's metrics: what `QualityCounts` come to as rates and detections. */
export type QualityMetrics = Pick<TivarqMetrics, keyof QualityCounts>

/** Count the quality metrics of `rows` (one repetition's rows: transitions are grouped by episode and transition id). */
export function countQuality(rows: readonly PredictionRow[]): QualityCounts {
  return tallyOf(rows).quality(outcomesOf(rows, JUDGE_AS_NEEDED))
}

function hit(count: Count, correct: boolean): void {
  count.cases++
  if (correct) count.hits++
}

function detect(counts: DetectionCounts, row: AnsweredRow, states: ReadonlySet<string>): void {
  const predicted = states.has(row.prediction.state)
  const gold = states.has(row.expected.state)
  if (predicted && gold) counts.tp++
  else if (predicted) counts.fp++
  else if (gold) counts.fn++
}

function asRate(count: Count): Rate {
  return { score: ratio(count.hits, count.cases), cases: count.cases }
}

/** Quality counts as the report writes them: rates rounded half-to-even to 6 decimals, null without cases. */
export function qualityMetricsOf(counts: QualityCounts): QualityMetrics {
  return {
    transition_success_rate: asRate(counts.transition_success_rate),
    current_state_accuracy: asRate(counts.current_state_accuracy),
    stale_value_leakage_rate: asRate(counts.stale_value_leakage_rate),
    unaffected_fact_retention: asRate(counts.unaffected_fact_retention),
    clarification: detection(counts.clarification),
    abstention: detection(counts.abstention),
    historical_accuracy: asRate(counts.historical_accuracy),
    expiration_accuracy: asRate(counts.expiration_accuracy),
  }
}

/** Every section-5 metric over `rows` (no bootstrap). */
export function computeMetrics(rows: readonly PredictionRow[]): TivarqMetrics {
  return tallyOf(rows).metrics(outcomesOf(rows, JUDGE_AS_NEEDED))
}

/** Every answered row of `rows` judged and added to one tally. */
function tallyOf(rows: readonly PredictionRow[]): MetricsTally {
  const tally = new MetricsTally()
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    if (row.status === 'answered') tally.add(row, verdictOf(row))
  }
  return tally
}

/** What answered rows reported of their tokens and cost, added in row order. */
interface UsageTotals {
  prompt: number
  completion: number
  withUsage: number
  cost: number
  withCost: number
}

/**
 * What every metric of one set of rows is made of, its answered rows added
 * one at a time, judged (`verdictOf`'s bits), in row order: the row-level
 * counts, the latencies and lags, the reported usage. Rows are read once
 * however many sets count them (`scoreRows` adds each to its family's and to
 * the whole's); floating-point sums are made in row order, as one loop over
 * the set's own rows makes them.
 */
class MetricsTally {
  answered = 0
  private readonly counts: QualityCounts = {
    transition_success_rate: { hits: 0, cases: 0 },
    current_state_accuracy: { hits: 0, cases: 0 },
    stale_value_leakage_rate: { hits: 0, cases: 0 },
    unaffected_fact_retention: { hits: 0, cases: 0 },
    clarification: { tp: 0, fp: 0, fn: 0 },
    abstention: { tp: 0, fp: 0, fn: 0 },
    historical_accuracy: { hits: 0, cases: 0 },
    expiration_accuracy: { hits: 0, cases: 0 },
  }
  // As upstream selects them: the answered rows that carry a lag (the runner writes one on post-change target rows only).
  private lagged = 0
  private censored = 0
  private readonly observedLags: number[] = []
  private readonly latencies: number[] = []
  private readonly usage: UsageTotals = { prompt: 0, completion: 0, withUsage: 0, cost: 0, withCost: 0 }

  add(row: AnsweredRow, verdict: number): void {
    this.answered++
    this.addQuality(row, verdict)
    const lag = row.update_lag_ms
    if (typeof lag === 'number' && Number.isFinite(lag)) {
      this.lagged++
      if (row.update_lag_censored === true) this.censored++
      else this.observedLags.push(lag)
    }
    const ms = row.latency_ms
    if (typeof ms === 'number' && Number.isFinite(ms)) this.latencies.push(ms)
    addUsage(this.usage, row)
  }

  private addQuality(row: AnsweredRow, verdict: number): void {
    const counts = this.counts
    const correct = (verdict & CORRECT) !== 0
    if (row.capability !== 'history') {
      hit(counts.current_state_accuracy, correct)
      if (isControl(row)) hit(counts.unaffected_fact_retention, correct)
    } else hit(counts.historical_accuracy, correct)
    if ((verdict & STALE_RISK) !== 0) hit(counts.stale_value_leakage_rate, (verdict & STALE_LEAK) !== 0)
    detect(counts.clarification, row, CLARIFICATION_STATES)
    detect(counts.abstention, row, ABSTENTION_STATES)
    if (row.expected.state === 'expired') hit(counts.expiration_accuracy, correct)
  }

  /** The quality counts, the set's transitions being `transitions`. */
  quality(transitions: readonly TransitionOutcome[]): QualityCounts {
    const success = this.counts.transition_success_rate
    success.cases = transitions.length
    success.hits = 0
    for (const transition of transitions) if (transition.success) success.hits++
    return this.counts
  }

  /** Every section-5 metric, the set's transitions being `transitions`. */
  metrics(transitions: readonly TransitionOutcome[]): TivarqMetrics {
    const { observedLags, latencies, usage } = this
    let observedTotal = 0
    for (const lag of observedLags) observedTotal += lag
    // Sorted once for both percentiles.
    const sortedLatencies = sortSamples(latencies)
    return {
      ...qualityMetricsOf(this.quality(transitions)),
      query_latency_ms: { p50: percentile3(sortedLatencies, 0.5), p95: percentile3(sortedLatencies, 0.95), cases: latencies.length },
      update_lag_ms: {
        observed_mean: observedLags.length === 0 ? null : roundHalfEven(observedTotal / observedLags.length, 3),
        observed_p95: percentile3(sortSamples(observedLags), 0.95),
        observed: observedLags.length,
        censored: this.censored,
        post_change_cases: this.lagged,
      },
      reported_tokens: { prompt: usage.prompt, completion: usage.completion, cases_with_usage: usage.withUsage },
      reported_cost_usd: { total: roundHalfEven(usage.cost, 8), cases_with_cost: usage.withCost },
    }
  }
}

function addUsage(totals: UsageTotals, row: AnsweredRow): void {
  const usage = usageOf(row)
  if (usage !== undefined) {
    totals.withUsage++
    totals.prompt += finiteNumber(usage.prompt_tokens)
    totals.completion += finiteNumber(usage.completion_tokens)
  }
  const rowCost = costOf(row)
  if (rowCost !== undefined) {
    totals.withCost++
    totals.cost += rowCost
  }
}

/** Row counts by status. */
export function probeCounts(rows: readonly PredictionRow[]): ProbeCounts {
  const counts: ProbeCounts = { total: rows.length, answered: 0, unsupported: 0, error: 0 }
  for (const row of rows) counts[row.status]++
  return counts
}

// ─── Bootstrap ──────────────────────────────────────────────────────────────

/** Per-episode transition tallies: the unit the bootstrap resamples. */
export interface EpisodeTally {
  episode_id: string
  successes: number
  transitions: number
}

/** Transition successes and counts per episode, every episode of `rows` in first-seen order (zero tallies kept). */
export function episodeTallies(rows: readonly PredictionRow[]): EpisodeTally[] {
  return talliesOf(rows, outcomesOf(rows, JUDGE_AS_NEEDED))
}

function talliesOf(rows: readonly PredictionRow[], transitions: readonly TransitionOutcome[]): EpisodeTally[] {
  const tallies = new Map<string, EpisodeTally>()
  for (let at = 0; at < rows.length; at++) {
    const { episode_id } = rows[at] as PredictionRow
    if (!tallies.has(episode_id)) tallies.set(episode_id, { episode_id, successes: 0, transitions: 0 })
  }
  for (const outcome of transitions) {
    const tally = tallies.get(outcome.episode_id) as EpisodeTally
    tally.transitions++
    if (outcome.success) tally.successes++
  }
  return [...tallies.values()]
}

/**
 * Episode-level bootstrap of transition success. Transition success of an
 * episode depends on that episode's rows alone, so each draw contributes its
 * own tally: an episode drawn twice counts twice, as if its copies were
 * relabelled apart. (Upstream regroups the resampled rows by episode id, so a
 * repeated draw collapses into one and the interval comes out too narrow.)
 */
export function transitionSuccessInterval(rows: readonly PredictionRow[], options: { seed: number; resamples?: number }): TransitionSuccessInterval {
  return intervalOf(episodeTallies(rows), options)
}

function intervalOf(tallies: readonly EpisodeTally[], options: { seed: number; resamples?: number }): TransitionSuccessInterval {
  const interval = ratioInterval(
    tallies.map((tally) => ({ numerator: tally.successes, denominator: tally.transitions })),
    { seed: options.seed, resamples: options.resamples ?? DEFAULT_RESAMPLES, level: 0.95 },
  )
  return {
    low: interval.low === null ? null : roundHalfEven(interval.low, 6),
    high: interval.high === null ? null : roundHalfEven(interval.high, 6),
    level: interval.level,
    seed: interval.seed,
    resamples: interval.resamples,
    defined: interval.defined,
    unit: 'episode',
    repeated_draws: 'counted_separately',
  }
}

// ─── Report ─────────────────────────────────────────────────────────────────

/** Families in the benchmark's order, then any others alphabetically. */
function familyOrder(families: Iterable<string>): string[] {
  const known: readonly string[] = FAMILIES
  return [...new Set(families)].sort((a, b) => {
    const ia = known.indexOf(a)
    const ib = known.indexOf(b)
    if (ia !== -1 || ib !== -1) return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib)
    return a < b ? -1 : a > b ? 1 : 0
  })
}

/** A family's rows, in row order, and their tally. */
interface FamilySet {
  rows: PredictionRow[]
  tally: MetricsTally
}

/**
 * The one pass of `scoreRows` over the rows: counted by status, each answered
 * row judged once and added to its family's tally and the whole's, and each
 * family's rows gathered in row order for its transitions.
 */
function readRows(rows: readonly PredictionRow[]) {
  const counts: ProbeCounts = { total: rows.length, answered: 0, unsupported: 0, error: 0 }
  const verdicts = new Verdicts()
  const all = new MetricsTally()
  const families = new Map<string, FamilySet>()
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    counts[row.status]++
    const family = familyOf(row)
    let set = families.get(family)
    if (set === undefined) {
      set = { rows: [], tally: new MetricsTally() }
      families.set(family, set)
    }
    set.rows.push(row)
    if (row.status !== 'answered') continue
    const verdict = verdicts.judge(row)
    set.tally.add(row, verdict)
    all.add(row, verdict)
  }
  return { counts, verdicts, all, families }
}

/** Score prediction rows into `report.json` (section 5), with a seeded episode-level bootstrap. */
export function scoreRows(rows: readonly PredictionRow[], options: ScoreOptions): TivarqReport {
  const expected = options.expectedProbes ?? rows.length
  // Each row is judged once; its family, the whole and the interval read the verdicts.
  const { counts, verdicts, all, families } = readRows(rows)
  // Made from entries, so a family named like an Object.prototype member (`__proto__`) is a key like any other.
  const byFamily: Record<string, FamilyReport> = Object.fromEntries(
    familyOrder(families.keys()).map((family) => {
      const set = families.get(family) as FamilySet
      const entry: FamilyReport = {
        probe_counts: { total: set.rows.length, answered: set.tally.answered },
        metrics: set.tally.metrics(outcomesOf(set.rows, verdicts)),
      }
      return [family, entry]
    }),
  )
  const transitions = outcomesOf(rows, verdicts)
  const interval = intervalOf(talliesOf(rows, transitions), options)
  const report: TivarqReport = {
    complete: counts.error === 0 && rows.length >= expected,
    probe_counts: counts,
    metrics: all.metrics(transitions),
    transition_success_95pct_bootstrap_ci: interval.low === null || interval.high === null ? null : [interval.low, interval.high],
    transition_success_bootstrap: interval,
    by_family: byFamily,
  }
  if (rows.length < expected) {
    if (options.missingRows === 'selected') report.selected = { expected_probes: expected, selected_probes: rows.length }
    else if (options.missingRows !== 'absent') report.interrupted = { expected_probes: expected, finished_probes: rows.length }
  }
  return report
}
