/**
 * The loaders: rows come back in file order with the manifest and file hashes;
 * an invalid directory throws a DatasetError that carries and renders its issues.
 */
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { TimegroundedError } from '../../src/errors.js'
import { DatasetError } from '../../src/tivarq/dataset.js'
import { bundledDatasetDir, loadDataset, loadSplit, sha256File } from '../../src/tivarq/dataset.js'
import type { Split } from '../../src/tivarq/schema.js'
import { cleanupCopies, copyFixtures, editRow, readText, rehash } from './fixture-copy.js'

afterAll(cleanupCopies)

const EXPECTED: Record<Split, { episodes: number; probes: number; episodesHash: string; probesHash: string }> = {
  smoke: {
    episodes: 12,
    probes: 60,
    episodesHash: '1904f6db1eaafb34e73568da88cea077696919a395221ecd57e2c07f32149b3c',
    probesHash: '20ea59a82f8fc96fc8da70361c73e3e3dc59c25ce872fed401d18d1d7ca65159',
  },
  dev: {
    episodes: 48,
    probes: 240,
    episodesHash: 'd743eda91367d2c2240d34e7f244366d316ecf503696863c9052306acbabce47',
    probesHash: 'acd5ce41d6f6859c4f352777e3c29196ff9ed2222e4073ac546b2212173de0c8',
  },
  test: {
    episodes: 180,
    probes: 900,
    episodesHash: '4e516c4fe66571e8d574452a91827e5c560f4bbca7e8ae73f99c5460cc0316d0',
    probesHash: 'f8f8944a12bbd3e53d4ef11558536f28c09a3621c55741cf98723274edd87055',
  },
}

describe('loadSplit', () => {
  test.each(['smoke', 'dev', 'test'] as const)('loads the bundled %s split with its hashes', async (split) => {
    const loaded = await loadSplit(undefined, split)
    expect(loaded.episodes).toHaveLength(EXPECTED[split].episodes)
    expect(loaded.probes).toHaveLength(EXPECTED[split].probes)
    expect(loaded.fileHashes).toEqual({ [`episodes_${split}.jsonl`]: EXPECTED[split].episodesHash, [`probes_${split}.jsonl`]: EXPECTED[split].probesHash })
    expect(loaded.manifest.seed).toBe(20261001)
    expect(loaded.episodes.every((episode) => episode.split === split)).toBe(true)
  })

  test('rows come back in file order, equal to the JSON on each line', async () => {
    const { episodes, probes } = await loadSplit(bundledDatasetDir(), 'dev')
    const text = readText(bundledDatasetDir(), 'probes_dev.jsonl').split('\n')
    expect(probes[6]).toEqual(JSON.parse(text[6]!))
    expect(probes[6]!.probe_id).toBe('replacement-02-q3')
    expect(episodes[0]!.episode_id).toBe('replacement-01')
  })

  // The gold_mismatch case (a wrong expected answer) is tested as data in validate.test.ts; here a missing field shows the loader's error.
  test('throws a DatasetError naming the line and field when the split is invalid', async () => {
    const dir = copyFixtures()
    editRow(dir, 'probes_dev.jsonl', 7, (row) => delete row.role)
    rehash(dir)
    const error = await loadSplit(dir, 'dev').catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(DatasetError)
    expect(error).toBeInstanceOf(TimegroundedError)
    const datasetError = error as DatasetError
    expect(datasetError.code).toBe('DATASET_INVALID')
    expect(datasetError.name).toBe('DatasetError')
    expect(datasetError.issues).toHaveLength(1)
    expect(datasetError.issues[0]).toMatchObject({ code: 'missing_field', file: 'probes_dev.jsonl', line: 7, path: 'role' })
    expect(datasetError.message).toBe(
      `TIVARQ dataset at ${dir} is invalid (1 issue); fix the files or point to a valid copy:\n` +
        'probes_dev.jsonl:7: role: missing; expected one of target, control, scope_control',
    )
  })

  test('checks only the split asked for (a broken test split does not stop smoke)', async () => {
    const dir = copyFixtures()
    editRow(dir, 'probes_test.jsonl', 1, (row) => (row.expected.state = 'maybe'))
    rehash(dir)
    await expect(loadSplit(dir, 'smoke')).resolves.toMatchObject({ episodes: { length: 12 } })
    await expect(loadSplit(dir, 'test')).rejects.toThrow('probes_test.jsonl:1: expected.state: unknown state "maybe"')
  })

  test('refuses an unknown split with a stable code', async () => {
    const error = await loadSplit(undefined, 'train' as Split).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TimegroundedError)
    expect(error).toMatchObject({ code: 'UNKNOWN_SPLIT', message: 'unknown split "train"; pass one of smoke, dev, test' })
  })

  test('bounds the issues a DatasetError carries', async () => {
    const dir = copyFixtures()
    for (let line = 1; line <= 10; line++) editRow(dir, 'probes_smoke.jsonl', line, (row) => (row.after_event_index = 50))
    rehash(dir)
    const error = (await loadSplit(dir, 'smoke', { maxIssues: 3 }).catch((caught: unknown) => caught)) as DatasetError
    expect(error.issues).toHaveLength(3)
    expect(error.omittedIssues).toBe(7)
    expect(error.message.split('\n')[0]).toBe(`TIVARQ dataset at ${dir} is invalid (10 issues); fix the files or point to a valid copy:`)
    expect(error.message.split('\n').at(-1)).toBe('… and 7 more issues not shown (raise `maxIssues` or `--max-issues` to list them)')
  })
})

describe('loadDataset', () => {
  test('loads all three splits of the bundled fixtures', async () => {
    const dataset = await loadDataset()
    expect(dataset.canonicalSet).toBe(true)
    expect(dataset.dir).toBe(bundledDatasetDir())
    expect(Object.fromEntries(Object.entries(dataset.splits).map(([split, rows]) => [split, [rows.episodes.length, rows.probes.length]]))).toEqual({
      smoke: [12, 60],
      dev: [48, 240],
      test: [180, 900],
    })
    expect(Object.keys(dataset.fileHashes)).toHaveLength(6)
  })

  test('throws a DatasetError when manifest.json is missing', async () => {
    const dir = copyFixtures()
    rmSync(join(dir, 'manifest.json'))
    await expect(loadDataset(dir)).rejects.toThrow(`manifest.json: not found in ${dir}; without it no file can be checked`)
  })
})

test('sha256File hashes a file as sha256sum does', async () => {
  expect(await sha256File(join(bundledDatasetDir(), 'probes_dev.jsonl'))).toBe(EXPECTED.dev.probesHash)
})
