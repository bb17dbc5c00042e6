/**
 * The one escaping step for untrusted text on its way to a terminal, a CI job
 * summary or Markdown: an adapter's `{"error": …}`, a predictions file's
 * fields, a store's name, a file name. Control characters (ESC, BEL, the C1
 * range with its one-byte CSI), DEL, bidi and zero-width marks are shown as
 * `\u{…}` escapes, so a payload can neither set the window title, clear the
 * screen, write the clipboard (OSC 52), nor hide what it says.
 */
import { printable } from '../tivarq/row-issues.js'

/** `text` safe to print: control and invisible characters escaped; newlines kept when `keepNewlines` (a message of several lines), else shown as `\n`. */
export function terminalText(text: string, options: { keepNewlines?: boolean } = {}): string {
  if (options.keepNewlines === true)
    return text
      .split('\n')
      .map((line) => printable(line, Number.POSITIVE_INFINITY))
      .join('\n')
  return printable(text, Number.POSITIVE_INFINITY)
}

/** `text` safe inside a line of Markdown (a table cell, a heading): `terminalText`, then `|` and `<` escaped. */
export function markdownText(text: string): string {
  return terminalText(text).replace(/\|/g, '\\|').replace(/</g, '&lt;')
}
