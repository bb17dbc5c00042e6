/**
 * Headless Chromium for the browser tests: Debian's `/usr/bin/chromium`
 * (or `TIMEGROUNDED_CHROMIUM`), driven by playwright-core, which downloads no
 * browser of its own. Without one the tests fail with the command that
 * installs it, unless `TIMEGROUNDED_SKIP_BROWSER=1` skips them.
 */
import { existsSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core'

/** The browser binary the tests drive. @default /usr/bin/chromium */
export const CHROMIUM = process.env.TIMEGROUNDED_CHROMIUM ?? '/usr/bin/chromium'

/** `TIMEGROUNDED_SKIP_BROWSER=1`: skip the browser tests (say, on a machine without Chromium). */
export const SKIP_BROWSER = process.env.TIMEGROUNDED_SKIP_BROWSER === '1'

// No GPU, no sandbox (containers), and none of Chromium's own traffic (updates, sync, QUIC probes), so every request seen is the page's.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** Launch headless Chromium; throws naming the install command when there is none. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `the browser tests need Chromium at ${CHROMIUM}, which does not exist: install it with \`sudo apt-get install -y chromium\` (as .ci/run does), point TIMEGROUNDED_CHROMIUM at another Chromium, or set TIMEGROUNDED_SKIP_BROWSER=1 to skip these tests`,
    )
  }
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })
}

/** A report page open in the browser, with every console error or warning, page error and request it made so far. */
export interface OpenedReport {
  page: Page
  /** `console error: …`, `console warning: …`, `page error: …`. */
  problems: string[]
  /** Every URL the page asked for besides the file itself (each refused), WebSockets included. */
  requests: string[]
}

/**
 * Open the report file at `path` in a fresh context (1366×900, light) and wait
 * until its script has laid it out. Every request but the file itself is
 * recorded and refused; WebSockets, which do not pass through routes, are
 * listened to apart.
 */
export async function openReport(browser: Browser, path: string, options: BrowserContextOptions = {}): Promise<OpenedReport> {
  const url = pathToFileURL(path).href
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, colorScheme: 'light', ...options })
  const problems: string[] = []
  const requests: string[] = []
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue()
    requests.push(route.request().url())
    return route.abort()
  })
  const page = await context.newPage()
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
  page.on('websocket', (socket) => requests.push(socket.url()))
  await page.goto(url)
  await page.locator('body[data-ready="true"]').waitFor({ timeout: 30_000 })
  return { page, problems, requests }
}
