/**
 * The one reader of JSON-lines input (a dataset's split files, predictions files): bytes in, lines out,
 * each decoded as strict UTF-8 on its own and numbered from 1, with what a reader must be told about the
 * file (a byte order mark) and about each line (too long, not UTF-8, the last one without its newline).
 * It holds one line at a time, and of a line over its limit only the first characters, so a file of any
 * size is read in the memory of its longest kept line. What to make of each fact (an issue, or
 * tolerated) is the caller's: a dataset reports a `\r` before the newline, a predictions file written
 * on Windows may have one.
 */
import { isAscii } from 'node:buffer'
import { closeSync, openSync, readSync } from 'node:fs'

/** One line of the file, without its `\n` (a `\r` before it is kept: `text` is the line as written). */
export type JsonLine =
  | { readonly kind: 'text'; readonly line: number; readonly text: string; readonly terminated: boolean }
  /** Longer than the limit: `chars` counts its UTF-16 code units (as String.length would), `head` holds its first ones. */
  | { readonly kind: 'too_long'; readonly line: number; readonly chars: number; readonly head: string; readonly terminated: boolean }
  /** Its bytes are not UTF-8: decoding would have turned them into U+FFFD without a word. */
  | { readonly kind: 'not_utf8'; readonly line: number; readonly terminated: boolean }
  /** The file starts with a byte order mark: given before line 1, whose text does not hold it. */
  | { readonly kind: 'bom'; readonly line: 1 }

/** What holds for the file as a whole, known once it has all been read. */
export interface JsonLinesFacts {
  /** It starts with a UTF-8 byte order mark (EF BB BF), which is not part of line 1's text. */
  readonly bom: boolean
}

/** Characters of a too-long line kept for quoting it. */
const HEAD_CHARS = 64
const BOM = [0xef, 0xbb, 0xbf] as const

// ignoreBOM: a U+FEFF that is not the file's first character is text like any other.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const lenientUtf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** The first `HEAD_CHARS` characters of a line's parts (a cut character at the end decodes as U+FFFD). */
function headOf(parts: readonly Uint8Array[]): string {
  const first: Uint8Array[] = []
  let bytes = 0
  for (const part of parts) {
    if (bytes >= HEAD_CHARS * 4) break
    first.push(part.subarray(0, HEAD_CHARS * 4 - bytes))
    bytes += first[first.length - 1]!.length
  }
  return lenientUtf8.decode(Buffer.concat(first)).slice(0, HEAD_CHARS)
}

/** Splits bytes pushed in any chunks into JSON lines; `maxLineChars` bounds what one line may hold. */
export class JsonLineSplitter {
  private held: Uint8Array[] = []
  private heldBytes = 0
  // The length of a line found too long (-1 while it is not): from then on counted, no longer held.
  private chars = -1
  // The held bytes' UTF-16 code units, counted (-1 until then) once they are more bytes than the limit.
  private heldUnits = -1
  private readonly counter = new TextDecoder('utf-8', { ignoreBOM: true })
  private head = ''
  private line = 1
  private start: number[] | null = []
  private facts = { bom: false }

  constructor(
    private readonly maxLineChars: number,
    private readonly emit: (line: JsonLine) => void,
  ) {}

  push(chunk: Uint8Array): void {
    const body = this.skipBom(chunk)
    let from = 0
    for (let newline = body.indexOf(0x0a); newline !== -1; newline = body.indexOf(0x0a, from)) {
      this.add(body.subarray(from, newline))
      this.finish(true)
      from = newline + 1
    }
    if (from < body.length) this.add(body.subarray(from))
  }

  /** The end of the input: a last line without its newline is given, and the facts of the file. */
  end(): JsonLinesFacts {
    if (this.start !== null && this.start.length > 0) {
      const partial = Uint8Array.from(this.start)
      this.start = null
      this.add(partial)
    }
    if (this.heldBytes > 0 || this.chars > 0) this.finish(false)
    return { ...this.facts }
  }

