/**
 * A baseline is evidence, not a set of numbers to trust: each probe's answer
 * in every repetition is recorded, and every figure of the entry (the probes'
 * outcomes, the metrics, per family, and what repeats keep for the noise-aware
 * rule) follows from those answers and the dataset's gold by the one scorer.
 * `-u` builds the entry here; reading one builds it again from its answers
 * and refuses a file whose stored figures are not what the answers give.
 * Answers that are all wrong are a legitimate baseline; figures that
 * contradict their answers are an edited one.
 */
import type { Answer } from '../tivarq/schema.js'
import { isQuality, type MetricName, type MetricValue, type MetricValues } from '../tivarq/metrics.js'
import { countRepetitions, identicalAnswers, pooledMetrics, probeRepetitions } from '../tivarq/repeats.js'
import type { PredictionBase, PredictionRow } from '../tivarq/results.js'
import { type BaselineSuite, baselineEntry, type ProbeOutcome, repeatsEntry, type StoredAnswer, type SuiteIdentity } from './baseline.js'
import { outcomeOfResult, resultOf } from './records.js'

/** The stored form of one row's answer: the store's `{ state, value }`, or null for a probe it was not asked (unsupported). */
function storedAnswerOf(row: PredictionRow): StoredAnswer {
  if (row.status === 'answered') return { state: row.prediction.state, value: row.prediction.value ?? null } as Answer
  if (row.status === 'unsupported') return null
  // A baseline is never written from a run with errors (recordBaseline refuses first).
  throw new Error(`probe ${row.probe_id} errored: a baseline records answers, never errors`)
}

/**
 * The baseline entry of a complete run: what `-u` writes, and what a stored
 * entry must equal when built again from its own answers. `repetitions` holds
 * each repetition's rows in canonical order (the scorer reads transitions in
 * row order).
 */
export function entryOfRepetitions(identity: SuiteIdentity, repetitions: readonly (readonly PredictionRow[])[]): BaselineSuite {
  const byProbe = new Map<string, PredictionRow[]>()
  for (const rows of repetitions) for (const row of rows) byProbe.set(row.probe_id, [...(byProbe.get(row.probe_id) ?? []), row])
  // No prototype: a probe id is a key from a file, whatever it spells.
  const answers: Record<string, StoredAnswer[]> = Object.create(null)
  const outcomes: Record<string, ProbeOutcome> = Object.create(null)
  for (const [probeId, rows] of byProbe) {
    answers[probeId] = rows.map(storedAnswerOf)
    outcomes[probeId] = outcomeOfResult(resultOf(rows))
  }
  const counted = countRepetitions(repetitions)
  const pooled = pooledMetrics(counted)
  const quality = (values: MetricValues) => Object.fromEntries(Object.entries(values).filter(([metric]) => isQuality(metric as MetricName))) as MetricValues
  const scored = {
    metrics: quality(pooled.metrics),
    byFamily: Object.fromEntries(Object.entries(pooled.byFamily).map(([family, values]) => [family, quality(values)])),
  }
  const repeats = repetitions.length > 1 ? repeatsEntry(counted, identicalAnswers(repetitions), probeRepetitions(repetitions)) : undefined
  return baselineEntry(identity, outcomes, answers, scored, repeats)
}

/** The rows a stored entry's answers make with the dataset's gold (`bases`, in canonical order), repetition by repetition. */
function rowsOfAnswers(answers: Readonly<Record<string, StoredAnswer[]>>, bases: readonly PredictionBase[], repetitions: number): PredictionRow[][] {
  return Array.from({ length: repetitions }, (_, repetition) =>
    bases.map((base): PredictionRow => {
      const answer = answers[base.probe_id]![repetition]!
      const row = { ...base, repetition }
      return answer === null ? { ...row, status: 'unsupported' } : { ...row, status: 'answered', prediction: answer, latency_ms: null }
    }),
  )
}

/**
 * Why a stored entry is not the evidence it claims to be, or null when every
 * figure follows from its answers. With `whole`, `bases` is the gold of every
 * probe of the suite, in canonical order, and the whole entry is rebuilt;
 * otherwise (a partition's worker, a partial run) each probe's outcome is
 * checked against its answers.
 */
export function entryProblem(entry: BaselineSuite, bases: readonly PredictionBase[], whole: boolean): string | null {
  const repetitions = entry.repeats?.repetitions ?? 1
  for (const [probeId, answers] of Object.entries(entry.answers)) {
    if (answers.length !== repetitions) return `answers.${probeId}: holds ${answers.length} repetitions' answers, not ${repetitions}`
  }
  const known = new Set(bases.map((base) => base.probe_id))
  const missing = bases.find((base) => entry.answers[base.probe_id] === undefined)
  if (missing !== undefined) return `answers.${missing.probe_id}: absent, but the suite has this probe`
  if (whole) {
    const extra = Object.keys(entry.answers).find((probeId) => !known.has(probeId))
    if (extra !== undefined) return `answers.${extra}: not a probe of this suite`
    const identity = { name: '', datasetHash: entry.dataset_hash, data: entry.data ?? '', split: entry.split, track: entry.track, families: entry.families }
    const derived = entryOfRepetitions(identity, rowsOfAnswers(entry.answers, bases, repetitions))
    const { answers: _answers, ...stored } = entry
    const { answers: _derivedAnswers, ...rebuilt } = { ...derived, data: entry.data }
    if (entry.data === undefined) delete (rebuilt as { data?: string }).data
    return firstDifference(stored, rebuilt, '')
  }
  for (const base of bases) {
    const rows = rowsOfAnswers({ [base.probe_id]: entry.answers[base.probe_id]! }, [base], repetitions).flat()
    const derived = outcomeOfResult(resultOf(rows))
    if (entry.probes[base.probe_id] !== derived) return difference(`probes.${base.probe_id}`, entry.probes[base.probe_id], derived)
  }
  return null
}

/** The first field in which `stored` and `derived` differ, as `field: stored X, derived Y`; null when they are equal. */
function firstDifference(stored: unknown, derived: unknown, path: string): string | null {
  if (isMetricValue(stored) || isMetricValue(derived) || !isObject(stored) || !isObject(derived)) {
    return JSON.stringify(stored) === JSON.stringify(derived) ? null : difference(path, stored, derived)
  }
  const keys = [...new Set([...Object.keys(derived), ...Object.keys(stored)])]
  for (const key of keys) {
    const found = firstDifference(stored[key], derived[key], path === '' ? key : `${path}.${key}`)
    if (found !== null) return found
  }
  return null
}

function difference(path: string, stored: unknown, derived: unknown): string {
  return `${path}: stored ${describe(stored)}, derived from the recorded answers ${describe(derived)}`
}

function describe(value: unknown): string {
  if (value === undefined) return '(absent)'
  if (isMetricValue(value)) return `${value.value} over ${value.cases} cases`
  return JSON.stringify(value)
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isMetricValue(value: unknown): value is MetricValue {
  return isObject(value) && 'value' in value && 'cases' in value
}

/** The gold part of a row (what every row of its probe shares), to rebuild rows from stored answers. */
export function baseOfRow(row: PredictionRow): PredictionBase {
  const { probe_id, episode_id, expected, role, transition_id, phase, capability, old_value, family } = row
  return { probe_id, episode_id, expected, role, transition_id, phase, capability, old_value, family, repetition: 0 }
}
