/**
 * Upstream interoperability, file for file, on the upstream-shaped files in
 * test/fixtures/upstream (see its README): we read upstream's predictions and
 * score them as upstream does, and the files we write have upstream's shapes.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { aggregateRepetitions } from '../../src/tivarq/aggregate.js'
import { buildRunManifest } from '../../src/harness/manifest.js'
import { predictionsText, resultJson } from '../../src/harness/result-files.js'
import { readPredictions, repetitionsOf } from '../../src/harness/predictions.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import { scoreRows } from '../../src/tivarq/score.js'
import type { TivarqReport } from '../../src/tivarq/report-shape.js'

const UPSTREAM = new URL('../fixtures/upstream/', import.meta.url)
const path = (name: string) => new URL(name, UPSTREAM).pathname
const json = (name: string) => JSON.parse(readFileSync(new URL(name, UPSTREAM), 'utf8')) as Record<string, unknown>

/** Every key path of `value` (objects only; lists are leaves), in document order. */
function keyPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return []
  return Object.entries(value).flatMap(([key, inner]) => [`${prefix}${key}`, ...keyPaths(inner, `${prefix}${key}.`)])
}

/** `ours` without the keys `theirs` lacks, recursively: what an upstream reader sees of our file. */
function seenByUpstream(ours: unknown, theirs: unknown): unknown {
  if (ours === null || theirs === null || typeof ours !== 'object' || typeof theirs !== 'object' || Array.isArray(ours)) return ours
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(ours)) if (key in theirs) kept[key] = seenByUpstream(value, (theirs as Record<string, unknown>)[key])
  return kept
}

describe('upstream predictions.jsonl', () => {
  const rows = readPredictions(path('predictions.jsonl'))

  test('reads with 0-based repetitions, usage inside predictions, absent lag fields, rows without prediction or latency', () => {
    expect(rows).toHaveLength(14)
    expect(new Set(rows.map((row) => row.repetition))).toEqual(new Set([0]))
    expect(
      rows.filter((row) => row.status === 'unsupported').map((row) => Object.keys(row).includes('prediction') || Object.keys(row).includes('latency_ms')),
    ).toEqual([false, false])
    expect(rows.find((row) => row.status === 'error')).toMatchObject({ error: 'adapter replied error: busy' })
    expect(rows[0]).toMatchObject({ prediction: { usage: { prompt_tokens: 120, completion_tokens: 9 }, cost_usd: 0.00042 } })
  })

  test("is written back byte for byte: upstream's key order, separators and fields", () => {
    expect(predictionsText(rows)).toBe(readFileSync(path('predictions.jsonl'), 'utf8'))
  })

  test('scores as upstream scores it: every figure of its report.json, tokens, cost, latency cases and update lag included', () => {
    const theirs = json('report.json')
    const ours = JSON.parse(resultJson(scoreRows(rows, { seed: 20261001 }))) as Record<string, unknown>
    // The interval's values differ by design (1,000 resamples, repeated draws counted); its shape is upstream's.
    const ci = ours.transition_success_95pct_bootstrap_ci as unknown
    expect(Array.isArray(ci) && ci.length === 2 && ci.every((bound) => typeof bound === 'number')).toBe(true)
    const withoutInterval = (report: Record<string, unknown>) => ({ ...report, transition_success_95pct_bootstrap_ci: 'differs by design' })
    expect(seenByUpstream(withoutInterval(ours), theirs)).toEqual(withoutInterval(theirs))
  })

  test("our report.json has every key upstream's has, in upstream's order, and adds its own after", () => {
    const theirs = json('report.json')
    const ours = JSON.parse(resultJson(scoreRows(rows, { seed: 20261001 }))) as Record<string, unknown>
    const ourPaths = keyPaths(ours)
    const theirPaths = keyPaths(theirs)
    expect(theirPaths.filter((key) => !ourPaths.includes(key))).toEqual([])
    // Same order, families aside: upstream sorts `by_family` by name, we keep the benchmark's order.
    const outsideFamilies = (paths: string[]) => paths.filter((key) => !key.startsWith('by_family.'))
    expect(outsideFamilies(ourPaths).filter((key) => theirPaths.includes(key))).toEqual(outsideFamilies(theirPaths))
    expect(Object.keys(ours)).toEqual([
      'complete',
      'probe_counts',
      'metrics',
      'transition_success_95pct_bootstrap_ci',
      'transition_success_bootstrap',
      'by_family',
    ])
    expect(ours.transition_success_bootstrap).toMatchObject({
      level: 0.95,
      seed: 20261001,
      resamples: 1000,
      unit: 'episode',
      repeated_draws: 'counted_separately',
    })
  })

  test("timegrounded 0.1's files (repetition from 1, nulls everywhere, usage at the top) read as the same rows and score the same", () => {
    const older = readPredictions(path('timegrounded-0.1-predictions.jsonl'))
    expect(older.map((row) => row.repetition)).toEqual(Array(14).fill(1))
    expect(older.map((row) => ({ ...row, repetition: 0 }))).toEqual(rows)
    const score = (report: TivarqReport) => ({ ...report.metrics, by_family: report.by_family })
    expect(score(scoreRows(older, { seed: 1 }))).toEqual(score(scoreRows(rows, { seed: 1 })))
  })
})

