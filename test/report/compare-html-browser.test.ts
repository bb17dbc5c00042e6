/**
 * The page of two runs compared (`timegrounded compare --html`) in headless
 * Chromium: builtin:latest (A) against builtin:versioned with three probes
 * spoiled (B) on the dev split, so B both fixed and broke probes. Driven as a
 * reader would: no console error and no request, a card per metric with both
 * runs' figures, one difference mark per measured family, the fixed and broken
 * probes each opening into its episode's timeline with both answers, by mouse
 * and by keyboard. A screenshot goes to tmp/screenshots/.
 *
 * Needs Chromium (see test/support/chromium.ts) and dist/ (the page script).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { referenceStore } from '../../src/adapters/reference/index.js'
import { compareRuns, type RunComparison } from '../../src/report/compare/compare-runs.js'
import { writeComparisonPage } from '../../src/report/html/write-page.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { launchChromium, openReport, SKIP_BROWSER } from '../support/chromium.js'
import { runStore } from '../support/html-report-input.js'

const SCREENSHOTS = fileURLToPath(new URL('../../tmp/screenshots/', import.meta.url))
const SPOILED = ['replacement-01-q1', 'replacement-01-q2', 'replacement-01-q3']

let browser: Browser | null = null
let page: Page
let comparison: RunComparison
let scratch = ''
let problems: string[] = []
let requests: string[] = []

describe.skipIf(SKIP_BROWSER)('the comparison page in headless Chromium', () => {
  beforeAll(async () => {
    browser = await launchChromium()
    const dev = await loadSplit(undefined, 'dev')
    const latest = await runStore(referenceStore('latest'), dev)
    const versioned = (await runStore(referenceStore('versioned'), dev)).map(
      (row): PredictionRow =>
        SPOILED.includes(row.probe_id) && row.status === 'answered' ? { ...row, prediction: { state: 'known' as const, value: 'misheard' } } : row,
    )
    comparison = compareRuns({ name: 'latest', rows: latest }, { name: 'spoiled versioned', rows: versioned }, { resamples: 500 })
    scratch = mkdtempSync(join(tmpdir(), 'timegrounded-compare-browser-'))
    const written = writeComparisonPage(join(scratch, 'compare.html'), comparison, dev, 'latest against spoiled versioned')
    expect(written.problem).toBeNull()
    const opened = await openReport(browser, written.path!)
    page = opened.page
    problems = opened.problems
    requests = opened.requests
  }, 120_000)

  afterAll(async () => {
    try {
      await browser?.close()
    } finally {
      if (scratch !== '') rmSync(scratch, { recursive: true, force: true })
    }
  })

  test('loads with no console error, no page error and no request beyond the file', () => {
    expect(problems).toEqual([])
    expect(requests).toEqual([])
  })

  test('a card per metric: both runs’ figures with their counts, B − A, the interval and the verdict line', async () => {
    const cards = page.locator('#tg-compare-headline .card')
    expect(await cards.count()).toBe(6)
    const current = page.locator('#tg-compare-headline .card[aria-label="Current-state accuracy"]')
    // latest: 204 of 216 current-state probes; B: 232 − 3 spoiled = 229 of 232.
    expect(await current.locator('.side-a').textContent()).toBe('A latest: 94.4% (204 of 216)')
    expect(await current.locator('.side-b').textContent()).toBe('B spoiled versioned: 98.7% (229 of 232)')
    expect(await current.locator('.verdict').textContent()).toMatch(/^Current-state accuracy: /)
    // B fixed 12 and broke 3: p = 2·576/2^15 = 0.0352.
    expect(await page.locator('#tg-compare-headline .status').textContent()).toMatch(/^B fixed 12 and broke 3 of 216 probes compared .*p = 0\.0352 ≥ 0\.01/)
  })

  test('each per-family chart has one difference mark per family that measured it, named by its family', async () => {
    const charts = page.locator('#tg-compare-families figure')
    expect(await charts.count()).toBeGreaterThan(0)
    const transition = page.locator('#tg-compare-families figure[data-metric="transitionSuccessRate"]')
    const marks = await transition.locator('svg g.tg-difference > *').evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')))
    const measured = comparison.families
      .filter((family) => family.metrics.find((metric) => metric.metric === 'transitionSuccessRate')!.difference !== null)
      .map((family) => family.family)
    expect(marks.sort()).toEqual(measured.sort())
  })

  test('the fixed and broken probes, broken first, each opening into its timeline with both answers, by mouse and by keyboard', async () => {
    const rows = page.locator('#tg-changes-table tbody tr[data-probe]')
    expect(await rows.count()).toBe(15)
    expect(await rows.evaluateAll((elements) => elements.slice(0, 3).map((element) => element.getAttribute('data-probe')))).toEqual(SPOILED)
    expect(await page.locator('#tg-changes-table tr[data-change="fixed"]').count()).toBe(12)
    await page.locator('#tg-changes-table button.expand', { hasText: 'replacement-01-q2' }).click()
    const detail = page.locator('[id="tg-timeline-replacement-01-q2"]')
    expect(await detail.isVisible()).toBe(true)
    expect(await detail.locator('code.answer').textContent()).toMatch(/^A: known ".+" · B: known "misheard"$/)
    expect(await detail.locator('svg').count()).toBeGreaterThan(0)
    const fixed = page.locator('#tg-changes-table tr[data-change="fixed"] button.expand').first()
    await fixed.focus()
    await page.keyboard.press('Enter')
    expect(await fixed.getAttribute('aria-expanded')).toBe('true')
    mkdirSync(SCREENSHOTS, { recursive: true })
    await page.screenshot({ path: join(SCREENSHOTS, 'compare.png'), fullPage: true })
  })
})
