/**
 * TIVARQ variants: deterministic per seed, validated by the same validator as
 * the published data, each variation visible in the rows (and absent when
 * switched off), and able to rank: a correct store still scores 1.0, a store
 * that re-applies replays fails duplicate_event only on a variant, and a
 * conversation-track reader written against v1's sentences drops on one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createStore as createSqliteStore } from '../../examples/sqlite-bitemporal/src/store.js'
import { createStore as createInMemoryStore } from '../../examples/in-memory/src/store.js'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { openPool } from '../../src/harness/pool.js'
import type { MemorySource } from '../../src/adapters/source.js'
import type { Track } from '../../src/adapters/types.js'
import { loadSplit, loadVariantSplit, type LoadedSplit } from '../../src/tivarq/dataset.js'
import { DATASET_FILE_NAMES, generateDataset, writeDataset } from '../../src/tivarq/generate.js'
import { TOPICS } from '../../src/tivarq/generate-templates.js'
import { runSplit } from '../../src/harness/runner.js'
import { FAMILIES, SPLITS, type Episode, type Split } from '../../src/tivarq/schema.js'
import { scoreRows } from '../../src/tivarq/score.js'
import type { TivarqReport } from '../../src/tivarq/report-shape.js'
import { validateDataset } from '../../src/tivarq/validate.js'
import { VARIATIONS, VariantOptionError, type VariantOptions } from '../../src/tivarq/variant.js'
import { datasetHashOf } from '../../src/suite/baseline.js'
import { ReplayingStore } from '../fixtures/stores/replaying-store.js'

const seven = generateDataset({ variant: 7 })
const allEpisodes = (dataset: ReturnType<typeof generateDataset>): Episode[] => SPLITS.flatMap((split) => [...dataset.episodes[split]])

async function score(source: MemorySource, data: Pick<LoadedSplit, 'episodes' | 'probes'>, track: Track = 'structured'): Promise<TivarqReport> {
  const pool = await openPool(source, { track })
  try {
    return scoreRows(await runSplit({ episodes: data.episodes, probes: data.probes, pool, options: { track } }), { seed: 1 })
  } finally {
    await pool.close()
  }
}

describe('generateDataset({ variant })', () => {
  test('is byte-identical for the same seed and differs for another', () => {
    const again = generateDataset({ variant: 7 })
    const eight = generateDataset({ variant: 8 })
    for (const name of DATASET_FILE_NAMES) {
      expect(again.files[name], name).toBe(seven.files[name])
      expect(eight.files[name], name).not.toBe(seven.files[name])
    }
  })

  test('is pinned per generator version: variant 7 of timegrounded-variant v1 has this manifest', () => {
    // A change to what a seed produces must bump VARIANT_GENERATOR_VERSION (and this hash).
    expect(seven.manifest.generator).toEqual({ name: 'timegrounded-variant', version: 1, variations: [...VARIATIONS] })
    expect(seven.manifest.seed).toBe(7)
    expect(seven.manifest.files['probes_test.jsonl']).toBe('97c2aa52552b91327f305e35183a827439613468a57e174847f88cb2622e9a22')
  })

  test('keeps v1 byte for byte when no variant is asked for', () => {
    const v1 = generateDataset()
    expect(v1.manifest.generator).toBeUndefined()
    expect(v1.manifest.files['probes_test.jsonl']).toBe('f8f8944a12bbd3e53d4ef11558536f28c09a3621c55741cf98723274edd87055')
  })

  test('refuses a seed that is not a whole number ≥ 0, naming the option', () => {
    for (const seed of [-1, 1.5, Number.NaN]) expect(() => generateDataset({ variant: seed }), String(seed)).toThrow(VariantOptionError)
    expect(() => generateDataset({ variant: { seed: 1, topics: 'no' as unknown as boolean } })).toThrow('`topics` must be true or false')
  })
})

const root = mkdtempSync(join(tmpdir(), 'tivarq-variant-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

describe('written to disk, a variant passes the validator that checks the published data', () => {
  test.each([7, 8, 123456])('variant %i: valid, v1 counts checked, every gold answer re-derived', async (seed) => {
    const dir = join(root, String(seed))
    await writeDataset(dir, { variant: seed })
    const result = await validateDataset(dir)
    expect(result.status, JSON.stringify(result.status === 'invalid' ? result.issues.slice(0, 3) : [])).toBe('valid')
    expect(result.canonicalSet).toBe(false)
    expect(result.variant).toEqual({ seed, generator: 'timegrounded-variant', version: 1, variations: [...VARIATIONS] })
    expect(result.counts).toEqual({ smoke: { episodes: 12, probes: 60 }, dev: { episodes: 48, probes: 240 }, test: { episodes: 180, probes: 900 } })
  })

  test('loadVariantSplit (in memory) gives the rows of the written directory, and a dataset hash of its own', async () => {
    const dir = join(root, 'seven')
    await writeDataset(dir, { variant: 7 })
    const fromDisk = await loadSplit(dir, 'dev')
    const inMemory = await loadVariantSplit(7, 'dev')
    expect(inMemory.episodes).toEqual(fromDisk.episodes)
    expect(inMemory.probes).toEqual(fromDisk.probes)
    expect(inMemory.fileHashes).toEqual(fromDisk.fileHashes)
    expect(inMemory.variant?.seed).toBe(7)
    // The identity a Vitest baseline is tied to: another variant, or v1, is other data.
    const v1 = await loadSplit(undefined, 'dev')
    expect(datasetHashOf(inMemory.fileHashes)).not.toBe(datasetHashOf(v1.fileHashes))
    expect(datasetHashOf((await loadVariantSplit(8, 'dev')).fileHashes)).not.toBe(datasetHashOf(inMemory.fileHashes))
  })
})

describe('each variation shows in the rows, and only when on', () => {
  const off = (switches: Omit<VariantOptions, 'seed'>) => generateDataset({ variant: { seed: 7, ...switches } })
  const texts = (dataset: ReturnType<typeof generateDataset>) => allEpisodes(dataset).flatMap((episode) => episode.events.map((event) => event.text))
  const questions = (dataset: ReturnType<typeof generateDataset>) => SPLITS.flatMap((split) => dataset.probes[split].map((probe) => probe.question))
  const V1_QUESTION = /^As of \d{4}-\d{2}-\d{2}, what is my .+ for (personal|work)\?$/

  test('paraphrases: no question in v1 form, and the episodes share no sentence with v1; off, v1 wording', () => {
    expect(questions(seven).filter((question) => V1_QUESTION.test(question))).toEqual([])
    const v1Texts = new Set(texts(generateDataset()))
    expect(texts(seven).filter((text) => v1Texts.has(text))).toEqual([])
    expect(questions(off({ paraphrases: false })).every((question) => V1_QUESTION.test(question))).toBe(true)
  })

  test('topics: new topics, values and control facts; off, v1 topics', () => {
    const v1Slots = new Set(TOPICS.map((topic) => topic.slot))
    const topics = new Set(allEpisodes(seven).map((episode) => episode.topic))
    expect([...topics].filter((slot) => !v1Slots.has(slot)).length).toBeGreaterThan(5)
    const controls = new Set(SPLITS.flatMap((split) => seven.probes[split].filter((probe) => probe.role === 'control').map((probe) => probe.slot)))
    expect(controls.size).toBeGreaterThan(1)
    expect(allEpisodes(off({ topics: false })).every((episode) => v1Slots.has(episode.topic))).toBe(true)
  })

  test('mixed offsets: one instant spelled several ways; off, every instant is midnight UTC with Z', () => {
    const instants = allEpisodes(seven).flatMap((episode) => episode.events.flatMap((event) => [event.arrived_at, event.assertion?.effective_at ?? '']))
    expect(instants.filter((instant) => /[+-]\d{2}:\d{2}$/.test(instant)).length).toBeGreaterThan(instants.length / 2)
    const spellings = new Map<number, Set<string>>()
    for (const instant of instants) spellings.set(Date.parse(instant), (spellings.get(Date.parse(instant)) ?? new Set()).add(instant))
    expect([...spellings.values()].some((spelled) => spelled.size > 1)).toBe(true)
    expect(allEpisodes(off({ mixedOffsets: false })).every((episode) => episode.events.every((event) => event.arrived_at.endsWith('T00:00:00Z')))).toBe(true)
  })

  test('same-instant replays: every duplicate_event replay lands on the instant of the correction it could undo; off, before the change', () => {
    const replayAndRival = (episode: Episode) => {
      const replayIndex = episode.events.findIndex((event, i) => episode.events.slice(0, i).some((earlier) => earlier.event_id === event.event_id))
      const replayed = episode.events[replayIndex]!
      const later = episode.events
        .slice(0, replayIndex)
        .filter((event) => event.assertion?.slot === replayed.assertion?.slot && event.assertion?.op === 'set' && event.event_id !== replayed.event_id)
      return { replayed, rival: later.at(-1)! }
    }
    for (const episode of allEpisodes(seven).filter((e) => e.family === 'duplicate_event')) {
      const { replayed, rival } = replayAndRival(episode)
      expect(Date.parse(replayed.assertion!.effective_at), episode.episode_id).toBe(Date.parse(rival.assertion!.effective_at))
      expect(replayed.assertion!.value).not.toBe(rival.assertion!.value)
    }
    for (const episode of allEpisodes(off({ sameInstantReplays: false })).filter((e) => e.family === 'duplicate_event')) {
      const { replayed, rival } = replayAndRival(episode)
      expect(Date.parse(replayed.assertion!.effective_at)).toBeLessThan(Date.parse(rival.assertion!.effective_at))
    }
  })

  test('shuffled arrivals: the aside and the opening pair arrive in other orders; off, v1 order; the other draws unchanged', () => {
    const asideAt = (episode: Episode) => episode.events.findIndex((event) => event.speaker === 'assistant')
    expect(new Set(allEpisodes(seven).map(asideAt)).size).toBeGreaterThan(3)
    const fixed = off({ shuffledArrivals: false })
    expect(allEpisodes(fixed).every((episode) => asideAt(episode) === 2)).toBe(true)
    // A variation switched off leaves the others' draws as they were.
    expect(allEpisodes(fixed).map((episode) => episode.topic)).toEqual(allEpisodes(seven).map((episode) => episode.topic))
  })
})

describe('what a variant can tell apart (test split, variant 7)', () => {
  const split: Split = 'test'
  let v1: LoadedSplit
  let variant: LoadedSplit
  beforeAll(async () => {
    v1 = await loadSplit(undefined, split)
    variant = await loadVariantSplit(7, split)
  })

  test.each([
    ['builtin:oracle', referenceStore('oracle')],
    ['builtin:versioned', referenceStore('versioned')],
    ['the SQLite example', () => createSqliteStore()],
    ['the in-memory example', () => createInMemoryStore()],
  ] as [string, MemorySource][])('%s, a correct store, scores 1.0 on the variant', async (_name, source) => {
    const report = await score(source, variant)
    expect(report.complete).toBe(true)
    expect(report.metrics.transition_success_rate).toEqual({ score: 1, cases: 195 })
    expect(report.metrics.current_state_accuracy.score).toBe(1)
    expect(report.metrics.stale_value_leakage_rate.score).toBe(0)
  })

  test('a store that re-applies replays scores 1.0 on v1 but fails every duplicate_event episode of the variant', async () => {
    const onV1 = await score(() => new ReplayingStore(), v1)
    expect(onV1.metrics.transition_success_rate).toEqual({ score: 1, cases: 195 })
    const onVariant = await score(() => new ReplayingStore(), variant)
    const duplicate = onVariant.by_family.duplicate_event!.metrics
    expect(duplicate.transition_success_rate).toEqual({ score: 0, cases: 15 })
    expect(duplicate.stale_value_leakage_rate).toEqual({ score: 1, cases: 15 })
    // Every other family is untouched: the variant isolates the bug.
    for (const family of FAMILIES.filter((f) => f !== 'duplicate_event'))
      expect(onVariant.by_family[family]!.metrics.transition_success_rate.score, family).toBe(1)
    expect(onVariant.metrics.transition_success_rate).toEqual({ score: 0.923077, cases: 195 })
    // With same-instant replays off, the variant is as blind as v1.
    const blind = await loadVariantSplit({ seed: 7, sameInstantReplays: false }, split)
    expect((await score(() => new ReplayingStore(), blind)).metrics.transition_success_rate.score).toBe(1)
  })

  test("builtin:hybrid, which reads v1's sentences, scores high on v1 and far lower on the variant", async () => {
    const onV1 = await score(referenceStore('hybrid'), v1, 'conversation')
    const onVariant = await score(referenceStore('hybrid'), variant, 'conversation')
    expect(onV1.metrics.transition_success_rate.score).toBeGreaterThanOrEqual(0.8)
    expect(onVariant.metrics.transition_success_rate.score).toBeLessThanOrEqual(onV1.metrics.transition_success_rate.score! - 0.5)
    expect(onVariant.metrics.current_state_accuracy.score).toBeLessThanOrEqual(onV1.metrics.current_state_accuracy.score! - 0.5)
    // The README's figures: every answer is scored (a value it cannot read is no assertion, never `known` without a value).
    expect(onVariant.complete).toBe(true)
    expect([onV1.metrics.transition_success_rate, onV1.metrics.stale_value_leakage_rate]).toEqual([
      { score: 0.846154, cases: 195 },
      { score: 0.133333, cases: 225 },
    ])
    expect([onVariant.metrics.transition_success_rate, onVariant.metrics.stale_value_leakage_rate, onVariant.metrics.current_state_accuracy]).toEqual([
      { score: 0, cases: 195 },
      { score: 0.12, cases: 225 },
      { score: 0.111494, cases: 870 },
    ])
    const corrections = await score(referenceStore('hybrid-corrections'), variant, 'conversation')
    expect([corrections.metrics.transition_success_rate, corrections.metrics.stale_value_leakage_rate]).toEqual([
      { score: 0, cases: 195 },
      { score: 0, cases: 225 },
    ])
  })
})
