/**
 * Issue 21 §4: with few update lags the p95 can sit below the mean (one slow
 * lag lifts the mean; the nearest-rank-below p95 of 15 is the 14th). The
 * terminal report and the HTML page say which sorted sample each percentile
 * is, beside the figure; the report's figures stay upstream's.
 */
import { expect, test } from 'vitest'
import { renderReport } from '../../src/report/terminal.js'
import { tivarqPage } from '../../src/report/html/model/tivarq.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { fixtureSplit, simulatedRows } from '../tivarq/score-fixtures.js'

// 14 lags of 0.02 ms and one of 0.3 ms: mean 0.58 / 15 = 0.0387, shown 0.039; p95 index floor(14 · 0.95) = 13, the 14th, 0.02.
let lagged = 0
const rows = simulatedRows('smoke', 'latest').map((row): PredictionRow => {
  if (row.status !== 'answered' || lagged >= 15) return row
  lagged += 1
  return { ...row, update_lag_ms: lagged === 15 ? 0.3 : 0.02, update_lag_polls: 1, update_lag_censored: false }
})
const report = scoreRows(rows, { seed: 1 })

test('the figures follow upstream’s rule, and their p95 is below their mean', () => {
  expect(report.metrics.update_lag_ms).toMatchObject({ observed_mean: 0.039, observed_p95: 0.02, observed: 15, censored: 0 })
})

test('the terminal report names the sample each percentile is', () => {
  const text = renderReport(report)
  expect(text).toContain('mean 0.039 ms, p95 0.02 ms (p95 is the 14th of 15 sorted lags, no interpolation; 15 observed, 0 censored, of 15 post-change)')
  // 54 answers: p50 index floor(53 · 0.5) = 26, the 27th; p95 index floor(53 · 0.95) = 50, the 51st.
  expect(text).toMatch(/Query latency\s+p50 \S+ ms, p95 \S+ ms \(the 27th and 51st of 54 sorted latencies, no interpolation\)$/m)
})

test('the HTML page’s cards say the same', () => {
  const identity = { data: 'TIVARQ v1', split: 'smoke', track: 'structured', store: 'builtin', seed: 1, resamples: 1000 }
  const { episodes, probes } = fixtureSplit('smoke')
  const page = tivarqPage({ identity: identity as never, report, rows, episodes, probes })
  const card = (label: string) => page.cards.find((entry) => entry.label === label)
  expect(card('Update lag')?.detail).toBe('p95 0.02 ms (the 14th of 15 sorted lags, no interpolation); 15 observed, 0 censored, of 15 post-change answers')
  expect(card('Query latency')?.detail).toMatch(/^p95 \S+ ms, over 54 answers \(the 27th and 51st of 54 sorted latencies, no interpolation\)$/)
})

test('two percentiles on one sample are named once; no sample, no rank', () => {
  const one = scoreRows(rows.slice(0, 1), { seed: 1 })
  expect(renderReport(one)).toContain('(each the 1st of 1 sorted latencies, no interpolation)')
  const none = scoreRows(
    rows.filter((row) => row.status !== 'answered'),
    { seed: 1 },
  )
  expect(renderReport(none)).not.toContain('sorted latencies')
})
