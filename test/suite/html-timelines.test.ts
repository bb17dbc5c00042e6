/**
 * Where a test run's page takes its timelines from: the split the suite ran,
 * read again from disk or, for a variant, generated again, and used only when
 * its bytes hash to what the suite ran (the real bundled data, a real variant,
 * a real copy changed on disk).
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { datasetHashOf } from '../../src/suite/baseline.js'
import { NaiveStore } from '../../examples/naive-store/src/store.js'
import { renderHtmlReport } from '../../src/report/html/model/build.js'
import { drawnEpisodes } from '../../src/report/html/model/failing.js'
import { runPageInput } from '../../src/report/html/model/input.js'
import { suiteTimelines } from '../../src/report/html/model/suite-timelines.js'
import type { Timelines } from '../../src/report/html/model/timelines.js'
import { DATASET_SEED } from '../../src/tivarq/schema.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { runStore } from '../support/html-report-input.js'
import { loadSplit, loadVariantSplit } from '../../src/tivarq/dataset.js'
import { bundledDatasetDir, episodesFileName, probesFileName } from '../../src/tivarq/dataset-files.js'

/** Every episode's id: the page asks for all of them. */
const idsOf = (episodes: readonly { episode_id: string }[]) => new Set(episodes.map((episode) => episode.episode_id))

const scratch = mkdtempSync(join(tmpdir(), 'tg-timelines-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

test('the bundled split, read again, is the data the suite ran', async () => {
  const loaded = await loadSplit(undefined, 'smoke')
  const timelines = suiteTimelines({}, 'smoke', datasetHashOf(loaded.fileHashes), idsOf(loaded.episodes))
  expect(timelines.note).toBeUndefined()
  expect(timelines.episodes).toEqual(loaded.episodes)
  expect(timelines.probes).toEqual(loaded.probes)
})

test('of the episodes, only those asked for are read; the page of a run is the one all of them give', async () => {
  const loaded = await loadSplit(undefined, 'smoke')
  const rows = await runStore(() => new NaiveStore(), loaded)
  const drawn = drawnEpisodes(rows)
  expect(drawn.size).toBeGreaterThan(0)
  expect(drawn.size).toBeLessThan(loaded.episodes.length)
  const timelines = suiteTimelines({}, 'smoke', datasetHashOf(loaded.fileHashes), drawn)
  expect(timelines.episodes).toEqual(loaded.episodes.filter((episode) => drawn.has(episode.episode_id)))
  expect(timelines.probes).toEqual(loaded.probes)
  const page = (episodes: Timelines['episodes']) =>
    renderHtmlReport(
      runPageInput({
        title: 'smoke',
        identity: { subject: { label: 'store', value: 'naive' }, data: null },
        report: scoreRows(rows, { seed: DATASET_SEED }),
        rows,
        timelines: { episodes, probes: loaded.probes },
      }),
    )
  expect(page(timelines.episodes)).toBe(page(loaded.episodes))
})

test('a variant is generated again from its seed, and its timelines are its own, not v1’s', async () => {
  const loaded = await loadVariantSplit(7, 'smoke')
  const timelines = suiteTimelines({ variant: 7 }, 'smoke', datasetHashOf(loaded.fileHashes), idsOf(loaded.episodes))
  expect(timelines.note).toBeUndefined()
  expect(timelines.episodes).toEqual(loaded.episodes)
  // Another seed is other data: no timelines, and the page says why.
  expect(suiteTimelines({ variant: 8 }, 'smoke', datasetHashOf(loaded.fileHashes), idsOf(loaded.episodes))).toEqual({
    episodes: [],
    probes: [],
    note: 'the smoke split in TIVARQ variant 8 is no longer the data the suite ran (it generates other data here)',
  })
})

test('a directory whose files changed after the run gives no timelines, and a note naming it', async () => {
  const loaded = await loadSplit(undefined, 'smoke')
  for (const name of [episodesFileName('smoke'), probesFileName('smoke')]) copyFileSync(join(bundledDatasetDir(), name), join(scratch, name))
  writeFileSync(join(scratch, probesFileName('smoke')), '\n', { flag: 'a' })
  const timelines = suiteTimelines({ dir: scratch }, 'smoke', datasetHashOf(loaded.fileHashes), idsOf(loaded.episodes))
  expect(timelines.episodes).toEqual([])
  expect(timelines.note).toBe(`the smoke split in ${scratch} is no longer the data the suite ran (its files changed since)`)
})
