import { TimegroundedError } from '../../errors.js'

/** The codes of `HtmlReportError`, each with what it means. */
export interface HtmlReportErrorCodes {
  /** What the report page was given does not hang together (rows that are not the report's, nothing to show). */
  HTML_REPORT_INPUT_INVALID: 'HtmlReportError'
  /** The built page script is not where the package keeps it (`npm run build` makes it). */
  HTML_REPORT_ASSET_MISSING: 'HtmlReportError'
  /** The built page script holds text that would break out of its `<script>` element. */
  HTML_REPORT_ASSET_INVALID: 'HtmlReportError'
}

/**
 * A report page cannot be made: its input does not hang together
 * (`HTML_REPORT_INPUT_INVALID`), or the built page script is missing
 * (`HTML_REPORT_ASSET_MISSING`) or unusable (`HTML_REPORT_ASSET_INVALID`).
 */
export class HtmlReportError extends TimegroundedError<keyof HtmlReportErrorCodes> {
  constructor(code: keyof HtmlReportErrorCodes, message: string, options?: { cause?: unknown }) {
    super(code, message, options)
  }
}
