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
import { afterAll, describe, expect, test } from 'vitest'
import { BUNDLED_MANIFEST_SHA256, inspectBundled } from '../../src/tivarq/bundled-dataset.js'
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
