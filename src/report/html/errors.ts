import { type CodeOf, TimegroundedError } from '../../errors.js'

/**
 * A report page cannot be made: its input does not hang together
 * (`HTML_REPORT_INPUT_INVALID`), or the built page script is missing
 * (`HTML_REPORT_ASSET_MISSING`) or unusable (`HTML_REPORT_ASSET_INVALID`).
 */
export class HtmlReportError extends TimegroundedError<CodeOf<'HtmlReportError'>> {
  constructor(code: CodeOf<'HtmlReportError'>, message: string, options?: { cause?: unknown }) {
    super(code, message, options)
  }
}
