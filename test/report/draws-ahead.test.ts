/**
 * `run` draws its intervals' bootstrap indices while the adapter process starts
 * (src/report/draws-ahead.ts). The draws depend on the seed, the resamples and
 * how many episodes an interval resamples, so drawing ahead only pays off when
 * the counts drawn are the ones scoring resamples: every episode of the run
 * (the report's interval) and, with the page, each family's episodes (the
 * page's per-family intervals). Checked against the rows of a real run of the
 * test split, counted here from the rows themselves; and an interval drawn
 * after them is the interval as defined.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { drawRunIntervalsAhead } from '../../src/report/draws-ahead.js'
import { type LoadedSplit, loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { episodeTallies } from '../../src/tivarq/episode-bootstrap.js'
import { ratioInterval } from '../../src/stats/bootstrap.js'
import { runStore } from '../support/html-report-input.js'
import { naiveRatioInterval } from '../support/naive-ratio-interval.js'

let split: LoadedSplit
let rows: PredictionRow[]
beforeAll(async () => {
  split = await loadSplit(undefined, 'test')
  rows = await runStore(referenceStore('latest'), split)
}, 120_000)

function distinctEpisodes(of: readonly PredictionRow[]): number {
  return new Set(of.map((row) => row.episode_id)).size
}

describe('drawRunIntervalsAhead', () => {
  test("draws for the run's episode count, and with the page each family's", () => {
    const families = new Set(rows.map((row) => row.family))
    const perFamily = [...families].map((family) => distinctEpisodes(rows.filter((row) => row.family === family)))
    const drawn = drawRunIntervalsAhead(split, { seed: 7, resamples: 500, page: true })
    expect(drawn[0]).toBe(distinctEpisodes(rows))
    expect(distinctEpisodes(rows)).toBe(180)
    expect(new Set(drawn)).toEqual(new Set([distinctEpisodes(rows), ...perFamily]))
  })

  test('without the page: the run-wide count only', () => {
    expect(drawRunIntervalsAhead(split, { seed: 7, resamples: 500, page: false })).toEqual([180])
  })

  test('episodes without probes are not counted: scoring never sees them', () => {
    const asked = split.probes.filter((probe) => probe.episode_id !== split.episodes[0]?.episode_id)
    expect(drawRunIntervalsAhead({ episodes: split.episodes, probes: asked }, { seed: 7, resamples: 500, page: false })).toEqual([179])
  })

  test('an interval drawn after the draws were made ahead is the interval as defined (seedrandom draws, sums, the index rule)', () => {
    drawRunIntervalsAhead(split, { seed: 913, resamples: 600, page: true })
    const units = episodeTallies(rows).map((tally) => ({ numerator: tally.successes, denominator: tally.transitions }))
    expect(units).toHaveLength(180)
    const interval = ratioInterval(units, { seed: 913, resamples: 600 })
    expect({ low: interval.low, high: interval.high, defined: interval.defined }).toEqual(naiveRatioInterval(units, 913, 600))
  })
})
