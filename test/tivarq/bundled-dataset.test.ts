/**
 * The bundled dataset is loaded without validating it again only because its
 * bytes are pinned: these tests run the full validation on the bundled files
 * and hold the quick path to give what it gives (the same rows, field for
 * field, the same hashes and manifest; the fields come in the file's sorted
 * order rather than the schema's), and show that
 * any other directory, even a byte-for-byte copy edited by one character, is
 * still validated in full.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { BUNDLED_MANIFEST_SHA256, bundledTimelineSplit, inspectBundled, rowsOf, wantedEpisodesOf } from '../../src/tivarq/bundled-dataset.js'
import { DatasetError, loadDataset, loadSplit } from '../../src/tivarq/dataset.js'
import { loadSplitSync } from '../../src/tivarq/dataset-sync.js'
import { bundledDatasetDir } from '../../src/tivarq/dataset-files.js'
import { SPLITS } from '../../src/tivarq/schema.js'
import { inspectDatasetSync } from '../../src/tivarq/validate.js'

const scratch = mkdtempSync(join(tmpdir(), 'timegrounded-bundled-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('the quick path for the bundled dataset', () => {
  test('the pinned SHA-256 is that of the shipped manifest.json, and the full validation passes on those files', () => {
    const bytes = readFileSync(join(bundledDatasetDir(), 'manifest.json'))
    expect(createHash('sha256').update(bytes).digest('hex'), 'fixtures changed: update BUNDLED_MANIFEST_SHA256').toBe(BUNDLED_MANIFEST_SHA256)
    expect(inspectDatasetSync(undefined).result.status).toBe('valid')
  })

  test.each([[['smoke']], [['dev']], [['test']], [[...SPLITS]]] as const)('splits %j: what the full validation gives', (splits) => {
    const full = inspectDatasetSync(undefined, { splits: [...splits] })
    const quick = inspectBundled([...splits])
    expect(quick).not.toBeNull()
    expect(quick).toEqual(full)
  })

  test('the loaders give the same as before: loadSplit, loadSplitSync and loadDataset', async () => {
    const full = inspectDatasetSync(undefined, { splits: ['test'] })
    if (full.result.status !== 'valid') throw new Error('the bundled dataset is invalid')
    const loaded = await loadSplit(undefined, 'test')
    expect(loaded.probes).toEqual(full.rows.test?.probes)
    expect(loaded.episodes).toEqual(full.rows.test?.episodes)
    expect(loaded.fileHashes).toEqual(full.result.fileHashes)
    expect(loadSplitSync(bundledDatasetDir(), 'smoke').probes).toEqual(inspectDatasetSync(undefined, { splits: ['smoke'] }).rows.smoke?.probes)
    const whole = await loadDataset()
    const all = inspectDatasetSync(undefined)
    if (all.result.status !== 'valid') throw new Error('the bundled dataset is invalid')
    expect(whole).toEqual({ dir: all.result.dir, manifest: all.result.manifest, canonicalSet: true, splits: all.rows, fileHashes: all.result.fileHashes })
  })

  test('a copy with one character changed is validated in full and refused, naming the file', async () => {
    const copy = join(scratch, 'edited')
    cpSync(bundledDatasetDir(), copy, { recursive: true })
    const file = join(copy, 'probes_test.jsonl')
    writeFileSync(file, readFileSync(file, 'utf8').replace('"role":"target"', '"role":"targe"'))
    const error = await loadSplit(copy, 'test').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DatasetError)
    expect((error as DatasetError).message).toContain('probes_test.jsonl')
  })
})

describe("the page's timelines: every probe, and only the episodes asked for", () => {
  const filesOf = (split: (typeof SPLITS)[number]) => ({
    episodes: readFileSync(join(bundledDatasetDir(), `episodes_${split}.jsonl`)),
    probes: readFileSync(join(bundledDatasetDir(), `probes_${split}.jsonl`)),
  })

  test.each([...SPLITS])('the %s split: what loadSplit gives, its episodes cut to those wanted (any subset)', async (split) => {
    const loaded = await loadSplit(undefined, split)
    const ids = loaded.episodes.map((episode) => episode.episode_id)
    fc.assert(
      fc.property(fc.subarray(ids), fc.array(fc.string(), { maxLength: 3 }), (some, strangers) => {
        const wanted = new Set([...some, ...strangers])
        expect(bundledTimelineSplit(split, wanted)).toEqual({
          episodes: loaded.episodes.filter((episode) => wanted.has(episode.episode_id)),
          probes: loaded.probes,
        })
      }),
      { numRuns: 20 },
    )
    // Every line of the file is read by the id it opens with: all of them wanted gives every row.
    expect(wantedEpisodesOf(filesOf(split).episodes, new Set(ids))).toEqual(rowsOf(filesOf(split).episodes))
  })

  test('lines written another way (spaces, other key order, escapes, blank lines) are parsed to find their id', () => {
    const idArb = fc.oneof(fc.constantFrom('a-01', 'b-02', 'c"3', 'd\\4', 'é-05'), fc.string({ maxLength: 6 }))
    const lineArb = fc.tuple(idArb, fc.constantFrom('sorted', 'spaced', 'later', 'blank')).map(([id, how]) => {
      if (how === 'blank') return { id: null, line: '  ' }
      const episode = how === 'later' ? { events: [], episode_id: id } : { episode_id: id, events: [] }
      return { id, line: how === 'spaced' ? JSON.stringify(episode, null, 1).replaceAll('\n', ' ') : JSON.stringify(episode) }
    })
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 12 }), fc.array(idArb, { maxLength: 4 }), (lines, wantedIds) => {
        const bytes = Buffer.from(lines.map((line) => line.line).join('\n'))
        const wanted = new Set([...wantedIds, ...lines.filter((_, i) => i % 2 === 0).flatMap((line) => (line.id === null ? [] : [line.id]))])
        const all = rowsOf<{ episode_id: string }>(bytes)
        expect(wantedEpisodesOf(bytes, wanted)).toEqual(all.filter((episode) => wanted.has(episode.episode_id)))
      }),
      { numRuns: 300 },
    )
  })
})
