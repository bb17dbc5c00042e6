/**
 * A predictions file scored on its own gets timelines only when every row's
 * probe is in the data and is the same probe: the same episode, transition,
 * place, old value and expected answer, the last two compared as their JSON.
 * Real rows (the smoke split answered by a real store) against the real split.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { NaiveStore } from '../../examples/naive-store/src/store.js'
import { matchedTimelines } from '../../src/report/html/model/timelines.js'
import { type LoadedSplit, loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { runStore } from '../support/html-report-input.js'

let smoke: LoadedSplit
let rows: PredictionRow[]

beforeAll(async () => {
  smoke = await loadSplit(undefined, 'smoke')
  rows = await runStore(() => new NaiveStore(), smoke)
})

/** The rows with the one at `index` replaced by `change(row)`. */
function changed(index: number, change: (row: PredictionRow) => PredictionRow): PredictionRow[] {
  return rows.map((row, at) => (at === index ? change(row) : row))
}

function noteOf(rowsGiven: readonly PredictionRow[]): string | undefined {
  return matchedTimelines(rowsGiven, smoke, 'the smoke split').note
}

describe('matchedTimelines', () => {
  test("the split's own rows: every episode and probe they asked, no note", () => {
    const timelines = matchedTimelines(rows, smoke, 'the smoke split')
    expect(timelines.note).toBeUndefined()
    expect(timelines.probes.map((probe) => probe.probe_id)).toEqual(smoke.probes.map((probe) => probe.probe_id))
    expect(timelines.episodes.map((episode) => episode.episode_id)).toEqual(smoke.episodes.map((episode) => episode.episode_id))
    const some = rows.filter((row) => row.episode_id === rows[0]?.episode_id)
    expect(matchedTimelines(some, smoke, 'the smoke split').episodes.map((episode) => episode.episode_id)).toEqual([rows[0]?.episode_id])
  })

  test('a list value compared by its items: the same list matches, another order does not', () => {
    const index = rows.findIndex((row) => Array.isArray(row.expected.value))
    expect(index).toBeGreaterThanOrEqual(0)
    const list = rows[index]?.expected.value as string[]
    expect(list.length).toBeGreaterThan(1)
    expect(noteOf(changed(index, (row) => ({ ...row, expected: { state: 'known', value: [...list] } })))).toBeUndefined()
    expect(noteOf(changed(index, (row) => ({ ...row, expected: { state: 'known', value: [...list].reverse() } })))).toContain('is another probe there')
  })

  test.each([
    ['another old value', (row: PredictionRow): PredictionRow => ({ ...row, old_value: 'something else' })],
    ['an old value left out where the probe has none', (row: PredictionRow): PredictionRow => ({ ...row, old_value: undefined }) as unknown as PredictionRow],
    ['another expected value', (row: PredictionRow): PredictionRow => ({ ...row, expected: { state: 'known', value: 'something else' } })],
    ['another expected state', (row: PredictionRow): PredictionRow => ({ ...row, expected: { state: 'unknown', value: null } })],
    [
      'the expected answer with its fields the other way round',
      (row: PredictionRow): PredictionRow => ({ ...row, expected: { value: row.expected.value, state: row.expected.state } }) as PredictionRow,
    ],
    [
      'the expected answer with one more field',
      (row: PredictionRow): PredictionRow => ({ ...row, expected: { ...row.expected, note: 'x' } }) as unknown as PredictionRow,
    ],
    ['another phase', (row: PredictionRow): PredictionRow => ({ ...row, phase: row.phase === 'pre' ? 'post' : 'pre' })],
  ])('%s: not the same probe, no timelines, the probe named', (_what, change) => {
    const index = rows.findIndex((row) => row.expected.state === 'known' && typeof row.expected.value === 'string' && row.old_value === null)
    const timelines = matchedTimelines(changed(index, change), smoke, 'the smoke split')
    expect(timelines.episodes).toEqual([])
    expect(timelines.probes).toEqual([])
    expect(timelines.note).toBe(
      `the predictions are not of the smoke split (probe ${rows[index]?.probe_id} is another probe there); pass the data they were run on with \`--dataset DIR\``,
    )
  })

  test('a probe the data does not hold', () => {
    expect(noteOf(changed(3, (row) => ({ ...row, probe_id: 'nowhere-01-q1' })))).toBe(
      'the predictions are not of the smoke split (probe nowhere-01-q1 is not in it); pass the data they were run on with `--dataset DIR`',
    )
  })
})
