/**
 * Every run writes the HTML report, and it opens in a real browser: the built
 * CLI's `run` and `probe`, and real Vitest on the `basic` fixture project (a
 * baseline recorded under one bug, then a run under another), each page found
 * where the docs say, opened in headless Chromium without a console error or a
 * request, showing that run's figures. The README's screenshot
 * (docs/images/report.png) is the top of the Vitest run's page, taken here; beside
 * it, docs/images/report.json holds the figures it shows, and the test fails when
 * the page's figures no longer match them (the screenshot is stale). With
 * TIMEGROUNDED_UPDATE_SCREENSHOT=1 it writes both anew. One browser for the whole file.
 *
 * Needs dist/ (npm test builds first) and Chromium at /usr/bin/chromium (or
 * TIMEGROUNDED_CHROMIUM); without it this fails naming the install command,
 * unless TIMEGROUNDED_SKIP_BROWSER=1.
 */
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { launchChromium, openReport, SKIP_BROWSER } from '../support/chromium.js'
import { assertBuilt, basicScenarios, REPO } from '../vitest/run-vitest.js'

const CLI = join(REPO, 'dist/cli/main.js')
const SCREENSHOTS = join(REPO, 'tmp/screenshots')
const COMMITTED_SCREENSHOT = join(REPO, 'docs/images/report.png')
const COMMITTED_DATA = join(REPO, 'docs/images/report.json')
const UPDATE_SCREENSHOT = process.env.TIMEGROUNDED_UPDATE_SCREENSHOT === '1'

interface CardData {
  label: string | null
  value: string | null
  detail: string | null
  interval: string | null
  baseline: string | null
}

/** The headline cards at the top of the page, as shown; a measured time (latency, update lag) differs between any two runs, so only its label is kept. */
async function headlineCards(page: Page): Promise<CardData[]> {
  const cards = await page.locator('.card').evaluateAll((elements) =>
    elements.map((card) => {
      const text = (selector: string) => card.querySelector(selector)?.textContent ?? null
      return {
        label: card.getAttribute('aria-label'),
        value: text('.card-value'),
        detail: text('.card-detail'),
        interval: text('.card-interval'),
        baseline: text('.card-baseline'),
      }
    }),
  )
  return cards.map((card) => (/latency|lag/i.test(card.label ?? '') ? { label: card.label, value: null, detail: null, interval: null, baseline: null } : card))
}

let browser: Browser | null = null
const vitest = basicScenarios('html-runs')

function cli(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: vitest.scratch(),
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '' },
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const failingRows = '#tg-probes tbody tr[data-probe]'

