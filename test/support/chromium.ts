/**
 * Headless Chromium for the browser tests: Debian's `/usr/bin/chromium`
 * (or `TIMEGROUNDED_CHROMIUM`), driven by playwright-core, which downloads no
 * browser of its own. Without one the tests fail with the command that
 * installs it, unless `TIMEGROUNDED_SKIP_BROWSER=1` skips them.
 */
import { existsSync } from 'node:fs'
import { chromium, type Browser } from 'playwright-core'

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
