/**
 * The one reader of a file that is one JSON document rather than JSON lines (a baseline file, a shard
 * file): the same byte-level checks as the line reader, in one place, each problem located by line and
 * column as a dataset's are. The size is checked before a byte is read, the bytes are strict UTF-8
 * (where the first bad sequence starts, from `utf8-check.ts`), a byte order mark is named, a syntax
 * error is placed (`json-syntax.ts`, since `JSON.parse` words most errors without a position), and
 * nesting past `MAX_JSON_DEPTH` is refused before anything walks the value. What to say about each
 * problem, and what the fix is, is the caller's: the words here are the fact, the caller adds the remedy.
 */
import { closeSync, fstatSync, openSync } from 'node:fs'
import { MAX_JSON_DEPTH, MAX_JSON_DOCUMENT_BYTES } from '../limits.js'
import { readOpenFile } from './json-lines.js'
import { jsonSyntaxError } from './json-syntax.js'
import { jsonDepthOver } from './row-issues.js'
import { Utf8Check } from './utf8-check.js'

/** Where in the file: lines and columns counted from 1, a column in characters of its line. */
export interface DocumentPlace {
  readonly line: number
  readonly column: number
}

/** Why a JSON document file cannot be read as one. */
export type JsonDocumentProblem =
  | { readonly kind: 'too_large'; readonly bytes: number }
  | { readonly kind: 'empty' }
  | { readonly kind: 'bom' }
  | ({ readonly kind: 'not_utf8'; readonly byte: number } & DocumentPlace)
  | ({ readonly kind: 'syntax'; readonly reason: string } & DocumentPlace)
  | { readonly kind: 'too_deep' }

/** A document's value, or the first problem found in it. */
export type JsonDocument = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: JsonDocumentProblem }

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/** The problem in words, led by the file and, where known, its line and column (`file:3:7: …`), as a dataset's issues are. */
export function jsonDocumentProblemAt(file: string, problem: JsonDocumentProblem): string {
  switch (problem.kind) {
    case 'too_large':
      return `${file}: is ${problem.bytes} bytes, over the ${MAX_JSON_DOCUMENT_BYTES}-byte limit of a JSON file read whole`
    case 'empty':
      return `${file}: is empty, where one JSON document was expected`
    case 'bom':
      return `${file}:1:1: starts with a byte order mark (EF BB BF), which a JSON file must not have`
    case 'not_utf8':
      return `${file}:${problem.line}:${problem.column}: not UTF-8 (byte ${problem.byte})`
    case 'syntax':
      return `${file}:${problem.line}:${problem.column}: not JSON (${problem.reason})`
    case 'too_deep':
      return `${file}: nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep`
  }
}

/** The file at `path` read whole and parsed, within the size limit; throws what opening or reading it throws (ENOENT, EISDIR, EACCES). */
export function readJsonDocumentFile(path: string): JsonDocument {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    if (size > MAX_JSON_DOCUMENT_BYTES) return { ok: false, problem: { kind: 'too_large', bytes: size } }
    // One byte over the limit is read, so that a file grown since it was measured is still refused.
    return parseJsonDocument(readOpenFile(fd, size, MAX_JSON_DOCUMENT_BYTES + 1))
  } finally {
    closeSync(fd)
  }
}

/** Bytes already in memory checked and parsed as one JSON document. */
export function parseJsonDocument(bytes: Uint8Array): JsonDocument {
  if (bytes.length > MAX_JSON_DOCUMENT_BYTES) return { ok: false, problem: { kind: 'too_large', bytes: bytes.length } }
  if (bytes.length === 0) return { ok: false, problem: { kind: 'empty' } }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { ok: false, problem: { kind: 'bom' } }
  let text: string
  try {
    text = strictUtf8.decode(bytes)
  } catch {
    return { ok: false, problem: notUtf8(bytes) }
  }
  if (jsonDepthOver(text)) return { ok: false, problem: { kind: 'too_deep' } }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch (error) {
    const at = jsonSyntaxError(text)
    // The scan and JSON.parse agree on what is JSON; should they ever not, the parser's own words stand, at the start.
    if (at === null) return { ok: false, problem: { kind: 'syntax', reason: (error as Error).message, line: 1, column: 1 } }
    return { ok: false, problem: { kind: 'syntax', reason: at.reason, ...placeOfIndex(text, at.index) } }
  }
}

/** Where the first sequence that is not UTF-8 starts. */
function notUtf8(bytes: Uint8Array): JsonDocumentProblem {
  const check = new Utf8Check()
  const found = check.update(bytes)
  const byte = found >= 0 ? found : Math.max(0, check.end())
  const before = bytes.subarray(0, byte)
  const lineStart = before.lastIndexOf(0x0a) + 1
  let line = 1
  for (let at = before.indexOf(0x0a); at !== -1; at = before.indexOf(0x0a, at + 1)) line++
  // Everything before the bad byte is UTF-8, so its line so far decodes strictly.
  const column = strictUtf8.decode(before.subarray(lineStart)).length + 1
  return { kind: 'not_utf8', byte, line, column }
}

/** The line and column of a UTF-16 index into `text`. */
function placeOfIndex(text: string, index: number): DocumentPlace {
  let line = 1
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1)) line++
  const lineStart = index === 0 ? 0 : text.lastIndexOf('\n', index - 1) + 1
  return { line, column: index - lineStart + 1 }
}
