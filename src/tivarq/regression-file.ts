/**
 * Reading a regression-episode file (`run --episodes FILE`): one JSON array, as a property failure
 * prints its episodes, or one episode per line. Both forms go through the project's readers with their
 * limits (size, strict UTF-8, byte order mark, nesting, line length), so a damaged file is told at its
 * line and column as a dataset's or a baseline's is; the episodes' own checks are regression.ts's.
 */
import { closeSync, fstatSync, openSync } from 'node:fs'
import { MAX_DATASET_LINE_CHARS, MAX_JSON_DEPTH, MAX_JSON_DOCUMENT_BYTES } from '../limits.js'
import { jsonDocumentProblemAt, parseJsonDocument } from './json-document.js'
import { type JsonLine, readJsonLinesBytes, readOpenFile } from './json-lines.js'
import { jsonSyntaxError } from './json-syntax.js'
import { jsonDepthOver } from './row-issues.js'

/** Why the file's text is not episodes in JSON: its message names the file and, where known, the line and column. */
export class RegressionFileError extends Error {
  override name = 'RegressionFileError'
}

/** The rows of the file at `path` (each to be checked as an episode); throws what opening it throws, or a RegressionFileError. */
export function readRegressionRows(path: string): unknown {
  const bytes = readWhole(path)
  return startsWithBracket(bytes) ? documentRows(path, bytes) : lineRows(path, bytes)
}

function readWhole(path: string): Uint8Array {
  const fd = openSync(path, 'r')
  try {
    const size = fstatSync(fd).size
    if (size > MAX_JSON_DOCUMENT_BYTES) throw new RegressionFileError(jsonDocumentProblemAt(path, { kind: 'too_large', bytes: size }))
    // One byte over the limit is read, so that a file grown since it was measured is still refused.
    const bytes = readOpenFile(fd, size, MAX_JSON_DOCUMENT_BYTES + 1)
    if (bytes.length > MAX_JSON_DOCUMENT_BYTES) throw new RegressionFileError(jsonDocumentProblemAt(path, { kind: 'too_large', bytes: bytes.length }))
    return bytes
  } finally {
    closeSync(fd)
  }
}

/** Whether the first byte that is not white space (after a byte order mark, which the readers name) opens an array. */
function startsWithBracket(bytes: Uint8Array): boolean {
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  while (at < bytes.length && (bytes[at] === 0x20 || bytes[at] === 0x09 || bytes[at] === 0x0a || bytes[at] === 0x0d)) at++
  return bytes[at] === 0x5b
}

function documentRows(path: string, bytes: Uint8Array): unknown {
  const document = parseJsonDocument(bytes)
  if (!document.ok) throw new RegressionFileError(jsonDocumentProblemAt(path, document.problem))
  return document.value
}

function lineRows(path: string, bytes: Uint8Array): unknown[] {
  const rows: unknown[] = []
  const facts = readJsonLinesBytes(bytes, MAX_DATASET_LINE_CHARS, (line) => {
    const row = lineRow(path, line)
    if (row !== undefined) rows.push(row)
  })
  if (facts.bom) throw new RegressionFileError(jsonDocumentProblemAt(path, { kind: 'bom' }))
  if (rows.length === 0) throw new RegressionFileError(`${path}: holds no episode (one JSON array of episodes, or one episode per line)`)
  return rows
}

/** A line's episode; undefined for a blank line (or the byte order mark, told once the file is read). */
function lineRow(path: string, line: JsonLine): unknown {
  switch (line.kind) {
    case 'bom':
      return undefined
    case 'not_utf8':
      throw new RegressionFileError(`${path}:${line.line}: not UTF-8`)
    case 'too_long':
      throw new RegressionFileError(`${path}:${line.line}: is ${line.chars} characters long, over the ${MAX_DATASET_LINE_CHARS}-character limit of a line`)
    case 'text':
      return lineValue(path, line.line, line.text.endsWith('\r') ? line.text.slice(0, -1) : line.text)
  }
}

function lineValue(path: string, number: number, text: string): unknown {
  if (text.trim() === '') return undefined
  if (jsonDepthOver(text)) throw new RegressionFileError(`${path}:${number}: nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep`)
  try {
    return JSON.parse(text)
  } catch (error) {
    const at = jsonSyntaxError(text)
    const column = at === null ? 1 : at.index + 1
    throw new RegressionFileError(`${path}:${number}:${column}: not JSON (${at === null ? (error as Error).message : at.reason})`)
  }
}
