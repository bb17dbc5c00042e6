import { describe, expect, test } from 'vitest'
import { formatRate, renderMarkdown, renderReport, renderSideBySide } from '../../src/report/index.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { simulatedRows } from '../tivarq/score-fixtures.js'

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