describe.skipIf(SKIP_BROWSER)('the HTML report of real runs, in headless Chromium', () => {
  beforeAll(async () => {
    assertBuilt()
    browser = await launchChromium()
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  test('`timegrounded run` writes report.html beside report.json, says where, and the page shows report.json’s figures', async () => {
    const out = join(vitest.scratch(), 'cli-latest')
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain(`HTML report in ${join(out, 'report.html')}`)
    const report = json(join(out, 'report.json'))

    const { page, problems, requests } = await openReport(browser!, join(out, 'report.html'))
    expect(problems).toEqual([])
    expect(requests).toEqual([])
    const transition = report.metrics.transition_success_rate
    expect(await page.locator('.card[aria-label="Transition success"] .card-detail').textContent()).toBe(
      `${transition.score} (${transition.cases} transitions)`,
    )
    expect(await page.locator('#tg-headline .status').textContent()).toContain(`${report.probe_counts.total} probes: ${report.probe_counts.answered} answered`)
    // Unsupported probes are failing rows of their own kind, as many as report.json counts.
    expect(await page.locator(`${failingRows}[data-kind="unsupported"]`).count()).toBe(report.probe_counts.unsupported)
    expect(await page.locator('#tg-chart-transition_success_rate svg g.tg-run > *, #tg-chart-transition_success_rate svg g.tg-run-empty > *').count()).toBe(
      Object.keys(report.by_family).length,
    )
    await page.context().close()
  })

  test('`timegrounded probe` writes the comparison page to .timegrounded/report.html: control, probe, ceiling, the delta and the verdict', async () => {
    const result = cli(['probe', '--agent', 'builtin:ingestion-order', '--ceiling', '--json'])
    expect(result.status).toBe(0)
    const comparison = JSON.parse(result.stdout)
    const path = join(vitest.scratch(), '.timegrounded', 'report.html')
    expect(result.stderr).toContain(`HTML report in ${path}`)

    const { page, problems, requests } = await openReport(browser!, path)
    expect(problems).toEqual([])
    expect(requests).toEqual([])
    expect(await page.locator('#tg-time-grounded svg g.tg-arm > *').count()).toBe(3)
    expect(await page.locator('#tg-time-grounded svg g.tg-delta > *').count()).toBe(1)
    expect(await page.locator('#tg-time-grounded .verdict').textContent()).toBe(comparison.verdict.text)
    expect(await page.locator('#tg-failing').count()).toBe(0)
    await page.context().close()
  })

  test('Vitest: `html: false` writes no page; the next run’s page has the baseline beside it and the run’s known failures, as many as it printed', async () => {
    // A baseline recorded under one bug (its wrong answers become known failures), without a page…
    const recordEnv = vitest.env('vitest', { TG_BUG: 'arrival', TG_OPTIONS: JSON.stringify({ html: false }) })
    const recorded = await vitest.run(['-u'], recordEnv)
    expect(recorded.output).toContain('baseline written to')
    expect(recorded.output).not.toContain('HTML report')
    expect(existsSync(join(recordEnv.TG_OUTPUT!, 'report.json'))).toBe(true)
    expect(existsSync(join(recordEnv.TG_OUTPUT!, 'report.html'))).toBe(false)

    // …then a run under another bug: new failures and known ones.
    const env = vitest.env('vitest', { TG_BUG: 'stale' })
    const result = await vitest.run([], env)
    const counts = /(\d+) of \d+ probes ran: (\d+) passed, (\d+) failed, (\d+) known failures, (\d+) unsupported \(skipped\), (\d+) errors/.exec(result.output)
    expect(counts, result.output).not.toBeNull()
    const [failed, known, unsupported, errors] = counts!.slice(3).map(Number) as [number, number, number, number]
    expect(known).toBeGreaterThan(0)
    expect(failed).toBeGreaterThan(0)
    const path = join(env.TG_OUTPUT!, 'report.html')
    expect(result.output).toContain(`timegrounded [tivarq] HTML report in ${path}`)

    const { page, problems, requests } = await openReport(browser!, path)
    expect(problems).toEqual([])
    expect(requests).toEqual([])
    expect(await page.locator(failingRows).count()).toBe(failed + known + unsupported + errors)
    expect(await page.locator(`${failingRows}[data-kind="known_failure"]`).count()).toBe(known)
    expect(await page.locator('#tg-chart-comparison svg g.tg-comparison-cell > *').count()).toBeGreaterThan(0)
    expect(await page.locator('.card[aria-label="Stale-value leakage"] .card-baseline').textContent()).toMatch(/^baseline .* · ▼ worse$/)
    // A failing probe opens into its episode's timeline (the suite's split, read again).
    const first = page.locator(`${failingRows}[data-kind="stale_leak"] button.expand`).first()
    await first.click()
    const id = await first.textContent()
    await page.locator(`#tg-timeline-${id} .timeline svg g.tg-arrival`).waitFor()

    // The README's screenshot: the top of this page, one laptop screen.
    mkdirSync(SCREENSHOTS, { recursive: true })
    await page.evaluate('window.scrollTo(0, 0)')
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.screenshot({ path: join(SCREENSHOTS, 'report.png') })
    const shown = { cards: await headlineCards(page) }
    expect(shown.cards.length).toBeGreaterThan(3)
    if (UPDATE_SCREENSHOT) {
      copyFileSync(join(SCREENSHOTS, 'report.png'), COMMITTED_SCREENSHOT)
      writeFileSync(COMMITTED_DATA, `${JSON.stringify(shown, null, 2)}\n`)
    }
    const stale =
      'docs/images/report.png is stale: the figures this page shows differ from docs/images/report.json, those of the page it was taken from; ' +
      'take both anew with `TIMEGROUNDED_UPDATE_SCREENSHOT=1 npx vitest run test/report/html-runs.test.ts` and commit them'
    expect(existsSync(COMMITTED_DATA), stale).toBe(true)
    expect(shown, stale).toEqual(JSON.parse(readFileSync(COMMITTED_DATA, 'utf8')))
    await page.context().close()
  })
})
