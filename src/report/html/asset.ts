/**
 * The page script: built once by `npm run build` (scripts/build-report-page.js)
 * into dist/report/html/page.bundle.js, shipped in the package, read here once
 * per process. Its SHA-256 goes into the page's Content-Security-Policy.
 * It is kept as the file's bytes: the page is written as bytes, and decoding
 * the script would make a string of two bytes a character (it holds a few
 * characters beyond Latin-1), twice the file, only to encode it again.
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
  /** The script's UTF-8 bytes, as built. */
  bytes: Buffer
  /** Base64 SHA-256 of `bytes`. */
  sha256: string
}

let loaded: PageScript | null = null

const LESS_THAN = 0x3c

/** Whether `bytes` at `at` spell `word` (lower-case ASCII letters), in either case. */
function spellsAt(bytes: Uint8Array, at: number, word: string): boolean {
  if (at + word.length > bytes.length) return false
  for (let i = 0; i < word.length; i++) if (((bytes[at + i] as number) | 0x20) !== word.charCodeAt(i)) return false
  return true
}

/**
 * Whether the script holds text that would end the inline `<script>` early or
 * put the parser in a state where it could: `</script`, `<script` (any case)
 * or `<!--`. Read on the bytes: every byte of a multi-byte UTF-8 character is
 * above 0x7f, so none of them can be part of these ASCII words.
 */
export function breaksOut(bytes: Uint8Array): boolean {
  for (let at = bytes.indexOf(LESS_THAN); at !== -1; at = bytes.indexOf(LESS_THAN, at + 1)) {
    if (bytes[at + 1] === 0x21 && bytes[at + 2] === 0x2d && bytes[at + 3] === 0x2d) return true
    if (spellsAt(bytes, bytes[at + 1] === 0x2f ? at + 2 : at + 1, 'script')) return true
  }
  return false
}

/** The built page script (read once); throws HtmlReportError (`HTML_REPORT_ASSET_MISSING`) when it is not there. */
export function pageScript(): PageScript {
  if (loaded !== null) return loaded
  const path = fileURLToPath(new URL(PAGE_SCRIPT_PATH, PACKAGE_ROOT))
  let bytes: Buffer
  try {
    bytes = readFileSync(path)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error)
    throw new HtmlReportError(
      'HTML_REPORT_ASSET_MISSING',
      `the report page script ${path} cannot be read (${reason}); \`npm run build\` makes it and the package ships it in dist/: rebuild, or reinstall timegrounded.`,
      { cause: error },
    )
  }
  if (breaksOut(bytes)) {
    throw new HtmlReportError(
      'HTML_REPORT_ASSET_INVALID',
      `the report page script ${path} contains text that would break out of its <script> element; rebuild it with \`npm run build\`.`,
    )
  }
  loaded = { bytes, sha256: createHash('sha256').update(bytes).digest('base64') }
  return loaded
}
