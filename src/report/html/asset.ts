/**
 * The page script: built once by `npm run build` (scripts/build-report-page.js)
 * into dist/report/html/page.bundle.js, shipped in the package, read here once
 * per process. Its SHA-256 goes into the page's Content-Security-Policy.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { PACKAGE_ROOT } from '../../version.js'
import { HtmlReportError } from './errors.js'

/** Where the built page script lives, from the package root (the same from src/ and from dist/). */
export const PAGE_SCRIPT_PATH = 'dist/report/html/page.bundle.js'

/** The script and its hash, as the CSP names it. */
export interface PageScript {
  text: string
  /** Base64 SHA-256 of `text`'s UTF-8 bytes. */
  sha256: string
}

let loaded: PageScript | null = null

/** Text that would end the inline `<script>` early or put the parser in a state where it could. */
const BREAKS_OUT = /<\/script|<!--|<script/i

/** The built page script (read once); throws HtmlReportError (`HTML_REPORT_ASSET_MISSING`) when it is not there. */
export function pageScript(): PageScript {
  if (loaded !== null) return loaded
  const path = fileURLToPath(new URL(PAGE_SCRIPT_PATH, PACKAGE_ROOT))
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error)
    throw new HtmlReportError(
      'HTML_REPORT_ASSET_MISSING',
      `the report page script ${path} cannot be read (${reason}); \`npm run build\` makes it and the package ships it in dist/: rebuild, or reinstall timegrounded.`,
      { cause: error },
    )
  }
  if (BREAKS_OUT.test(text)) {
    throw new HtmlReportError(
      'HTML_REPORT_ASSET_INVALID',
      `the report page script ${path} contains text that would break out of its <script> element; rebuild it with \`npm run build\`.`,
    )
  }
  loaded = { text, sha256: createHash('sha256').update(text, 'utf8').digest('base64') }
  return loaded
}