  /** The first bytes, less a byte order mark; held back until three have come or the input ends. */
  private skipBom(chunk: Uint8Array): Uint8Array {
    if (this.start === null) return chunk
    let used = 0
    while (this.start.length < BOM.length && used < chunk.length) this.start.push(chunk[used++]!)
    if (this.start.length < BOM.length) return new Uint8Array(0)
    const first = this.start
    this.start = null
    this.facts.bom = first.every((byte, i) => byte === BOM[i])
    const rest = chunk.subarray(used)
    if (this.facts.bom) this.emit({ kind: 'bom', line: 1 })
    if (this.facts.bom) return rest
    const joined = new Uint8Array(first.length + rest.length)
    joined.set(first)
    joined.set(rest, first.length)
    return joined
  }

  private add(bytes: Uint8Array): void {
    if (bytes.length === 0) return
    if (this.chars >= 0) {
      this.chars += this.units(bytes)
      return
    }
    this.held.push(bytes)
    this.heldBytes += bytes.length
    if (this.heldBytes <= this.maxLineChars) return
    // Past the limit in bytes: from here on its characters are counted as they come, once each.
    this.heldUnits = this.heldUnits < 0 ? this.held.reduce((sum, part) => sum + this.units(part), 0) : this.heldUnits + this.units(bytes)
    if (this.heldUnits <= this.maxLineChars) return
    this.head = headOf(this.held)
    this.chars = this.heldUnits
    this.held = []
    this.heldBytes = 0
  }

  /**
   * UTF-16 code units the bytes decode to, as String.length counts them, a character cut between two
   * parts counted once: ASCII is one each (checked natively, the common case of a huge line), anything
   * else is decoded natively, many times faster than a loop over the bytes.
   */
  private units(bytes: Uint8Array): number {
    // A character cut before ASCII bytes is no character: what the decoder holds of it is flushed, one U+FFFD.
    if (isAscii(bytes)) return this.counter.decode().length + bytes.length
    return this.counter.decode(bytes, { stream: true }).length
  }

  private finish(terminated: boolean): void {
    const line = this.line++
    if (this.heldUnits >= 0) this.counter.decode()
    if (this.chars >= 0) {
      this.emit({ kind: 'too_long', line, chars: this.chars, head: this.head, terminated })
    } else {
      const bytes = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held)
      let text: string | null = null
      try {
        text = strictUtf8.decode(bytes)
      } catch {
        text = null
      }
      if (text === null) this.emit({ kind: 'not_utf8', line, terminated })
      else this.emit({ kind: 'text', line, text, terminated })
    }
    this.held = []
    this.heldBytes = 0
    this.heldUnits = -1
    this.chars = -1
    this.head = ''
  }
}

/** Bytes read from a file at a time. */
const CHUNK_BYTES = 1024 * 1024

/**
 * Every line of the file at `path`, read a chunk at a time (never whole), to `onLine`; throws what
 * opening or reading it throws (ENOENT, EISDIR, EACCES).
 */
export function readJsonLinesFile(path: string, maxLineChars: number, onLine: (line: JsonLine) => void): JsonLinesFacts {
  const splitter = new JsonLineSplitter(maxLineChars, onLine)
  const fd = openSync(path, 'r')
  try {
    for (;;) {
      // A fresh buffer each time: a line being held may still point into the last one.
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null)
      if (read === 0) break
      splitter.push(chunk.subarray(0, read))
    }
  } finally {
    closeSync(fd)
  }
  return splitter.end()
}

/**
 * Up to `limit` bytes of an open file measured at `expected` bytes (it may have grown since; what lies
 * beyond the limit is not read), for a reader that needs a file whole: a dataset file, to be hashed, or
 * a JSON document.
 */
export function readOpenFile(fd: number, expected: number, limit: number): Uint8Array {
  const buffer = Buffer.alloc(Math.min(limit, Math.max(expected, 64 * 1024)))
  let length = 0
  for (;;) {
    if (length === buffer.length) break
    const read = readSync(fd, buffer, length, buffer.length - length, null)
    if (read === 0) break
    length += read
  }
  return buffer.subarray(0, length)
}

/** Every line of bytes already in memory (a dataset file, read whole to be hashed). */
export function readJsonLinesBytes(bytes: Uint8Array, maxLineChars: number, onLine: (line: JsonLine) => void): JsonLinesFacts {
  const splitter = new JsonLineSplitter(maxLineChars, onLine)
  splitter.push(bytes)
  return splitter.end()
}
