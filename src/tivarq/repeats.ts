/**
 * A split run several times: what the repetitions come to together. Each
 * repetition is scored on its own rows (transitions never mix repetitions);
 * the counts behind every quality metric are kept per episode and repetition,
 * so metrics pool over all repetitions, spread over them, and bootstrap over
 * episodes with each episode carrying its rows of every repetition. Pure.
 */
import { canonical } from './gold.js'
import { type MetricValues, QUALITY_METRICS, type QualityMetricName, ratioOf, type ScoredMetrics, METRICS } from './metrics.js'
import type { PredictionRow } from './results.js'
import { type QualityCounts, countQuality, qualityMetricsOf } from './metrics-tally.js'
import { familyOf } from './transitions.js'
import { isCorrect } from './row-verdicts.js'
import type { TivarqMetrics } from './report-shape.js'
import type { RatioCounts } from '../stats/bootstrap.js'

/** One episode's counts of every quality metric, repetition by repetition. */
export interface EpisodeRepetitions {
  episodeId: string
  family: string
  /** `counts[r]`: the episode's counts in repetition r (all zero when it has no row there). */
  counts: QualityCounts[]
}

/** The counts of a repeated run, per episode in first-seen order. */
export interface RepeatedCounts {
  repetitions: number
  episodes: EpisodeRepetitions[]
}

/** Count every repetition's rows (`repetitions[r]` holds repetition r's rows) by episode. */
export function countRepetitions(repetitions: readonly (readonly PredictionRow[])[]): RepeatedCounts {
  const byEpisode = new Map<string, { family: string; rows: PredictionRow[][] }>()
  repetitions.forEach((rows, repetition) => {
    for (const row of rows) {
      let episode = byEpisode.get(row.episode_id)
      if (episode === undefined) {
        episode = { family: familyOf(row), rows: repetitions.map(() => []) }
        byEpisode.set(row.episode_id, episode)
      }
      episode.rows[repetition]!.push(row)
    }
  })
  return {
    repetitions: repetitions.length,
    episodes: [...byEpisode].map(([episodeId, { family, rows }]) => ({ episodeId, family, counts: rows.map(countQuality) })),
  }
}

/** Counts added up. */
export function addCounts(counts: readonly QualityCounts[]): QualityCounts {
  const total = countQuality([])
  for (const part of counts) {
    for (const key of Object.keys(total) as (keyof QualityCounts)[]) {
      const into = total[key] as unknown as Record<string, number>
      const from = part[key] as unknown as Record<string, number>
      for (const field of Object.keys(into)) into[field]! += from[field]!
    }
  }
  return total
}

/** The quality metrics of summed counts, by their camelCase names, as the scorer would give them over the same rows. */
export function qualityValuesOf(counts: QualityCounts): MetricValues {
  // The quality metrics' `read` touches only the quality part of a report's metrics.
  const metrics = qualityMetricsOf(counts) as TivarqMetrics
  const values: MetricValues = {}
  for (const metric of QUALITY_METRICS) values[metric] = METRICS[metric].read(metrics)
  return values
}

/** Every quality metric pooled over all repetitions (all their cases together), overall and per family. */
export function pooledMetrics(run: RepeatedCounts): ScoredMetrics {
  const byFamily = new Map<string, QualityCounts[]>()
  for (const episode of run.episodes) byFamily.set(episode.family, [...(byFamily.get(episode.family) ?? []), ...episode.counts])
  return {
    metrics: qualityValuesOf(addCounts(run.episodes.flatMap((episode) => episode.counts))),
    byFamily: Object.fromEntries([...byFamily].map(([family, counts]) => [family, qualityValuesOf(addCounts(counts))])),
  }
}

/** One episode's numerator and denominator of one metric in each repetition. */
export function episodeRatios(episode: EpisodeRepetitions, metric: QualityMetricName): RatioCounts[] {
  return episode.counts.map((counts) => ratioOf(metric, counts))
}

/** Ratios added up (an episode's over its repetitions). */
export function sumRatios(ratios: readonly RatioCounts[]): RatioCounts {
  let numerator = 0
  let denominator = 0
  for (const ratio of ratios) {
    numerator += ratio.numerator
    denominator += ratio.denominator
  }
  return { numerator, denominator }
}

/** Whether every repetition gave the same counts of every quality metric in every episode: then a repeated run is as good as one. */
export function sameCountsEveryRepetition(run: RepeatedCounts): boolean {
  return run.episodes.every((episode) => episode.counts.every((counts) => JSON.stringify(counts) === JSON.stringify(episode.counts[0])))
}

// ─── Probes over the repetitions ─────────────────────────────────────────────

/** How one probe fared over the repetitions: how many times each outcome. */
export interface ProbeRepetitions {
  probeId: string
  correct: number
  wrong: number
  unsupported: number
  error: number
}

/** Each probe's outcomes over the repetitions, in the order of the first repetition that has it. */
export function probeRepetitions(repetitions: readonly (readonly PredictionRow[])[]): ProbeRepetitions[] {
  const probes = new Map<string, ProbeRepetitions>()
  for (const rows of repetitions) {
    for (const row of rows) {
      let probe = probes.get(row.probe_id)
      if (probe === undefined) {
        probe = { probeId: row.probe_id, correct: 0, wrong: 0, unsupported: 0, error: 0 }
        probes.set(row.probe_id, probe)
      }
      if (row.status !== 'answered') probe[row.status]++
      else if (isCorrect(row)) probe.correct++
      else probe.wrong++
    }
  }
  return [...probes.values()]
}

/** A probe answered correctly in some repetitions and wrongly in others. */
export function isFlaky(probe: ProbeRepetitions): boolean {
  return probe.correct > 0 && probe.wrong > 0
}

/** Whether every probe got the same answer (status, state and value) in every repetition: a deterministic store. */
export function identicalAnswers(repetitions: readonly (readonly PredictionRow[])[]): boolean {
  const first = new Map<string, string>()
  for (const rows of repetitions) {
    for (const row of rows) {
      const answer = JSON.stringify(row.status === 'answered' ? [row.prediction.state, canonical(row.prediction.value ?? null)] : [row.status])
      const seen = first.get(row.probe_id)
      if (seen === undefined) first.set(row.probe_id, answer)
      else if (seen !== answer) return false
    }
  }
  return true
}
