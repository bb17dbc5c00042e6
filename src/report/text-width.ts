/**
 * How many terminal columns a line of text takes, measured the way the report
 * tables were measured when cli-table3 drew them (its string-width 4 rule), so
 * the tables keep their exact bytes: escape sequences take none; C0 and C1
 * controls and the combining diacritics U+0300–U+036F take none; East Asian
 * wide and fullwidth characters take two; an emoji, with its skin tone, keycap,
 * flag pair, tag run or zero-width-joined parts, takes two; anything else one.
 * The emoji test uses Node's own Unicode properties instead of a table of
 * sequences (docs/design.md says what that costs and where it differs).
 */

/** SGR colour and style sequences, `ESC [ params m`: the only ones a table carries from line to line. */
export const SGR_SEQUENCE = /\u001b\[((?:\d*;){0,5}\d*)m/g

/** Any CSI sequence (`ESC [` or the one-byte CSI, parameters, intermediates, a final byte) and OSC strings such as hyperlinks. */
const ESCAPE_SEQUENCE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g

/** Printable ASCII only: the cells of nearly every table, one column a character. */
const PLAIN_ASCII = /^[\u0020-\u007e]*$/

/**
 * A character every emoji sequence holds at least one of (a pictograph, a skin tone, a regional
 * indicator, U+FE0F): without one, as in `—` or `↓`, the emoji pattern is not run (nor compiled).
 */
const MAY_HOLD_EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\uFE0F/u

/**
 * The East Asian wide and fullwidth blocks (start and end inclusive, ascending) that count two
 * columns: Hangul Jamo leads, the angle brackets, the CJK radicals to the enclosed letters (less
 * U+303F), CJK ideographs and Yi, Hangul syllables, compatibility ideographs, vertical and small
 * forms, fullwidth forms, kana supplement, enclosed ideographic supplement, the planes 2 and 3.
 */
const WIDE_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2329, 0x232a],
  [0x2e80, 0x303e],
  [0x3040, 0x3247],
  [0x3250, 0x4dbf],
  [0x4e00, 0xa4c6],
  [0xa960, 0xa97c],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6b],
  [0xff01, 0xff60],
  [0xffe0, 0xffe6],
  [0x1b000, 0x1b001],
  [0x1f200, 0x1f251],
  [0x20000, 0x3fffd],
]

/**
 * One emoji as a terminal draws it, two columns: a keycap, a flag (two regional indicators), a black
 * flag with its tag letters, or parts joined by U+200D, each part a skin-toned base, a character
 * shown as emoji by default, one followed by U+FE0F, or a base that takes a skin tone. An emoji
 * shown by default is taken without a following U+FE0F, which then counts one column on its own, as
 * string-width 4 counted it. Compiled on the first line that may hold an emoji.
 */
let emojiPattern: RegExp | undefined
function emojiSequences(): RegExp {
  if (emojiPattern !== undefined) return emojiPattern
  const part = String.raw`(?:\p{Emoji_Modifier_Base}\p{Emoji_Modifier}|\p{Emoji_Presentation}|\p{Emoji}\uFE0F|\p{Emoji_Modifier_Base})`
  const keycap = String.raw`[#*0-9]\uFE0F\u20E3`
  const flag = String.raw`\p{Regional_Indicator}{2}`
  const tagged = String.raw`\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}`
  emojiPattern = new RegExp(`${keycap}|${flag}|${tagged}|${part}(?:\\u200D${part})*`, 'gu')
  return emojiPattern
}

function isWide(codePoint: number): boolean {
  if (codePoint < 0x1100) return false
  for (const [start, end] of WIDE_RANGES) {
    if (codePoint < start) return false
    if (codePoint <= end) return true
  }
  return false
}

function isZeroWidth(codePoint: number): boolean {
  return codePoint <= 0x1f || (codePoint >= 0x7f && codePoint <= 0x9f) || (codePoint >= 0x300 && codePoint <= 0x36f)
}

/** Columns of one line (no newline in it): escape sequences stripped, then every emoji two columns and each other character by its own width. */
export function lineWidth(line: string): number {
  if (PLAIN_ASCII.test(line)) return line.length
  const visible = line.includes('\u001b') || line.includes('\u009b') ? line.replace(SGR_SEQUENCE, '').replace(ESCAPE_SEQUENCE, '') : line
  // Two spaces for each emoji, not nothing: a lone surrogate either side must not pair up with the other.
  const text = MAY_HOLD_EMOJI.test(visible) ? visible.replace(emojiSequences(), '  ') : visible
  let width = 0
  for (const character of text) {
    const codePoint = character.codePointAt(0) as number
    if (!isZeroWidth(codePoint)) width += isWide(codePoint) ? 2 : 1
  }
  return width
}
