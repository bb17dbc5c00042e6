/**
 * The committed baseline file (`timegrounded.baseline.json`): its schema,
 * reading and matching it against the suite that runs, and building the entry
 * a complete run records. "Baseline" in timegrounded means only this file.
 */
import { existsSync } from 'node:fs'
import { z } from 'zod'
import { keyedRecord, ownEntry } from '../tivarq/keyed-record.js'
import { TimegroundedError } from '../errors.js'
import type { RatioCounts } from '../stats/bootstrap.js'
import { repetitionValues, spreadOf } from '../tivarq/aggregate.js'
import type { MetricValue, MetricValues, ScoredMetrics } from '../tivarq/metrics.js'
import { isQuality, type MetricName, QUALITY_METRICS, type QualityMetricName } from '../tivarq/metrics.js'
import { episodeRatios, isFlaky, type ProbeRepetitions, type RepeatedCounts } from '../tivarq/repeats.js'
import type { RunnerCommands } from './commands.js'
import type { RepetitionSample } from './noise.js'
import { type Answer, answerSchema } from '../tivarq/schema.js'
import { type JsonDocument, jsonDocumentProblemAt, parseJsonDocument, readJsonDocumentFile } from '../tivarq/json-document.js'

/** `format` of a baseline file (v2: each probe's answers, from which every figure is derived and checked). */
export const BASELINE_FORMAT = 'timegrounded.baseline.v2'
/** Formats of earlier versions, refused with the fix (they hold figures without the answers behind them). */
const EARLIER_FORMATS: readonly string[] = ['timegrounded.baseline.v1']

const metricValueSchema = z.strictObject({ value: z.number().nullable(), cases: z.number().int().min(0) })
const metricValuesSchema = z.record(z.string(), metricValueSchema)
/** The outcome of one probe as the baseline records it. */
export const PROBE_OUTCOMES = ['correct', 'wrong', 'unsupported', 'error'] as const
export type ProbeOutcome = (typeof PROBE_OUTCOMES)[number]

/** A probe's answer in one repetition as the baseline keeps it: the store's `{ state, value }`, or null when it was not asked (unsupported). */
export type StoredAnswer = Answer | null

const RATIOS_TEXT = /^\d+\/\d+( \d+\/\d+)*$/
const qualityMetric = z.enum(QUALITY_METRICS as [QualityMetricName, ...QualityMetricName[]])
const spreadSchema = z.strictObject({ mean: z.number().nullable(), stddev: z.number().nullable(), min: z.number().nullable(), max: z.number().nullable() })

/**
 * What a baseline recorded with repeats keeps for the noise-aware rule: each
 * episode's counts of every quality metric in every repetition (as
 * `"numerator/denominator"` per repetition, e.g. `"1/1 0/1 1/1"`), whether the
 * repetitions answered alike, the flaky probes (how often each was right) and
 * each metric's spread over the repetitions.
 */
const baselineRepeatsSchema = z
  .strictObject({
    repetitions: z.number().int().min(2),
    identical: z.boolean(),
    flaky: z.record(z.string(), z.number().int().min(1)),
    spread: z.partialRecord(qualityMetric, spreadSchema),
    episodes: z.record(
      z.string(),
      z.partialRecord(qualityMetric, z.string().regex(RATIOS_TEXT, 'counts per repetition, "numerator/denominator" separated by spaces, e.g. "1/1 0/1"')),
    ),
  })
  .superRefine((repeats, context) => {
    for (const [episode, metrics] of Object.entries(repeats.episodes)) {
      for (const [metric, text] of Object.entries(metrics)) {
        const count = (text ?? '').split(' ').length
        if (count !== repeats.repetitions)
          context.addIssue({ code: 'custom', path: ['episodes', episode, metric], message: `holds ${count} repetitions' counts, not ${repeats.repetitions}` })
      }
    }
  })
export type BaselineRepeats = z.infer<typeof baselineRepeatsSchema>

