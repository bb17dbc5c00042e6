/**
 * Every section-5 metric of one set of rows: the exact counts behind the rates and detections, the
 * latencies and lags, the reported usage, tallied one answered row at a time, and what they come to as
 * the report writes them. Its own file because it is the bulk of the scorer and pooling repetitions
 * (repeats.ts) reads its counts without the rest of a report.
 */
import type { AnsweredRow, PredictionRow } from './results.js'
import type { Count, DetectionCounts, DetectionMetrics, ProbeCounts, Rate, TivarqMetrics } from './report-shape.js'
import { CORRECT, isControl, JUDGE_AS_NEEDED, STALE_LEAK, STALE_RISK, verdictOf } from './row-verdicts.js'
import { outcomesOf, type TransitionOutcome } from './transitions.js'
import { percentileIndex, quantileSorted, roundHalfEven, type SortedSamples, sortSamples } from '../stats/quantile.js'

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
export class MetricsTally {
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
