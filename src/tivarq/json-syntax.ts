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
  return new SyntaxScan(text).run()
}

/** One pass over the text: `i` is the position, `stack` the containers open there. */
class SyntaxScan {
  private i = 0
  private readonly stack: string[] = []
  constructor(private readonly text: string) {}

  run(): JsonSyntaxError | null {
    for (;;) {
      const read = this.readValue()
      if (typeof read === 'object') return read
      if (read === 'opened') continue
      const after = this.afterValue()
      if (after !== 'next') return after
    }
  }

  private fail(reason: string): JsonSyntaxError {
    return { index: this.i, reason }
  }

  private skipSpace(): void {
    const { text } = this
    while (this.i < text.length && (text[this.i] === ' ' || text[this.i] === '\t' || text[this.i] === '\n' || text[this.i] === '\r')) this.i++
  }

  private readString(): JsonSyntaxError | null {
    const { text } = this
    this.i++
    for (;;) {
      if (this.i >= text.length) return this.fail('the text ends inside a string')
      const char = text[this.i]!
      if (char === '"') {
        this.i++
        return null
      }
      if (char.charCodeAt(0) < 0x20) return this.fail(`${shown(char)} inside a string (write it as an escape such as \\n)`)
      if (char === '\\') {
        const next = text[this.i + 1]
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) return this.fail('a \\u escape without four hex digits')
          this.i += 6
          continue
        }
        if (next === undefined || !ESCAPES.has(next)) return this.fail(`an unknown escape \\${next ?? ''}`)
        this.i += 2
        continue
      }
      this.i++
    }
  }

  private readKey(): JsonSyntaxError | null {
    this.skipSpace()
    if (this.text[this.i] !== '"') return this.fail(`expected a key in double quotes, found ${shown(this.text[this.i])}`)
    const broken = this.readString()
    if (broken !== null) return broken
    this.skipSpace()
    if (this.text[this.i] !== ':') return this.fail(`expected ':' after the key, found ${shown(this.text[this.i])}`)
    this.i++
    return null
  }

  /** One scalar, or the opening of a container (pushed); 'done' too for an empty container that closed at once. */
  private readValue(): JsonSyntaxError | 'opened' | 'done' {
    const { text } = this
    this.skipSpace()
    const char = text[this.i]
    if (char === '{' || char === '[') {
      this.i++
      this.skipSpace()
      if (text[this.i] === (char === '{' ? '}' : ']')) {
        this.i++
        return 'done'
      }
      this.stack.push(char)
      if (char === '{') return this.readKey() ?? 'opened'
      return 'opened'
    }
    if (char === '"') return this.readString() ?? 'done'
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, this.i)) {
        this.i += word.length
        return 'done'
      }
    }
    NUMBER.lastIndex = this.i
    if (char !== undefined && NUMBER.test(text)) {
      this.i = NUMBER.lastIndex
      return 'done'
    }
    return this.fail(`expected a value, found ${shown(char)}`)
  }

  /** After a value: close what ends here, then a comma leads to the next value ('next'); null at a clean end. */
  private afterValue(): JsonSyntaxError | null | 'next' {
    const { text } = this
    for (;;) {
      this.skipSpace()
      const top = this.stack[this.stack.length - 1]
      if (top === undefined) return this.i < text.length ? this.fail(`unexpected ${shown(text[this.i])} after the end of the JSON value`) : null
      const close = top === '{' ? '}' : ']'
      if (text[this.i] === close) {
        this.i++
        this.stack.pop()
        continue
      }
      if (text[this.i] !== ',') return this.fail(`expected ',' or '${close}', found ${shown(text[this.i])}`)
      this.i++
      if (top === '{') {
        const broken = this.readKey()
        if (broken !== null) return broken
      }
      return 'next'
    }
  }
}