const baselineSuiteSchema = z.strictObject({
  dataset_hash: z.string().min(1),
  /** Which data: `TIVARQ v1`, or the variant (seed, generator and version). Absent in baselines written before variants. */
  data: z.string().optional(),
  split: z.string(),
  track: z.string(),
  families: z.array(z.string()).nullable(),
  probes: keyedRecord(z.enum(PROBE_OUTCOMES)),
  /** Each probe's answer in every repetition: the evidence every other figure is derived from. */
  answers: keyedRecord(z.array(answerSchema.nullable()).min(1)),
  metrics: metricValuesSchema,
  by_family: keyedRecord(metricValuesSchema),
  /** Only in a baseline recorded with repeats (`metrics` and `by_family` are then pooled over them). */
  repeats: baselineRepeatsSchema.optional(),
})
export type BaselineSuite = z.infer<typeof baselineSuiteSchema>

export const baselineFileSchema = z.strictObject({
  format: z.literal(BASELINE_FORMAT),
  harness_version: z.string(),
  suites: keyedRecord(baselineSuiteSchema),
})
export type BaselineFile = z.infer<typeof baselineFileSchema>

/** The codes of `BaselineError`, each with what it means. */
export interface BaselineErrorCodes {
  /** The baseline file cannot be used. */
  BASELINE_INVALID: 'BaselineError'
}

/** A baseline file that cannot be used; `code` is stable. */
export class BaselineError extends TimegroundedError<keyof BaselineErrorCodes> {
  constructor(message: string) {
    super('BASELINE_INVALID', message)
  }
}

/** Read the baseline file at `path` (named `file` in messages) within the JSON document limits; throws as `parseBaseline`, and what reading it throws. */
export function readBaselineFile(path: string, file: string, commands: RunnerCommands): BaselineFile {
  return baselineOf(readJsonDocumentFile(path), file, commands)
}

/** Parse a baseline file's text; throws BaselineError naming the file, the line and column or each bad field, and the fix. */
export function parseBaseline(text: string, file: string, commands: RunnerCommands): BaselineFile {
  return baselineOf(parseJsonDocument(Buffer.from(text, 'utf8')), file, commands)
}

function baselineOf(document: JsonDocument, file: string, commands: RunnerCommands): BaselineFile {
  if (!document.ok) throw new BaselineError(`${jsonDocumentProblemAt(file, document.problem)}. Delete it and record a new one with ${commands.record}.`)
  const json = document.value
  const format = (json as { format?: unknown } | null)?.format
  if (typeof format === 'string' && EARLIER_FORMATS.includes(format)) {
    throw new BaselineError(
      `${file} is a baseline of an earlier format (${format}): it holds figures without the answers they come from, so they cannot be checked. Re-record it with ${commands.record}.`,
    )
  }
  const parsed = baselineFileSchema.safeParse(json)
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `  ${file}: ${issue.path.join('.') || '(root)'}: ${issue.message}`)
    throw new BaselineError(`${file} is not a timegrounded baseline:\n${issues.join('\n')}\nRecord a new one with ${commands.record}.`)
  }
  return parsed.data
}

/** What identifies the probes a suite runs: the baseline must have been recorded on the same. */
export interface SuiteIdentity {
  name: string
  datasetHash: string
  /** Which data, in words: `TIVARQ v1` or `TIVARQ variant 7 (timegrounded-variant v1)`. */
  data: string
  split: string
  track: string
  /** Selected families, or null for all. */
  families: string[] | null
}

/** The baseline entry for a suite: usable, absent, or refused (recorded on other data). Keyed on `status`. */
export type BaselineMatch = { status: 'ok'; entry: BaselineSuite } | { status: 'missing' } | { status: 'refused'; reason: string }

/**
 * Why a stored entry's figures do not follow from its answers (naming the
 * field, the stored and the derived value), or null: `entryProblem` of
 * baseline-evidence.ts, with the gold the caller has.
 */
