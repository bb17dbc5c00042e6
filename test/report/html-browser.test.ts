/**
 * The HTML report in a real browser: headless Chromium (Debian's, through
 * playwright-core) opens a page rendered from real runs (the naive store on
 * the TIVARQ v1 test split, three repetitions, a baseline, a time-grounded
 * suite; see test/support/html-report-input.ts) and is driven as a reader
 * would: no console error and no request, one mark per family in each chart,
 * the filters, a failing probe's timeline by mouse and by keyboard, dark mode.
 * Screenshots go to tmp/screenshots/. One browser for the whole file.
 *
 * Needs Chromium at /usr/bin/chromium (or TIMEGROUNDED_CHROMIUM); without it
 * this fails naming the install command, unless TIMEGROUNDED_SKIP_BROWSER=1.
 * Needs dist/ (the page script; npm test builds first).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { PageData } from '../../src/report/html/index.js'
import { pageData, writeHtmlReport } from '../../src/report/html/model/build.js'
import { launchChromium, openReport, SKIP_BROWSER } from '../support/chromium.js'
import { reportInput } from '../support/html-report-input.js'

const SCREENSHOTS = fileURLToPath(new URL('../../tmp/screenshots/', import.meta.url))

let browser: Browser | null = null
let page: Page
let data: PageData
let tivarq: NonNullable<PageData['tivarq']>
let scratch = ''
let problems: string[] = []
let requests: string[] = []

const visibleRows = () => page.locator('#tg-probes tbody tr[data-probe]:not([hidden])')
const background = () => page.evaluate<string>('getComputedStyle(document.body).backgroundColor')

describe.skipIf(SKIP_BROWSER)('the HTML report in headless Chromium', () => {
  beforeAll(async () => {
    // First, so a machine without Chromium hears so at once.
    browser = await launchChromium()
    const input = await reportInput()
    data = pageData(input)
    tivarq = data.tivarq!
    scratch = mkdtempSync(join(tmpdir(), 'timegrounded-browser-'))
    const opened = await openReport(browser, writeHtmlReport(join(scratch, 'report.html'), input))
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
    expect(tivarq.failing.length).toBeGreaterThan(100)
  })

  test('each per-family chart holds one mark per family, named by its family', async () => {
    for (const chart of ['transition_success_rate', 'stale_value_leakage_rate']) {
      const figure = page.locator(`#tg-chart-${chart}`)
      // A family without cases is a "no cases" label in place of a dot.
      const marks = figure.locator('svg g.tg-run > *, svg g.tg-run-empty > *')
      const families = await marks.evaluateAll((elements) => elements.map((element) => element.getAttribute('aria-label')))
      expect(families.sort()).toEqual([...tivarq.families].sort())
      const withBaseline = tivarq.familyCharts.find((c) => c.key === chart)!.points.filter((p) => p.baseline !== null).length
      expect(await figure.locator('svg g.tg-baseline > *').count()).toBe(withBaseline)
    }
    expect(await page.locator('#tg-chart-spread svg g.tg-spread > *').count()).toBe(tivarq.spread!.ranges.length)
    expect(await page.locator('#tg-chart-spread svg g.tg-repetition > *').count()).toBe(tivarq.spread!.points.length)
    expect(await page.locator('#tg-chart-comparison svg g.tg-comparison-cell > *').count()).toBe(tivarq.comparison!.cells.length)
    expect(await page.locator('#tg-time-grounded svg g.tg-arm > *').count()).toBe(3)
    expect(await page.locator('#tg-time-grounded svg g.tg-delta > *').count()).toBe(1)
  })

  test('the kind, family and text filters narrow the failing probes, and the count says how many are shown', async () => {
    const total = tivarq.failing.length
    expect(await visibleRows().count()).toBe(total)
    const known = tivarq.kindCounts.known_failure
    expect(known).toBeGreaterThan(0)

    await page.locator('#tg-filter-kind-known_failure').uncheck()
    expect(await visibleRows().count()).toBe(total - known)
    expect(await page.locator('#tg-probes tbody tr[data-kind="known_failure"]:not([hidden])').count()).toBe(0)

    await page.locator('#tg-filter-family').selectOption('delayed_arrival')
    const expected = tivarq.failing.filter((p) => p.family === 'delayed_arrival' && p.kind !== 'known_failure').length
    expect(expected).toBeGreaterThan(0)
    expect(await visibleRows().count()).toBe(expected)
    expect(await page.locator('#tg-filter-count').textContent()).toBe(`${expected} of ${total} failing probes shown`)

    await page.locator('#tg-filter-kind-known_failure').check()
    await page.locator('#tg-filter-family').selectOption('')
    const one = tivarq.failing[7]!
    await page.locator('#tg-filter-search').fill(one.id)
    expect(await visibleRows().evaluateAll((rows) => rows.map((row) => row.getAttribute('data-probe')))).toEqual([one.id])
    await page.locator('#tg-filter-search').fill('')
    expect(await visibleRows().count()).toBe(total)
  })

  test('opening a failing probe shows its episode as a timeline: every event, the checkpoint, both answers, the source of the stale value', async () => {
    const probe = tivarq.failing.find((p) => p.outcome === 'stale_leak' && p.sources.length > 0)!
    const episode = tivarq.episodes[probe.episode]!
    await page.locator(`tr[data-probe="${probe.id}"] button.expand`).click()
    const timeline = page.locator(`#tg-timeline-${probe.id} .timeline`)
    await timeline.waitFor()
    expect(await timeline.locator('svg g.tg-arrival > *').count()).toBe(episode.events.length)
    expect(await timeline.locator('svg g.tg-effective > *').count()).toBe(episode.events.filter((e) => e.effectiveAt !== null).length)
    expect(await timeline.locator('svg g.tg-checkpoint > *').count()).toBe(1)
    expect(await timeline.locator('svg g.tg-source > *').count()).toBe(probe.sources.length)
    expect(await timeline.locator('table.events tbody tr').count()).toBe(episode.events.length)
    expect(await timeline.locator('code.expected').textContent()).toBe(probe.expected)
    expect(await timeline.locator('code.answer').textContent()).toBe(probe.answer)
    expect(await timeline.locator('.meaning').textContent()).toMatch(/stale value leaked: returned /)
    mkdirSync(SCREENSHOTS, { recursive: true })
    await timeline.screenshot({ path: join(SCREENSHOTS, 'rendered-timeline.png') })
  })

  test('keyboard: / jumps to the search box, Tab reaches the first probe, Enter opens its timeline and Space closes it', async () => {
    await page.locator('h1').click()
    await page.keyboard.press('/')
    expect(await page.evaluate<string>('document.activeElement.id')).toBe('tg-filter-search')
    const probe = tivarq.failing.find((p) => p.kind === 'wrong')!
    await page.keyboard.type(probe.id)
    await page.keyboard.press('Tab')
    const button = page.locator(`tr[data-probe="${probe.id}"] button.expand`)
    expect(await button.evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true)
    await page.keyboard.press('Enter')
    expect(await button.getAttribute('aria-expanded')).toBe('true')
    await page.locator(`#tg-timeline-${probe.id} .timeline`).waitFor()
    await page.keyboard.press('Space')
    expect(await button.getAttribute('aria-expanded')).toBe('false')
    expect(await page.locator(`#tg-timeline-${probe.id}`).isHidden()).toBe(true)
    await page.locator('#tg-filter-search').fill('')
  })

  test('fits a 1366-pixel laptop screen without scrolling sideways; screenshots of the top in light and dark', async () => {
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true)
    await page.evaluate('window.scrollTo(0, 0)')
    // The top of the page: header, headline cards and the per-family charts (the README's screenshot comes from html-runs.test.ts).
    const top = { x: 0, y: 0, width: 1366, height: 1500 }
    await page.screenshot({ path: join(SCREENSHOTS, 'rendered.png'), fullPage: true, clip: top })
    await page.emulateMedia({ colorScheme: 'dark' })
    await page.screenshot({ path: join(SCREENSHOTS, 'rendered-dark.png'), fullPage: true, clip: top })
    await page.emulateMedia({ colorScheme: 'light' })
  })

  test('dark mode: follows the system preference until the toggle picks a theme; the charts follow', async () => {
    const white = 'rgb(255, 255, 255)'
    const dark = 'rgb(13, 17, 23)'
    const axis = () =>
      page
        .locator('#tg-chart-transition_success_rate svg')
        .first()
        .evaluate((svg) => svg.ownerDocument.defaultView!.getComputedStyle(svg).color)
    expect(await background()).toBe(white)
    await page.emulateMedia({ colorScheme: 'dark' })
    expect(await background()).toBe(dark)
    expect(await axis()).toBe('rgb(230, 237, 243)')
    const toggle = page.locator('#tg-theme')
    await toggle.click()
    expect(await toggle.textContent()).toBe('Theme: light')
    expect(await background()).toBe(white)
    await toggle.press('Enter')
    expect(await toggle.textContent()).toBe('Theme: dark')
    await page.emulateMedia({ colorScheme: 'light' })
    expect(await background()).toBe(dark)
    await toggle.click()
    expect(await toggle.textContent()).toBe('Theme: system')
    expect(await background()).toBe(white)
  })

  test('after all of it: still no console error and no request', () => {
    expect(problems).toEqual([])
    expect(requests).toEqual([])
  })
})
