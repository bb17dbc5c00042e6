/**
 * What a LongMemEval file's bytes are checked for before and while they are parsed: the SHA-256 of its
 * text with newlines normalised, strict UTF-8 (with the byte offset of the first bad sequence, which a
 * decoder does not give), a byte order mark, and where a syntax error lies.
 */
import { createHash, type Hash } from 'node:crypto'
import { jsonSyntaxError } from './json-syntax.js'
import type { LongMemEvalIssue, LongMemEvalIssueCode } from './longmemeval-schema.js'

/** SHA-256 of text with CRLF and lone CR turned into LF, fed chunk by chunk. */
export class NormalisedTextHash {
  private readonly hash: Hash = createHash('sha256')
  private pendingCarriageReturn = false

  update(chunk: Buffer): void {
    let start = 0
    let i = 0
    if (this.pendingCarriageReturn) {
      this.hash.update('\n')
      this.pendingCarriageReturn = false
      if (chunk[0] === 0x0a) start = i = 1
    }
    for (; i < chunk.length; i++) {
      if (chunk[i] !== 0x0d) continue
      this.hash.update(chunk.subarray(start, i))
      if (i + 1 === chunk.length) {
        this.pendingCarriageReturn = true // the LF, if any, is in the next chunk
      } else {
        this.hash.update('\n')
        if (chunk[i + 1] === 0x0a) i++
      }
      start = i + 1
    }
    if (start < chunk.length) this.hash.update(chunk.subarray(start))
  }

  /** Hex digest; the hash cannot be updated afterwards. */
  digest(): string {
    if (this.pendingCarriageReturn) this.hash.update('\n')
    this.pendingCarriageReturn = false
    return this.hash.digest('hex')
  }
}

/** SHA-256 (hex) of a text with its newlines normalised to \n. */
export function normalisedTextSha256(text: string): string {
  const hash = new NormalisedTextHash()
  hash.update(Buffer.from(text, 'utf8'))
  return hash.digest()
}

/**
 * Checks bytes are UTF-8 as they stream past (the rules of a strict decoder:
 * no overlong forms, no surrogates, nothing past U+10FFFF), and says where the
 * first bad sequence starts, as a byte offset into the whole file.
 */
export class Utf8Check {
  private need = 0
  private lower = 0x80
  private upper = 0xbf
  private sequenceStart = 0
  private offset = 0

  /** The file offset of the first invalid sequence in `chunk`, or -1 when all is well so far. */
  update(chunk: Uint8Array): number {
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const byte = chunk[i]!
      if (this.need === 0) {
        if (byte <= 0x7f) continue
        this.sequenceStart = this.offset
        if (byte >= 0xc2 && byte <= 0xdf) this.need = 1
        else if (byte >= 0xe0 && byte <= 0xef) {
          this.need = 2
          if (byte === 0xe0) this.lower = 0xa0
          if (byte === 0xed) this.upper = 0x9f
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          this.need = 3
          if (byte === 0xf0) this.lower = 0x90
          if (byte === 0xf4) this.upper = 0x8f
        } else return this.offset
        continue
      }
      if (byte < this.lower || byte > this.upper) return this.sequenceStart
      this.lower = 0x80
      this.upper = 0xbf
      this.need--
    }
    return -1
  }

  /** At the end of the file: the offset of a sequence it cut off, or -1. */
  end(): number {
    return this.need > 0 ? this.sequenceStart : -1
  }
}

/** The issue of bytes that are not UTF-8 text, or that start with a byte order mark; null when they are fine. */
export function encodingIssue(file: string, firstBytes: Uint8Array | null, badOffset: number): LongMemEvalIssue | null {
  if (firstBytes !== null && firstBytes[0] === 0xef && firstBytes[1] === 0xbb && firstBytes[2] === 0xbf)
    return fileIssue(
      file,
      'byte_order_mark',
      'starts with a byte order mark (bytes 0–2, EF BB BF); a LongMemEval file is UTF-8 JSON without one — save it without the BOM',
    )
  if (badOffset >= 0)
    return fileIssue(file, 'invalid_utf8', `not valid UTF-8 at byte ${badOffset}; a LongMemEval file is UTF-8 JSON — re-encode or download it again`)
  return null
}

export function fileIssue(file: string, code: LongMemEvalIssueCode, message: string): LongMemEvalIssue {
  return { code, file, line: null, path: null, value: undefined, message }
}

/** Files up to this size are parsed again whole after a syntax error, to place it at its true byte. @default 64 MiB */
export const RELOCATE_LIMIT_BYTES = 64 * 1024 * 1024

/** The first syntax error of `text` as a byte offset, with its words; null when it is well-formed JSON. */
export function syntaxErrorAt(text: string): { byte: number; reason: string } | null {
  const error = jsonSyntaxError(text)
  return error === null ? null : { byte: Buffer.byteLength(text.slice(0, error.index), 'utf8'), reason: error.reason }
}