export type EntryCheck = (entry: BaselineSuite) => string | null

/** Find and check the baseline entry of `identity` in `file` (null = no file); `check` refuses an entry whose figures contradict its answers. */
export function matchBaseline(
  file: BaselineFile | null,
  identity: SuiteIdentity,
  path: string,
  commands: RunnerCommands,
  check: EntryCheck | null = null,
): BaselineMatch {
  const entry = file === null ? undefined : ownEntry(file.suites, identity.name)
  if (!entry) return { status: 'missing' }
  if (entry.dataset_hash !== identity.datasetHash) {
    return {
      status: 'refused',
      reason: `${path} was recorded on ${entry.data ?? 'dataset'} ${entry.dataset_hash} (split ${entry.split}) but suite "${identity.name}" runs ${identity.data} ${identity.datasetHash} (split ${identity.split}); a baseline is never compared across datasets. Re-record it with ${commands.record}.`,
    }
  }
  const recorded = `${entry.track}/${(entry.families ?? ['all families']).join(',')}`
  const running = `${identity.track}/${(identity.families ?? ['all families']).join(',')}`
  if (recorded !== running) {
    return {
      status: 'refused',
      reason: `${path} was recorded for suite "${identity.name}" with track/families ${recorded}, but this run uses ${running}. Re-record it with ${commands.record}.`,
    }
  }
  const problem = check === null ? null : check(entry)
  if (problem !== null) {
    return {
      status: 'refused',
      reason: `${path}, suite "${identity.name}": ${problem}; every figure of a baseline must follow from its recorded answers, so an edited one is never used. Re-record it with ${commands.record}.`,
    }
  }
  return { status: 'ok', entry }
}

/**
 * A probe answered wrongly in the baseline too is a known failure. Only a wrong
 * answer: an error is never tolerated (it would let a store that fails to
 * answer pass where a wrong answer passed).
 */
export function isKnownFailure(match: BaselineMatch, probeId: string): boolean {
  return match.status === 'ok' && match.entry.probes[probeId] === 'wrong'
}

/**
 * Build a baseline suite entry from a complete run (with repeats, `scored` is
 * pooled over them and `repeats` keeps what the noise-aware rule needs). Keys
 * sorted, so the file diffs cleanly.
 */
export function baselineEntry(
  identity: SuiteIdentity,
  outcomes: Record<string, ProbeOutcome>,
  answers: Record<string, StoredAnswer[]>,
  scored: ScoredMetrics,
  repeats?: BaselineRepeats,
): BaselineSuite {
  return {
    dataset_hash: identity.datasetHash,
    data: identity.data,
    split: identity.split,
    track: identity.track,
    families: identity.families,
    probes: sortKeys(outcomes),
    answers: sortKeys(answers),
    metrics: sortKeys(scored.metrics) as Record<string, MetricValue>,
    by_family: sortKeys(
      Object.fromEntries(Object.entries(scored.byFamily).map(([family, values]) => [family, sortKeys(values) as Record<string, MetricValue>])),
    ),
    ...(repeats === undefined ? {} : { repeats }),
  }
}

/** The `repeats` of a baseline entry recorded from a repeated run. */
export function repeatsEntry(run: RepeatedCounts, identical: boolean, probes: readonly ProbeRepetitions[]): BaselineRepeats {
  const perRepetition = repetitionValues(run)
  const spread: BaselineRepeats['spread'] = {}
  for (const metric of QUALITY_METRICS) spread[metric] = spreadOf(perRepetition.map((values) => values[metric]!.value))
  const episodes: BaselineRepeats['episodes'] = {}
  for (const episode of run.episodes) {
    const counts: Partial<Record<QualityMetricName, string>> = {}
    for (const metric of QUALITY_METRICS) {
      const ratios = episodeRatios(episode, metric)
      // A metric without a case in the episode is left out: it adds nothing to either side of a comparison.
      if (ratios.some((ratio) => ratio.denominator > 0)) counts[metric] = ratios.map((ratio) => `${ratio.numerator}/${ratio.denominator}`).join(' ')
    }
    episodes[episode.episodeId] = counts
  }
  return {
    repetitions: run.repetitions,
    identical,
    flaky: sortKeys(Object.fromEntries(probes.filter(isFlaky).map((probe) => [probe.probeId, probe.correct]))),
    spread,
    episodes: sortKeys(episodes),
  }
}

