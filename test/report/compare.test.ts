/**
 * compareRuns on real runs: the built-in stores through the real runner on
 * the dev split, read back from run folders as `run` writes them, against
 * counts and p-values worked out by hand and against the scorer's own reports.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { predictionsText } from '../../src/harness/result-files.js'
import { compareRuns } from '../../src/report/compare/compare-runs.js'
import { renderComparison, verdictLine } from '../../src/report/compare/render.js'
import { CompareError } from '../../src/report/compare/sides.js'
import { loadSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { classifyRow } from '../../src/tivarq/row-verdicts.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { runStore } from '../support/html-report-input.js'

const UPSTREAM = fileURLToPath(new URL('../fixtures/upstream/', import.meta.url))
let dev: LoadedSplit
let latest: PredictionRow[]
let versioned: PredictionRow[]
let work: string

beforeAll(async () => {
  dev = await loadSplit(undefined, 'dev')
  latest = await runStore(referenceStore('latest'), dev)
  versioned = await runStore(referenceStore('versioned'), dev)
  work = mkdtempSync(join(tmpdir(), 'tg-compare-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

const side = (name: string, rows: readonly PredictionRow[]) => ({ name, rows })

/** A run folder as `run` writes one: a predictions file per repetition and, when given, a manifest. */
function runFolder(name: string, repetitions: readonly (readonly PredictionRow[])[], manifest?: Record<string, unknown>): string {
  const dir = join(work, name)
  mkdirSync(dir, { recursive: true })
  repetitions.forEach((rows, r) => {
    const file = repetitions.length === 1 ? 'predictions.jsonl' : `predictions-${r + 1}.jsonl`
    writeFileSync(join(dir, file), predictionsText(rows.map((row) => ({ ...row, repetition: r }))))
  })
  if (manifest !== undefined) writeFileSync(join(dir, 'run_manifest.json'), JSON.stringify(manifest))
  return dir
}

const MANIFEST = {
  schema_version: 'tivarq.run.v1',
  dataset_file_hashes: { 'episodes_dev.jsonl': 'e'.repeat(64), 'probes_dev.jsonl': 'p'.repeat(64) },
  split: 'dev',
  track: 'structured',
}

