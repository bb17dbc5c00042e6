/**
 * Wording shared by the two readers of JSONL rows — the dataset validator and
 * the predictions reader — when they turn a zod issue into a sentence: where
 * the issue points, what was found there, and the article before a type name.
 * Internal: not exported from the package.
 */
import type { z } from 'zod'
import { MAX_JSON_DEPTH } from '../limits.js'

/** The issue's path without symbol keys (JSON rows have none). */
export function issuePath(issue: z.core.$ZodIssue): (string | number)[] {
  return issue.path.filter((key): key is string | number => typeof key !== 'symbol')
}

/** The value at `path` inside `root`, or undefined when the path leaves the JSON. */
export function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let current = root
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined
    current = (current as Record<string | number, unknown>)[key]
  }
  return current
}

/** The first 60 characters of a text, JSON-quoted, for messages. */
export function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text)
}

/** A found value for a message: `null`, a JSON-quoted string cut at 60 characters, `number 5`; a list or object by its kind. */
export function describeFound(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'a list'
  if (typeof value === 'object') return 'an object'
  if (typeof value === 'string') return preview(value)
  return `${typeof value} ${String(value)}`
}

/** `an integer`, `a number`: the type name zod reports, with its article. */
export function withArticle(typeName: string): string {
  return /^[aeiou]/.test(typeName) ? `an ${typeName}` : `a ${typeName}`
}

/** Longest text an issue message quotes from a file, in characters. @default 120 */
export const QUOTE_LIMIT = 120

// Control and invisible characters: C0 (but tab and newline), DEL, C1, bidi and zero-width marks, lone surrogates.
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff\ud800-\udfff]/u

/**
 * Text from a file made safe to print in a message: control and invisible
 * characters (C0, DEL, C1, bidi and zero-width marks, lone surrogates) shown as
 * `\u{…}` escapes, so binary garbage cannot move the cursor or hide itself in a
 * terminal, and cut at `limit` characters with `…`. @default limit QUOTE_LIMIT (120)
 */
export function printable(text: string, limit = QUOTE_LIMIT): string {
  let out = ''
  let shown = 0
  for (const char of text) {
    if (shown >= limit) return `${out}…`
    out += UNPRINTABLE.test(char) ? `\\u{${char.codePointAt(0)!.toString(16).padStart(4, '0')}}` : char === '\n' ? '\\n' : char === '\t' ? '\\t' : char
    shown++
  }
  return out
}

/** A zod issue path as users read it: `events[3].assertion.op`. */
export function renderPath(path: readonly PropertyKey[]): string {
  let out = ''
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out === '' ? '' : '.'}${String(key)}`
  return out
}

export { MAX_JSON_DEPTH }

/**
 * The deepest nesting of arrays and objects in JSON text, counted in one pass
 * without parsing (brackets inside strings skipped), stopping once past `limit`:
 * a 100,000-deep array must become a located issue, not a stack overflow in
 * whatever walks the parsed value next.
 */
export function jsonDepthOver(text: string, limit = MAX_JSON_DEPTH): boolean {
  if (!openersOver(text, limit)) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i++
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

/**
 * Whether `text` holds more than `limit` opening brackets, quoted or not:
 * nesting never goes deeper than that count, and a row holds a handful, found
 * by the engine's own search rather than a scan of every character.
 */
function openersOver(text: string, limit: number): boolean {
  // Two loops written out, not one over ['[', '{']: that list and its iterator, made for every line read, were most of what the check allocated.
  let count = 0
  for (let at = text.indexOf('['); at !== -1; at = text.indexOf('[', at + 1)) if (++count > limit) return true
  for (let at = text.indexOf('{'); at !== -1; at = text.indexOf('{', at + 1)) if (++count > limit) return true
  return false
}