/** A baseline's counts per episode for the noise-aware rule; null for a baseline recorded with one repetition (it kept none). */
export function baselineSample(entry: BaselineSuite): RepetitionSample | null {
  const repeats = entry.repeats
  if (repeats === undefined) return null
  const episodes: RepetitionSample['episodes'] = {}
  for (const [episode, metrics] of Object.entries(repeats.episodes)) {
    const sums: Partial<Record<QualityMetricName, RatioCounts[]>> = {}
    for (const [metric, text] of Object.entries(metrics) as [QualityMetricName, string][]) {
      sums[metric] = text.split(' ').map((part) => {
        const [numerator, denominator] = part.split('/').map(Number)
        return { numerator: numerator!, denominator: denominator! }
      })
    }
    episodes[episode] = sums
  }
  return { repetitions: repeats.repetitions, identical: repeats.identical, episodes }
}

/** Replace (or add) suite entries, keeping other suites of the file as they were. */
export function withSuites(file: BaselineFile | null, harnessVersion: string, entries: Record<string, BaselineSuite>): BaselineFile {
  return { format: BASELINE_FORMAT, harness_version: harnessVersion, suites: sortKeys({ ...(file?.suites ?? {}), ...entries }) }
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, record[key] as T]),
  )
}

/** A baseline entry's metrics in the shape of a scored run, to compare the two. */
export function scoredMetricsOfBaseline(entry: BaselineSuite): ScoredMetrics {
  return { metrics: entry.metrics as MetricValues, byFamily: entry.by_family as Record<string, MetricValues> }
}

/** Only quality metrics go into a baseline: latency varies from machine to machine. */
export function qualityOnly(values: MetricValues): MetricValues {
  return Object.fromEntries(Object.entries(values).filter(([metric]) => isQuality(metric as MetricName))) as MetricValues
}

export { datasetHashOf } from '../tivarq/dataset-files.js'

/** The baseline entry of `identity` in the file at `path` (`missing` when there is no file, or baselines are off: `path` null, or under `-u` when the file cannot be used). */
export function readBaselineMatch(
  path: string | null,
  identity: SuiteIdentity,
  commands: RunnerCommands,
  check: EntryCheck | null = null,
  update = false,
): BaselineMatch {
  if (path === null || !existsSync(path)) return { status: 'missing' }
  try {
    return matchBaseline(readBaselineFile(path, path, commands), identity, path, commands, check)
  } catch (error) {
    // Under `-u` the file is about to be rewritten, which is the fix its error names: the run records, and says so at its end.
    if (update && error instanceof BaselineError) return { status: 'missing' }
    throw error
  }
}

/**
 * The text of a baseline file: indented JSON, with each probe's answers on one
 * line, so that a re-recording shows in a diff as the probes whose answers changed.
 */
export function baselineText(file: BaselineFile): string {
  const inline = new Map<string, string>()
  const suites = Object.fromEntries(
    Object.entries(file.suites).map(([name, suite]) => [
      name,
      {
        ...suite,
        answers: Object.fromEntries(
          Object.entries(suite.answers).map(([probeId, answers]) => {
            const token = `\u0000answers-${inline.size}\u0000`
            inline.set(token, JSON.stringify(answers))
            return [probeId, token]
          }),
        ),
      },
    ]),
  )
  let text = JSON.stringify({ ...file, suites }, null, 2)
  for (const [token, answers] of inline) text = text.replace(JSON.stringify(token), () => answers)
  return `${text}\n`
}
