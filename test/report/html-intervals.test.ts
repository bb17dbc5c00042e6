/**
 * The page's own intervals (transition success per family, stale-value
 * leakage overall and per family) judge every row once, over the whole run:
 * each must come out as the scorer's interval of that family's rows alone
 * would, on the test split answered by a real store (some of its answers
 * then made wrong or stale, so that episodes of a family differ); and an episode whose rows
 * name more than one family (a hand-edited file) is judged within each family.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { NaiveStore } from '../../examples/naive-store/src/store.js'
import { pageIntervals, staleValueLeakageInterval } from '../../src/report/html/model/intervals.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { transitionSuccessInterval } from '../../src/tivarq/episode-bootstrap.js'
import { runStore } from '../support/html-report-input.js'

const OPTIONS = { seed: 11, resamples: 500 }

/** The bounds each family's rows give on their own, by the scorer's and the page's interval functions. */
function aloneByFamily(rows: readonly PredictionRow[]): Map<string, { transitionSuccess: [unknown, unknown]; staleValueLeakage: [unknown, unknown] }> {
  const families = [...new Set(rows.map((row) => row.family as string))]
  return new Map(
    families.map((family) => {
      const own = rows.filter((row) => row.family === family)
      const ts = transitionSuccessInterval(own, OPTIONS)
      const leak = staleValueLeakageInterval(own, OPTIONS)
      return [family, { transitionSuccess: [ts.low, ts.high], staleValueLeakage: [leak.low, leak.high] }]
    }),
  )
}

function bounds(intervals: ReturnType<typeof pageIntervals>['byFamily']) {
  return new Map(
    [...intervals].map(([family, { transitionSuccess: ts, staleValueLeakage: leak }]) => [
      family,
      { transitionSuccess: [ts.low, ts.high], staleValueLeakage: [leak.low, leak.high] },
    ]),
  )
}

let rows: PredictionRow[]

/** Every third answer made wrong, every fifth stale-risk answer the old value: episodes of a family then tally apart. */
function mixed(answered: readonly PredictionRow[]): PredictionRow[] {
  return answered.map((row, index) => {
    if (row.status !== 'answered') return row
    if (index % 5 === 0 && row.old_value !== null && row.old_value !== undefined)
      return { ...row, prediction: { state: 'known' as const, value: row.old_value } }
    if (index % 3 === 0) return { ...row, prediction: { state: 'unknown' as const, value: null } }
    return row
  })
}

beforeAll(async () => {
  rows = mixed(await runStore(() => new NaiveStore(), await loadSplit(undefined, 'test')))
})

describe('pageIntervals', () => {
  test('each family as its rows alone give it, and leakage over all rows as staleValueLeakageInterval gives it', () => {
    const page = pageIntervals(rows, OPTIONS)
    const alone = aloneByFamily(rows)
    expect(alone.size).toBeGreaterThan(5)
    expect(bounds(page.byFamily)).toEqual(alone)
    expect(page.staleValueLeakage).toEqual(staleValueLeakageInterval(rows, OPTIONS))
    // Bounds that differ from family to family, and intervals of some width: the comparison above tells draws apart.
    expect(new Set([...alone.values()].map((family) => JSON.stringify(family))).size).toBeGreaterThan(5)
    expect([...alone.values()].filter(({ transitionSuccess: [low, high] }) => low !== high).length).toBeGreaterThan(5)
    expect([...alone.values()].filter(({ staleValueLeakage: [low, high] }) => low !== high).length).toBeGreaterThan(3)
  })

  test('an episode with rows of two families: each family judged on its own rows', () => {
    const episode = rows[0]?.episode_id
    const moved = rows.map((row, index) => (row.episode_id === episode && index % 2 === 1 ? { ...row, family: 'moved' } : row))
    expect(new Set(moved.filter((row) => row.episode_id === episode).map((row) => row.family)).size).toBe(2)
    expect(bounds(pageIntervals(moved, OPTIONS).byFamily)).toEqual(aloneByFamily(moved))
    expect(pageIntervals(moved, OPTIONS).staleValueLeakage).toEqual(staleValueLeakageInterval(moved, OPTIONS))
  })
})