describe('latest (A) against versioned (B) on the dev split', () => {
  test('the probes B fixed and broke, and McNemar’s exact p-value, by hand', () => {
    const comparison = compareRuns(side('latest', latest), side('versioned', versioned))
    // latest keeps the newest-arriving value: on dev it misses q3 of the 4 add_vs_replace episodes (a set),
    // q4 of the 4 delayed_arrival ones and q6 of the 4 retro_correction ones: 12 probes, every one fixed by versioned.
    const fixedByScorer = latest
      .filter((row, i) => row.status === 'answered' && classifyRow(row) !== 'correct' && classifyRow(versioned[i]!) === 'correct')
      .map((row) => row.probe_id)
    expect(versioned.map((row) => row.probe_id)).toEqual(latest.map((row) => row.probe_id))
    expect(comparison.probes.fixed.map((change) => change.probeId)).toEqual(fixedByScorer.sort())
    expect(comparison.probes.fixed).toHaveLength(12)
    expect(comparison.probes.broken).toHaveLength(0)
    // b=0, c=12: p = 2·P(X ≤ 0) = 2·2^-12 = 1/2048 = 0.00048828125, below 1 − 0.99 = 0.01.
    expect(comparison.probes.mcnemar.pValue).toBeCloseTo(0.00048828125, 14)
    expect(comparison.probes.mcnemar).toMatchObject({ fixed: 12, broken: 0, shown: true })
    expect(comparison.probes.mcnemar.alpha).toBeCloseTo(0.01, 15)
    // latest declares no history capability: its 24 history probes are unsupported, left out of the test.
    expect(comparison.probes.unsupported).toBe(24)
    // Per family, Bonferroni over the 12 families: add_vs_replace b=0, c=4: p = 2·2^-4 = 0.125, not below 0.01/12.
    const family = comparison.families.find((entry) => entry.family === 'add_vs_replace')!
    expect(family.mcnemar).toMatchObject({ fixed: 4, broken: 0, pValue: 0.125, shown: false })
    expect(family.mcnemar.alpha).toBeCloseTo(0.01 / 12, 15)
  })

  test('fixed and broken on both sides: B = versioned with three probes latest answers right spoiled, by hand', () => {
    // Three current-state probes of the first replacement episode, all right in latest (A): wrong in B.
    const spoiledIds = ['replacement-01-q1', 'replacement-01-q2', 'replacement-01-q3']
    for (const id of spoiledIds) expect(classifyRow(latest.find((row) => row.probe_id === id)!), id).toBe('correct')
    const spoiled = versioned.map(
      (row): PredictionRow =>
        spoiledIds.includes(row.probe_id) && row.status === 'answered' ? { ...row, prediction: { state: 'known' as const, value: 'misheard' } } : row,
    )
    const comparison = compareRuns(side('latest', latest), side('spoiled versioned', spoiled))
    // Discordant: the 12 probes latest misses are still fixed, the 3 spoiled ones broken.
    expect(comparison.probes.mcnemar).toMatchObject({ fixed: 12, broken: 3, concordant: 216 - 15 })
    expect(comparison.probes.broken.map((change) => change.probeId)).toEqual(spoiledIds)
    // n = 15, min = 3: P(X ≤ 3) = (C(15,0) + C(15,1) + C(15,2) + C(15,3)) / 2^15 = (1 + 15 + 105 + 455) / 32768 = 576/32768;
    // p = 2 · 576/32768 = 0.03515625: not below 0.01, so not shown, although B fixed four times as many as it broke.
    expect(comparison.probes.mcnemar.pValue).toBeCloseTo(0.03515625, 14)
    expect(comparison.probes.mcnemar.shown).toBe(false)
    // In replacement: fixed 0, broken 3: p = 2 · 2^-3 = 0.25.
    const replacement = comparison.families.find((entry) => entry.family === 'replacement')!.mcnemar
    expect(replacement).toMatchObject({ fixed: 0, broken: 3, shown: false })
    expect(replacement.pValue).toBeCloseTo(0.25, 14)
    // In delayed_arrival: fixed 4 (latest's q4 of its 4 episodes), broken 0: p = 2 · 2^-4 = 0.125.
    const delayed = comparison.families.find((entry) => entry.family === 'delayed_arrival')!.mcnemar
    expect(delayed).toMatchObject({ fixed: 4, broken: 0 })
    expect(delayed.pValue).toBeCloseTo(0.125, 14)
  })

  test('each side’s figures are the scorer’s report.json figures, with their counts', () => {
    const comparison = compareRuns(side('latest', latest), side('versioned', versioned))
    const reports = [scoreRows(latest, { seed: 1 }), scoreRows(versioned, { seed: 1 })]
    const transition = comparison.metrics.find((entry) => entry.metric === 'transitionSuccessRate')!
    expect(transition.a.denominator).toBe(reports[0]!.metrics.transition_success_rate.cases)
    expect(transition.b.denominator).toBe(reports[1]!.metrics.transition_success_rate.cases)
    expect(Number(transition.a.value!.toFixed(6))).toBe(reports[0]!.metrics.transition_success_rate.score)
    expect(Number(transition.b.value!.toFixed(6))).toBe(reports[1]!.metrics.transition_success_rate.score)
    expect(transition.difference).toBeCloseTo(transition.b.value! - transition.a.value!, 14)
    // Current-state accuracy: 204 of 216 against 232 of 232, B − A = 232/232 − 204/216 = 12/216 = 0.0555…; every
    // episode that moved, moved up, so the interval is above 0 and the verdict says B is better.
    const current = comparison.metrics.find((entry) => entry.metric === 'currentStateAccuracy')!
    expect(current.a).toEqual({ numerator: 204, denominator: 216, value: 204 / 216 })
    expect(current.b).toEqual({ numerator: 232, denominator: 232, value: 1 })
    expect(current.low).toBeGreaterThan(0)
    expect(current.verdict).toBe('better')
    expect(verdictLine(current)).toMatch(/^Current-state accuracy: B better \(B − A = 0\.056, interval 0\.\d{3} to 0\.\d{3}\)$/)
    // Historical accuracy: latest has no history cases, so nothing to compare.
    expect(comparison.metrics.find((entry) => entry.metric === 'historicalAccuracy')!.verdict).toBe('not-measured')
    expect(comparison.a.reports[0]!.probe_counts).toEqual(reports[0]!.probe_counts)
  })

  test('the interval is paired: narrower than the two sides’ spreads would give apart, where the stores agree', () => {
    // B: latest (36 of 40 transitions) with the post answers of two more of its successful transitions spoiled; it agrees with A everywhere else.
    const succeeded = latest.filter((row) => row.role === 'target' && row.phase === 'post' && classifyRow(row) === 'correct')
    const spoiledPosts = new Set(succeeded.slice(0, 2).map((row) => row.probe_id))
    const worse = latest.map(
      (row): PredictionRow =>
        spoiledPosts.has(row.probe_id) && row.status === 'answered' ? { ...row, prediction: { state: 'unknown' as const, value: null } } : row,
    )
    const comparison = compareRuns(side('latest', latest), side('spoiled', worse), { metrics: ['transitionSuccessRate'], confidence: 0.95 })
    const [transition] = comparison.metrics
    expect(comparison.metricLevel).toBe(0.95)
    // 2 of 40 transitions lost: B − A = 34/40 − 36/40 = −0.05.
    expect(transition!.difference).toBeCloseTo(-0.05, 14)
    expect(transition!.low! <= transition!.difference! && transition!.difference! <= transition!.high!).toBe(true)
    const apart = [scoreRows(latest, { seed: 20261001 }), scoreRows(worse, { seed: 20261001 })].map((report) => report.transition_success_bootstrap)
    const independentWidth = Math.hypot(apart[0]!.high! - apart[0]!.low!, apart[1]!.high! - apart[1]!.low!)
    expect(transition!.high! - transition!.low!).toBeLessThan(independentWidth)
  })

  test('the text report says the verdicts, the resamples, the seed and the correction', () => {
    const text = renderComparison(compareRuns(side('latest', latest), side('versioned', versioned)))
    expect(text).toContain('10000 resamples, seed 20261001')
    expect(text).toContain('each interval two-sided at 99.83% so that the 6 together hold 99% (Bonferroni, as the gate)')
    expect(text).toContain('Probes: B fixed 12 and broke 0 of 216 compared (24 unsupported on a side, left out). McNemar exact test: p = 4.9e-4 < 0.01')
    expect(text).toContain('Historical accuracy: not compared (no cases in A)')
    expect(text).toContain('Fixed by B (12):')
  })
})

