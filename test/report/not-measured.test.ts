/**
 * Issue 21 §3: beside the headline, the terminal report, the Markdown job
 * summary and the HTML page say which probes and transitions a run did not
 * measure and why. builtin:latest declares neither `clock` nor `history`: on
 * the test split 90 of its 900 probes are unsupported (60 need a clock, in
 * future_effective and expiration; 30 need history, in retro_correction), and
 * transition success is over 150 of the 195 transitions. The figures stay the
 * report's.
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { failingCaption } from '../../src/report/html/page-data.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { renderReport } from '../../src/report/terminal.js'
import { tivarqPage } from '../../src/report/html/model/tivarq.js'
import { type LoadedSplit, loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { scoreRows } from '../../src/tivarq/score.js'
import type { TivarqReport } from '../../src/tivarq/report-shape.js'
import { runStore } from '../support/html-report-input.js'

const LINE =
  'Not measured: 90 of 900 probes and 45 of 195 transitions (no clock: future_effective, expiration not measured (60 probes) — declare `clock` to test them; no history: retro_correction not measured (30 probes) — declare `history` to test them)'

let split: LoadedSplit
let latest: { rows: PredictionRow[]; report: TivarqReport }
let oracle: { rows: PredictionRow[]; report: TivarqReport }
beforeAll(async () => {
  split = await loadSplit(undefined, 'test')
  for (const name of ['latest', 'oracle'] as const) {
    const rows = await runStore(referenceStore(name), split)
    const run = { rows, report: scoreRows(rows, { seed: 20261001, resamples: 500 }) }
    if (name === 'latest') latest = run
    else oracle = run
  }
}, 120_000)

function pageOf(run: { rows: PredictionRow[]; report: TivarqReport }) {
  const identity = { data: 'TIVARQ v1', split: 'test', track: 'structured', store: 'builtin', seed: 20261001, resamples: 500 }
  return tivarqPage({ identity: identity as never, report: run.report, rows: run.rows, episodes: split.episodes, probes: split.probes })
}

describe('a store without clock or history', () => {
  test('the figures stay upstream’s: transition success 0.9 over 150, 810 of 900 answered', () => {
    expect(latest.report.metrics.transition_success_rate).toEqual({ score: 0.9, cases: 150 })
    expect(latest.report.probe_counts).toEqual({ total: 900, answered: 810, unsupported: 90, error: 0 })
  })

  test('the terminal report names what was not measured right under transition success', () => {
    const lines = renderReport(latest.report, { rows: latest.rows }).split('\n')
    const headline = lines.findIndex((line) => line.startsWith('  Transition success'))
    expect(lines[headline + 1]).toBe(`  ${LINE}`)
    // Without the rows (a caller that has none) the report is as before.
    expect(renderReport(latest.report)).not.toContain('Not measured')
  })

  test('the Markdown job summary says it after the interval', () => {
    const markdown = renderMarkdown(latest.report, { rows: latest.rows })
    expect(markdown).toContain(`(95% episode bootstrap, 500 resamples, seed 20261001).\n\n${LINE}.\n`)
  })

  test('the HTML page carries it beside the status', () => {
    const page = pageOf(latest)
    expect(page.notMeasured).toBe(LINE)
  })

  test('the failing-probes table does not count its 90 unsupported probes among the 135 rows that did not pass', () => {
    expect(failingCaption(pageOf(latest))).toBe(
      '45 of 810 measured probes did not pass; 90 more were not measured (unsupported), listed below too. Open a probe (Enter or Space on its id) to see its episode as a timeline.',
    )
  })
})

test('a store that declares both measures everything, and no renderer says otherwise', () => {
  expect(renderReport(oracle.report, { rows: oracle.rows })).not.toContain('Not measured')
  expect(renderMarkdown(oracle.report, { rows: oracle.rows })).not.toContain('Not measured')
  expect(pageOf(oracle).notMeasured).toBeNull()
})
