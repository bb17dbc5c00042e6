/**
 * What a LongMemEval file's bytes are checked for before and while they are parsed: the SHA-256 of its
 * text with newlines normalised, the words of an encoding issue (a byte order mark, or bytes that are
 * not UTF-8, found by `tivarq/utf8-check.ts` as for every whole-file reader), and where a syntax error
 * lies (`tivarq/json-syntax.ts`, shared with the JSON document reader).
 */
import { createHash, type Hash } from 'node:crypto'
import { jsonSyntaxError } from '../tivarq/json-syntax.js'
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