describe('a run compared with itself', () => {
  test('property: zero difference, an interval holding zero, no fixed or broken probe, for any episodes and any wrong answers', () => {
    fc.assert(
      fc.property(
        fc.subarray(
          dev.episodes.map((episode) => episode.episode_id),
          { minLength: 1 },
        ),
        fc.array(fc.nat(239), { maxLength: 40 }),
        fc.nat(10_000),
        (episodes, spoiled, seed) => {
          const wanted = new Set(episodes)
          const wrong = new Set(spoiled)
          const rows = latest
            .map(
              (row, i): PredictionRow => (wrong.has(i) && row.status === 'answered' ? { ...row, prediction: { state: 'unknown' as const, value: null } } : row),
            )
            .filter((row) => wanted.has(row.episode_id))
          const comparison = compareRuns(side('A', rows), side('A again', rows), { seed, resamples: 500 })
          for (const metric of [...comparison.metrics, ...comparison.families.flatMap((family) => family.metrics)]) {
            if (metric.difference === null) continue
            expect(metric.difference).toBe(0)
            expect(metric.low! <= 0 && 0 <= metric.high!).toBe(true)
            expect(['no-difference', 'too-few-episodes']).toContain(metric.verdict)
          }
          expect(comparison.probes.fixed).toEqual([])
          expect(comparison.probes.broken).toEqual([])
          expect(comparison.probes.mcnemar.pValue).toBe(1)
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('a run with repetitions compared with itself', () => {
  test('property: 1 to 3 repetitions, each wrong on other probes: still zero difference, zero inside every interval, nothing fixed or broken', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.nat(239), { maxLength: 30 }), { minLength: 1, maxLength: 3 }), fc.nat(10_000), (spoiledPerRepetition, seed) => {
        const rows = spoiledPerRepetition.flatMap((spoiled, repetition) => {
          const wrong = new Set(spoiled)
          return latest.map(
            (row, i): PredictionRow =>
              wrong.has(i) && row.status === 'answered'
                ? { ...row, repetition, prediction: { state: 'known' as const, value: 'misheard' } }
                : { ...row, repetition },
          )
        })
        const comparison = compareRuns(side('A', rows), side('A again', rows), { seed, resamples: 500, families: [] })
        expect(comparison.a.repetitions).toBe(spoiledPerRepetition.length)
        for (const metric of comparison.metrics) {
          if (metric.difference === null) continue
          expect(metric.difference).toBe(0)
          expect(metric.low! <= 0 && 0 <= metric.high!).toBe(true)
          expect(metric.verdict).toBe('no-difference')
        }
        expect([comparison.probes.fixed, comparison.probes.broken]).toEqual([[], []])
        expect(comparison.probes.mcnemar.pValue).toBe(1)
      }),
      { numRuns: 15 },
    )
  })
})

describe('reading run folders and predictions files', () => {
  test('a run folder with three repetitions against one with one: each episode carries its repetitions, probes compared over the first', () => {
    const spoiled = (rows: readonly PredictionRow[], probe: string): PredictionRow[] =>
      rows.map((row) => (row.probe_id === probe && row.status === 'answered' ? { ...row, prediction: { state: 'unknown' as const, value: null } } : row))
    const probe = 'replacement-01-q3'
    const a = runFolder('one', [versioned])
    // B is wrong on the probe in repetition 2 only: right 2 of 3.
    const b = runFolder('three', [versioned, spoiled(versioned, probe), versioned])
    const comparison = compareRuns(a, b)
    expect(comparison.a.repetitions).toBe(1)
    expect(comparison.b.repetitions).toBe(3)
    expect(comparison.probes.repetitionsCompared).toBe(1)
    // Over the first repetition of each, nothing differs.
    expect(comparison.probes.broken).toEqual([])
    // Current-state accuracy of B pools its 3 repetitions: 3·232 − 1 right of 3·232.
    const current = comparison.metrics.find((entry) => entry.metric === 'currentStateAccuracy')!
    expect(current.b).toEqual({ numerator: 695, denominator: 696, value: 695 / 696 })
    expect(current.a.denominator).toBe(232)
    // Both with three: the probe is compared by its counts, 3 of 3 against 2 of 3: broken.
    const both = compareRuns(runFolder('three-again', [versioned, versioned, versioned]), b)
    expect(both.probes.broken.map((change) => [change.probeId, change.a.right, change.b.right, change.b.asked])).toEqual([[probe, 3, 2, 3]])
    expect(both.probes.mcnemar.pValue).toBe(1)
  })

  test("upstream's files: a predictions file with its manifest beside it, and one holding two repetitions", () => {
    const dir = join(work, 'upstream')
    mkdirSync(dir)
    copyFileSync(join(UPSTREAM, 'predictions.jsonl'), join(dir, 'predictions.jsonl'))
    copyFileSync(join(UPSTREAM, 'run_manifest.json'), join(dir, 'run_manifest.json'))
    const comparison = compareRuns(dir, join(dir, 'predictions.jsonl'))
    expect(comparison.identity).toMatchObject({ split: 'smoke', track: 'structured', variant: null })
    expect(comparison.identity.datasetHash).toMatch(/^sha256:[0-9a-f]{64}$/)
    const twice = join(UPSTREAM, 'predictions-two-repetitions.jsonl')
    const repeated = compareRuns(twice, twice)
    expect([repeated.a.repetitions, repeated.b.repetitions]).toEqual([2, 2])
    // The manifest beside it says smoke; without one, nothing is known but the rows.
    expect(repeated.identity).toMatchObject({ split: 'smoke', track: 'structured' })
    const bare = join(work, 'bare.jsonl')
    copyFileSync(twice, bare)
    expect(compareRuns(bare, bare).identity).toEqual({ datasetHash: null, split: null, track: null, variant: null })
  })
})

describe('each side’s counts', () => {
  test('probe counts and completeness per repetition, by hand, and as the side’s reports (scored when read) give them', () => {
    // Repetition 2 of B: two answered rows turned into error rows and one into unsupported.
    const answered = versioned.filter((row) => row.status === 'answered')
    const errored = new Set(answered.slice(0, 2).map((row) => row.probe_id))
    const unsupported = answered[2]!.probe_id
    const changed = versioned.map((row): PredictionRow => {
      if (row.status !== 'answered') return row
      const { prediction: _answer, latency_ms: _latency, ...rest } = row
      if (errored.has(row.probe_id)) return { ...rest, status: 'error', error: 'query: planted' } as PredictionRow
      if (row.probe_id === unsupported) return { ...rest, status: 'unsupported' } as PredictionRow
      return row
    })
    const before = { total: versioned.length, answered: answered.length, unsupported: versioned.length - answered.length, error: 0 }
    expect(versioned.every((row) => row.status !== 'error')).toBe(true)
    const comparison = compareRuns(runFolder('clean', [versioned, versioned]), runFolder('errors', [versioned, changed]))
    expect(comparison.a.probeCounts).toEqual([before, before])
    expect(comparison.a.complete).toBe(true)
    expect(comparison.b.probeCounts).toEqual([before, { ...before, answered: before.answered - 3, unsupported: before.unsupported + 1, error: 2 }])
    expect(comparison.b.complete).toBe(false)
    expect(comparison.b.errors).toBe(2)
    for (const compared of [comparison.a, comparison.b]) {
      expect(compared.reports.map((report) => report.probe_counts)).toEqual(compared.probeCounts)
      expect(compared.reports.every((report) => report.complete)).toBe(compared.complete)
    }
    // Read twice, scored once: the same reports.
    expect(comparison.b.reports).toBe(comparison.b.reports)
  })
})

describe('refusals: runs that cannot be compared', () => {
  const refusal = (run: () => unknown) => {
    try {
      run()
    } catch (error) {
      expect(error).toBeInstanceOf(CompareError)
      return error as CompareError
    }
    throw new Error('not refused')
  }

  test('another dataset hash, split, track or variant in the manifests', () => {
    const a = runFolder('hash-a', [latest], MANIFEST)
    const b = runFolder('hash-b', [versioned], { ...MANIFEST, dataset_file_hashes: { ...MANIFEST.dataset_file_hashes, 'probes_dev.jsonl': 'q'.repeat(64) } })
    const hash = refusal(() => compareRuns(a, b))
    expect(hash.code).toBe('COMPARE_REFUSED')
    expect(hash.message).toMatch(new RegExp(`^${a} and ${b} were run on different dataset hashes: sha256:[0-9a-f]{64} against sha256:[0-9a-f]{64}`))
    const track = refusal(() => compareRuns(a, runFolder('track-b', [versioned], { ...MANIFEST, track: 'conversation' })))
    expect(track.message).toContain('were run on different tracks: structured against conversation')
    const variant = refusal(() =>
      compareRuns(
        runFolder('v1', [latest], { ...MANIFEST, dataset: { variant: null } }),
        runFolder('v7', [versioned], {
          ...MANIFEST,
          dataset: { variant: { seed: 7, generator: 'timegrounded-variant', generator_version: 1, variations: ['topics'] } },
        }),
      ),
    )
    expect(variant.message).toContain('were run on different data: TIVARQ v1 against variant seed 7 (timegrounded-variant 1; topics)')
  })

  test('other probes, or the same probe ids with other gold', async () => {
    const smoke = await runStore(referenceStore('latest'), await loadSplit(undefined, 'smoke'))
    const probes = refusal(() => compareRuns(side('dev run', latest), side('smoke run', smoke)))
    expect(probes.message).toMatch(/^dev run and smoke run hold different probe sets \(240 and 60 probes\): \d+ only in dev run \(/)
    const fewer = refusal(() => compareRuns(side('A', latest), side('B', versioned.slice(1))))
    expect(fewer.message).toContain(`1 only in A (${latest[0]!.probe_id})`)
    const regolded = versioned.map((row, i) => (i === 3 ? { ...row, expected: { state: 'known' as const, value: 'something else' } } : row))
    const gold = refusal(() => compareRuns(side('A', latest), side('B', regolded)))
    expect(gold.message).toBe(
      `A and B were run on different data: 1 probes ask another question or expect another answer in each (${latest[3]!.probe_id}). Run both stores on the same dataset.`,
    )
  })

  test('a folder without predictions, a missing path, an option that cannot work', () => {
    mkdirSync(join(work, 'empty'))
    expect(refusal(() => compareRuns(join(work, 'empty'), join(work, 'empty'))).code).toBe('COMPARE_INPUT_INVALID')
    expect(refusal(() => compareRuns(join(work, 'nowhere'), join(work, 'empty'))).message).toContain('nowhere: no such file or folder')
    const metric = refusal(() => compareRuns(side('A', latest), side('B', versioned), { metrics: ['queryLatencyP50Ms' as never] }))
    expect(metric.code).toBe('COMPARE_OPTION_INVALID')
    expect(refusal(() => compareRuns(side('A', latest), side('B', versioned), { families: ['nope'] })).message).toContain('the runs hold no family nope')
  })
})
