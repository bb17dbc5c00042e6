/**
 * The page script's check for text that would break out of its inline
 * `<script>` element, read on the file's bytes: it must refuse exactly what a
 * case-insensitive search for `</script`, `<script` or `<!--` in the decoded
 * text finds, non-ASCII text around it included.
 */
import { describe, expect, test } from 'vitest'
import { breaksOut } from '../../src/report/html/asset.js'

const TEXT_SEARCH = /<\/script|<!--|<script/i

const CASES = [
  'plain code; a < b && c > d',
  'x = "</script>"',
  'x = "</SCRIPT"',
  'x = "<ScRiPt src=a>"',
  '<!-- a comment',
  '<!- not quite',
  '<-- nor this',
  '</scrip',
  '</scripts',
  '< script',
  '</ script',
  'a<',
  '<',
  '<!-',
  'text → </script> after an arrow',
  'ſcript: <ſcript> is not <script> to the search',
  '<\u017fcript',
  '<ſcrıpt',
  '→←↑↓ — no tags at all',
  'end <scrip',
  '<<script',
  '<</script',
  '<\u0000script',
]

describe('breaksOut', () => {
  test.each(CASES)('%j as the text search says', (text) => {
    expect(breaksOut(Buffer.from(text, 'utf8'))).toBe(TEXT_SEARCH.test(text))
  })

  test('the cases include both answers', () => {
    expect(CASES.filter((text) => TEXT_SEARCH.test(text)).length).toBeGreaterThan(5)
    expect(CASES.filter((text) => !TEXT_SEARCH.test(text)).length).toBeGreaterThan(5)
  })
})
