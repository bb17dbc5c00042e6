import { describe, expect, test } from 'vitest'
import { formatRate } from '../../src/report/format.js'
import { renderMarkdown, renderRepeatsMarkdown } from '../../src/report/markdown.js'
import { renderSideBySide } from '../../src/report/side-by-side.js'
import { renderFirstErrors, renderRepeats, renderReport } from '../../src/report/terminal.js'
import { aggregateRepetitions } from '../../src/tivarq/aggregate.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { transitionOutcomes } from '../../src/tivarq/transitions.js'
import type { ErrorRow, PredictionRow } from '../../src/tivarq/results.js'
import { baseOf, simulatedRows } from '../tivarq/score-fixtures.js'

const ANSI = /\u001b\[/
const latest = scoreRows(simulatedRows('smoke', 'latest'), { seed: 20261001 })
const oracle = scoreRows(simulatedRows('smoke', 'oracle'), { seed: 20261001 })

test('formatRate: score with its denominator; a dash for null', () => {
  expect(formatRate({ score: 0.944444, cases: 54 })).toBe('0.944444 (54)')
  expect(formatRate({ score: 1, cases: 13 })).toBe('1.0 (13)')
  expect(formatRate({ score: 0, cases: 5 })).toBe('0.0 (5)')
  expect(formatRate({ score: null, cases: 0 })).toBe('— (0)')
})

describe('renderReport', () => {
  test('headline metrics with denominators, the interval and its seed, families, counts; no colour by default', () => {
    const text = renderReport(latest, { title: 'latest on smoke' })
    expect(text).not.toMatch(ANSI)
    expect(text.split('\n')[0]).toBe('latest on smoke')
    expect(text).toMatch(/Transition success\s+0\.9 \(10\)\s+95% CI \[0\.7, 1\.0\]/)
    expect(text).toContain('seed 20261001')
    expect(text).toContain('1000 resamples')
    expect(text).toMatch(/Stale-value leakage\s+0\.083333 \(12\)\s+lower is better/)
    expect(text).toContain('Historical accuracy        — (0)')
    expect(text).toMatch(/│ delayed_arrival\s+│\s+5 │\s+5 │\s+0\.0 \(1\) │/)
    expect(text).toContain('60 probes: 54 answered, 6 unsupported, 0 errors')
    expect(text.trimEnd().endsWith('complete')).toBe(true)
  })

  test('colour on request', () => {
    expect(renderReport(latest, { color: true })).toMatch(ANSI)
  })

  test('an interrupted report says so', () => {
    const partial = scoreRows(simulatedRows('smoke', 'latest').slice(0, 20), { seed: 1, expectedProbes: 60 })
    expect(renderReport(partial)).toContain('INCOMPLETE: interrupted after 20 of 60 probes')
  })

  test('a chosen subset says it was selected, not interrupted', () => {
    const chosen = scoreRows(simulatedRows('smoke', 'latest').slice(0, 4), { seed: 1, expectedProbes: 60, missingRows: 'selected' })
    const text = renderReport(chosen)
    expect(text).toContain('4 probes: 4 answered, 0 unsupported, 0 errors; partial run: 4 of 60 probes selected (`-t`, files left out); metrics not gated')
    expect(text).not.toContain('INCOMPLETE')
    expect(text).not.toContain('interrupted')
    // Yellow (33), not the red (31) of a fault.
    expect(renderReport(chosen, { color: true })).toContain('\u001b[33mpartial run: 4 of 60 probes selected')
  })
})

test('renderMarkdown: tables with denominators and the seed', () => {
  const md = renderMarkdown(latest)
  expect(md).toContain('| Transition success | 0.9 (10) | higher |')
  expect(md).toContain('| Stale-value leakage | 0.083333 (12) | lower |')
  expect(md).toContain('seed 20261001')
  expect(md).toContain('| delayed_arrival | 5 | 5 | 0.0 (1) |')
})

test('renderSideBySide: one column per store', () => {
  const text = renderSideBySide([
    { name: 'oracle', report: oracle },
    { name: 'latest', report: latest },
  ])
  expect(text).not.toMatch(ANSI)
  expect(text).toMatch(/Transition success\s+│\s+1\.0 \(13\) │\s+0\.9 \(10\) │/)
  expect(text).toMatch(/Stale-value leakage ↓\s+│\s+0\.0 \(15\) │\s+0\.083333 \(12\) │/)
  expect(text).toContain('60 / 0 / 0')
  expect(text).toContain('54 / 6 / 0')
})

describe('renderFirstErrors', () => {
  const rows = simulatedRows('smoke', 'latest')
  // An error row carries no prediction, latency or update lag: upstream's shape.
  const failed = (i: number, error: string): ErrorRow => ({ ...baseOf(rows[i]!), status: 'error', error })

  test('nothing when no row is an error', () => {
    expect(renderFirstErrors(rows)).toBe('')
  })

  test('one line per distinct message with its first probe and how many share it; abandoned rows counted, not listed', () => {
    const timeout = 'query: adapter `a` did not answer query within 500 ms (`--timeout-ms`); the process was killed'
    const withErrors = [
      failed(0, timeout),
      { ...failed(1, `abandoned: the adapter failed at probe ${rows[0]!.probe_id} and lost the episode's memory (${timeout})`), abandoned: true as const },
      failed(2, 'query: adapter replied error: database is locked'),
      failed(3, timeout),
      ...rows.slice(4),
    ]
    expect(renderFirstErrors(withErrors).split('\n')).toEqual([
      'First errors (4 error rows, 2 distinct messages):',
      `  ${rows[0]!.probe_id}: ${timeout} (and 1 more like it)`,
      `  ${rows[2]!.probe_id}: query: adapter replied error: database is locked`,
      '  1 more probe was abandoned after such a failure (the rest of its episode was not asked)',
    ])
  })

  test('whether a row was abandoned is read from the row, never from its message (a row read back from a file is listed)', () => {
    const message = `abandoned: the adapter failed at probe ${rows[0]!.probe_id} and lost the episode's memory (query: timeout)`
    expect(renderFirstErrors([failed(0, message), ...rows.slice(1)]).split('\n')).toEqual([
      'First errors (1 error row, 1 distinct message):',
      `  ${rows[0]!.probe_id}: ${message}`,
    ])
  })
})

describe('the repeated report (renderRepeats, renderRepeatsMarkdown)', () => {
  // Three repetitions of the smoke split: the oracle's rows, then twice with the post-change answer of the first scored transition wrong.
  const rows = simulatedRows('smoke', 'oracle')
  const post = transitionOutcomes(rows)[0]!.post_probe_id
  const misheard = (repetition: number): PredictionRow[] =>
    rows.map((row) =>
      row.probe_id === post && row.status === 'answered'
        ? { ...row, repetition, prediction: { state: 'known' as const, value: 'misheard' } }
        : { ...row, repetition },
    )
  const repetitions = [rows, misheard(1), misheard(2)]
  const aggregate = aggregateRepetitions(
    repetitions,
    repetitions.map((part) => scoreRows(part, { seed: 1 })),
    { seed: 1, resamples: 1000 },
  )

  test('terminal: pooled value with cases, interval, mean, sample sd and range; how often each probe was right; the flaky probe', () => {
    const text = renderRepeats(aggregate, {})
    expect(text).not.toMatch(ANSI)
    expect(text).toContain('Over 3 repetitions')
    expect(text).toContain('each episode drawn with its rows of every repetition), 1000 resamples, seed 1')
    // 13 transitions per repetition, one of them lost in two: 37 of 39 pooled.
    expect(text).toMatch(/Transition success\s+│\s+0\.948718 \(39\) │ \[[\d.]+, 1\.0\] │\s+0\.948718 │\s+0\.044412 │ \[0\.923077, 1\.0\] │/)
    expect(text).toContain('60 probes over 3 repetitions: 59 correct every time, 0 wrong every time, 1 flaky')
    expect(text).toContain(`${post} 1/3`)
  })

  test('markdown: the same table and lines for the job summary', () => {
    const markdown = renderRepeatsMarkdown(aggregate)
    expect(markdown).toContain('#### Over 3 repetitions')
    expect(markdown).toMatch(/\| Transition success \| 0\.948718 \(39\) \| \[[\d.]+, 1\.0\] \| 0\.948718 \| 0\.044412 \| \[0\.923077, 1\.0\] \| higher \|/)
    expect(markdown).toContain(`Flaky probes: ${post} 1/3.`)
  })
})
