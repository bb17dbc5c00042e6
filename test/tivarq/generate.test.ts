import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DATASET_FILE_NAMES, generateDataset, writeDataset } from '../../src/tivarq/generate.js'
import { episodeParameters, planEpisode } from '../../src/tivarq/generate-templates.js'
import { resolveGold } from '../../src/tivarq/gold.js'
import { FAMILIES, SPLITS, episodeSchema, manifestSchema, probeSchema } from '../../src/tivarq/schema.js'

const FIXTURES = new URL('../../fixtures/tivarq-v1/', import.meta.url)

// The SHA-256 of each JSONL file as published with TIVARQ v1 (MANMEET75/TIVARQ,
// revision cae7ab63ff9daf1f9d167978d5496b93554ac447; listed in its manifest.json).
const PUBLISHED_SHA256: Record<string, string> = {
  'episodes_smoke.jsonl': '1904f6db1eaafb34e73568da88cea077696919a395221ecd57e2c07f32149b3c',
  'episodes_dev.jsonl': 'd743eda91367d2c2240d34e7f244366d316ecf503696863c9052306acbabce47',
  'episodes_test.jsonl': '4e516c4fe66571e8d574452a91827e5c560f4bbca7e8ae73f99c5460cc0316d0',
  'probes_smoke.jsonl': '20ea59a82f8fc96fc8da70361c73e3e3dc59c25ce872fed401d18d1d7ca65159',
  'probes_dev.jsonl': 'acd5ce41d6f6859c4f352777e3c29196ff9ed2222e4073ac546b2212173de0c8',
  'probes_test.jsonl': 'f8f8944a12bbd3e53d4ef11558536f28c09a3621c55741cf98723274edd87055',
}

const sha256 = (bytes: string | Buffer): string => createHash('sha256').update(bytes).digest('hex')

describe('generateDataset', () => {
  const dataset = generateDataset()

  it('is deterministic: two runs give identical files', () => {
    const again = generateDataset()
    expect(Object.keys(again.files)).toEqual([...DATASET_FILE_NAMES])
    for (const name of DATASET_FILE_NAMES) expect(again.files[name]).toBe(dataset.files[name])
  })

  it.each(DATASET_FILE_NAMES.map((name) => [name]))('%s equals the published bytes', (name) => {
    const published = readFileSync(new URL(name, FIXTURES))
    expect(Buffer.from(dataset.files[name], 'utf8').equals(published)).toBe(true)
  })

  it('hashes every JSONL file to the published SHA-256, and the manifest lists exactly those', () => {
    for (const [name, hash] of Object.entries(PUBLISHED_SHA256)) {
      expect(sha256(dataset.files[name as keyof typeof dataset.files])).toBe(hash)
    }
    expect(dataset.manifest.files).toEqual(PUBLISHED_SHA256)
    const manifest = manifestSchema.parse(JSON.parse(dataset.files['manifest.json']))
    expect(manifest).toEqual(JSON.parse(readFileSync(new URL('manifest.json', FIXTURES), 'utf8')))
    expect(manifest.episode_count).toBe(240)
    expect(manifest.seed).toBe(20261001)
  })

  it('holds 240 valid episodes and 1,200 valid probes: 1/4/15 episodes per family in smoke/dev/test', () => {
    const sizes = SPLITS.map((split) => [dataset.episodes[split].length, dataset.probes[split].length])
    expect(sizes).toEqual([
      [12, 60],
      [48, 240],
      [180, 900],
    ])
    for (const split of SPLITS) {
      for (const episode of dataset.episodes[split]) episodeSchema.parse(episode)
      for (const probe of dataset.probes[split]) probeSchema.parse(probe)
      for (const family of FAMILIES) {
        const count = dataset.episodes[split].filter((episode) => episode.family === family).length
        expect(count).toBe({ smoke: 1, dev: 4, test: 15 }[split])
      }
    }
  })

  it('takes every expected answer from the gold resolver over the ingested prefix', () => {
    for (const split of SPLITS) {
      const byId = new Map(dataset.episodes[split].map((episode) => [episode.episode_id, episode]))
      for (const probe of dataset.probes[split]) {
        const episode = byId.get(probe.episode_id)
        expect(episode, probe.probe_id).toBeDefined()
        const gold = resolveGold(episode!.events.slice(0, probe.after_event_index), { slot: probe.slot, scope: probe.scope, asOf: probe.as_of })
        expect(probe.expected, probe.probe_id).toEqual(gold)
      }
    }
  })

  it('varies the parameters by rule: topic, values and dates differ between episodes of one family', () => {
    const first = episodeParameters('replacement', 0)
    const second = episodeParameters('replacement', 1)
    expect(second.dayZeroMs - first.dayZeroMs).toBe(11 * 86_400_000)
    expect(second.topic.slot).not.toBe(first.topic.slot)
    expect(episodeParameters('reversal', 0).dayZeroMs - first.dayZeroMs).toBe(230 * 86_400_000)
    // The scripts end with the control probe, asked once every event is ingested.
    for (const family of FAMILIES) {
      const plan = planEpisode(episodeParameters(family, 3))
      expect(plan.probes.at(-1)?.afterEventIndex).toBe(plan.events.length)
    }
  })
})

describe('writeDataset', () => {
  it('writes the seven files into a new directory, byte for byte as published', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tivarq-gen-'))
    try {
      const dir = join(root, 'nested', 'out')
      const written = await writeDataset(dir)
      expect(written.map((file) => file.name)).toEqual([...DATASET_FILE_NAMES])
      for (const file of written) {
        const bytes = await readFile(join(dir, file.name))
        expect(bytes.equals(readFileSync(new URL(file.name, FIXTURES))), file.name).toBe(true)
        expect(file.sha256).toBe(sha256(bytes))
        expect(file.bytes).toBe(bytes.length)
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })
})
