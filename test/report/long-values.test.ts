/**
 * The page with rows holding very long texts (a doctored or hostile
 * predictions file): every text is cut for the page, its length and a
 * fingerprint said, and every judgement the page words is the one the whole
 * values give.
 */
import { beforeAll, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { renderHtmlReport } from '../../src/report/html/model/build.js'
import { tivarqPage } from '../../src/report/html/model/tivarq.js'
import { type LoadedSplit, loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { runStore } from '../support/html-report-input.js'

const TEN_MB = 10 * 1024 * 1024
let split: LoadedSplit
let rows: PredictionRow[]
beforeAll(async () => {
  split = await loadSplit(undefined, 'smoke')
  const answered = await runStore(referenceStore('oracle'), split)
  let changed = 0
  rows = answered.map((row) => {
    if (row.status !== 'answered' || changed >= 3) return row
    changed++
    // Two wrong answers of 10 MB that share their first 10 MB less one character, and a long raw answer.
    const value = `${'w'.repeat(TEN_MB - 1)}${changed}`
    return { ...row, prediction: { state: 'known', value, raw_answer: 'r'.repeat(TEN_MB) } } as PredictionRow
  })
})

function page() {
  const identity = { data: null, subject: { label: 'store', value: 'doctored' } }
  return tivarqPage({ identity: identity as never, report: scoreRows(rows, { seed: 1, resamples: 500 }), rows, episodes: split.episodes, probes: split.probes })
}

test('each long value is cut to 200 characters with its length and a fingerprint; the page stays small', () => {
  const data = page()
  const cut = data.failing.slice(0, 3).map((probe) => probe.answer)
  expect(cut).toHaveLength(3)
  for (const answer of cut) {
    expect(answer).toMatch(/^known "w{200}… \(cut for the page: 10485760 characters in all, sha256 [0-9a-f]{12}…\)" \(said: "r{160}…"\)$/)
  }
  // The fingerprints of values sharing their start differ: the page tells them apart.
  expect(new Set(cut).size).toBe(3)
  expect(JSON.stringify(data).length).toBeLessThan(1_000_000)
})

test('the whole page, as written, stays under a megabyte for 30 MB of answers', () => {
  const identity = { data: null, subject: { label: 'store', value: 'doctored' } }
  const html = renderHtmlReport({
    harnessVersion: '0',
    tivarq: { identity: identity as never, report: scoreRows(rows, { seed: 1, resamples: 500 }), rows, episodes: split.episodes, probes: split.probes },
  })
  expect(html.length).toBeLessThan(1_000_000)
})