describe('repetitions', () => {
  test("rows of one repetition are scored together, never with another's, whatever the numbering", () => {
    const rows = readPredictions(path('predictions-two-repetitions.jsonl'))
    const repetitions = repetitionsOf(rows)
    expect(repetitions.map((group) => [group.length, new Set(group.map((row) => row.repetition))])).toEqual([
      [9, new Set([0])],
      [9, new Set([1])],
    ])
    const reports = repetitions.map((group) => scoreRows(group, { seed: 1 }))
    expect(reports.map((report) => report.metrics.transition_success_rate)).toEqual([
      { score: 1, cases: 2 },
      { score: 0.5, cases: 2 },
    ])
    // Upstream's aggregate keys over them: mean 0.75, sample sd of (1, 0.5) = 0.353553, range [0.5, 1].
    expect(aggregateRepetitions(repetitions, reports, { seed: 1, resamples: 1000 })).toMatchObject({
      transition_success_mean: 0.75,
      transition_success_stddev: 0.353553,
      transition_success_range: [0.5, 1],
    })
    // Numbered from 1 (timegrounded 0.1) and interleaved: the same two groups.
    const renumbered = [...rows].reverse().map((row) => ({ ...row, repetition: row.repetition + 1 }))
    expect(repetitionsOf(renumbered).map((group) => group.map((row) => row.probe_id).sort())).toEqual(
      repetitions.map((group) => group.map((row) => row.probe_id).sort()),
    )
  })
})

describe('run_manifest.json', () => {
  test("our manifest leads with upstream's keys, in its order and of its types; capabilities too", async () => {
    const theirs = json('run_manifest.json')
    const smoke = await loadSplit(undefined, 'smoke')
    const ours = JSON.parse(
      resultJson(
        buildRunManifest({
          datasetManifest: smoke.manifest,
          fileHashes: smoke.fileHashes,
          track: 'structured',
          split: 'smoke',
          adapter: {
            name: 'python3 my_adapter.py',
            command: ['python3', 'my_adapter.py'],
            adapterVersion: '1.0.0',
            capabilities: { clock: false, history: false, inspection: false, tracks: ['structured'] },
          },
          seed: 20261001,
          repeats: 1,
          updatePolls: 2,
          pollIntervalMs: 100,
          concurrency: 1,
          timeoutMs: 30000,
          resamples: 1000,
          datasetRevision: 'local-generated',
        }),
      ),
    ) as Record<string, unknown>
    expect(Object.keys(ours).slice(0, Object.keys(theirs).length)).toEqual(Object.keys(theirs))
    const typeOf = (value: unknown) => (Array.isArray(value) ? 'list' : value === null ? 'null' : typeof value)
    for (const key of Object.keys(theirs)) {
      if (key === 'harness_commit') continue // a string upstream ("uncommitted" outside git); null here for an installed package
      expect(typeOf(ours[key]), key).toBe(typeOf(theirs[key]))
    }
    expect(Object.keys(ours.capabilities as object)).toEqual(Object.keys(theirs.capabilities as object))
    // Values that mean the same thing are the same.
    for (const key of [
      'schema_version',
      'dataset_revision',
      'dataset_file_hashes',
      'track',
      'split',
      'adapter_command',
      'model_config',
      'prompt_config',
      'run_seed',
      'repeats',
      'update_polls',
      'poll_interval_ms',
      'sampling_settings',
      'adapter_version',
      'capabilities',
    ]) {
      expect(ours[key], key).toEqual(theirs[key])
    }
  })
})
