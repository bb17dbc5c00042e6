/**
 * Where JSON text first breaks, found by a scan of its syntax alone (nothing
 * is built, nothing recurses): `JSON.parse` words most errors without a
 * position, and a streaming parser only knows how far it had read.
 */

/** The first syntax error: its index in the text (UTF-16 units) and what is wrong there. */
export interface JsonSyntaxError {
  index: number
  reason: string
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])

function shown(char: string | undefined): string {
  if (char === undefined) return 'the end of the text'
  const code = char.charCodeAt(0)
  return code < 0x20 || code === 0x7f ? `the control character U+${code.toString(16).padStart(4, '0').toUpperCase()}` : JSON.stringify(char)
}

/** Scans `text`; null when it is one well-formed JSON value. */
export function jsonSyntaxError(text: string): JsonSyntaxError | null {
  let i = 0
  const stack: string[] = []
  const fail = (reason: string): JsonSyntaxError => ({ index: i, reason })
  const skipSpace = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++
  }
  const readString = (): JsonSyntaxError | null => {
    i++
    for (;;) {
      if (i >= text.length) return fail('the text ends inside a string')
      const char = text[i]!
      if (char === '"') {
        i++
        return null
      }
      if (char.charCodeAt(0) < 0x20) return fail(`${shown(char)} inside a string (write it as an escape such as \\n)`)
      if (char === '\\') {
        const next = text[i + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return fail('a \\u escape without four hex digits')
          i += 6
          continue
        }
        if (next === undefined || !ESCAPES.has(next)) return fail(`an unknown escape \\${next ?? ''}`)
        i += 2
        continue
      }
      i++
    }
  }
  const readKey = (): JsonSyntaxError | null => {
    skipSpace()
    if (text[i] !== '"') return fail(`expected a key in double quotes, found ${shown(text[i])}`)
    const broken = readString()
    if (broken !== null) return broken
    skipSpace()
    if (text[i] !== ':') return fail(`expected ':' after the key, found ${shown(text[i])}`)
    i++
    return null
  }
  /** One scalar, or the opening of a container (pushed); false when the value is empty container that closed at once. */
  const readValue = (): JsonSyntaxError | 'opened' | 'done' => {
    skipSpace()
    const char = text[i]
    if (char === '{' || char === '[') {
      i++
      skipSpace()
      if (text[i] === (char === '{' ? '}' : ']')) {
        i++
        return 'done'
      }
      stack.push(char)
      if (char === '{') return readKey() ?? 'opened'
      return 'opened'
    }
    if (char === '"') return readString() ?? 'done'
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, i)) {
        i += word.length
        return 'done'
      }
    }
    NUMBER.lastIndex = i
    if (char !== undefined && NUMBER.test(text)) {
      i = NUMBER.lastIndex
      return 'done'
    }
    return fail(`expected a value, found ${shown(char)}`)
  }
  for (;;) {
    const read = readValue()
    if (typeof read === 'object') return read
    if (read === 'opened') continue
    // After a value: close what ends here, then a comma leads to the next value.
    for (;;) {
      skipSpace()
      const top = stack[stack.length - 1]
      if (top === undefined) return i < text.length ? fail(`unexpected ${shown(text[i])} after the end of the JSON value`) : null
      const close = top === '{' ? '}' : ']'
      if (text[i] === close) {
        i++
        stack.pop()
        continue
      }
      if (text[i] !== ',') return fail(`expected ',' or '${close}', found ${shown(text[i])}`)
      i++
      if (top === '{') {
        const broken = readKey()
        if (broken !== null) return broken
      }
      break
    }
  }
}
