/**
 * The one reader of whole JSON documents (baseline and shard files): each problem of a real file on
 * disk located by file, line and column, the way a dataset's issues are.
 */
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { MAX_JSON_DEPTH, MAX_JSON_DOCUMENT_BYTES } from '../../src/limits.js'
import { jsonDocumentProblemAt, readJsonDocumentFile } from '../../src/tivarq/json-document.js'

const dir = mkdtempSync(join(tmpdir(), 'tg-json-document-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function written(name: string, content: string | Uint8Array): string {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

/** The words a reader of the file is given, or its value when it reads. */
function read(path: string): unknown {
  const document = readJsonDocumentFile(path)
  return document.ok ? { value: document.value } : jsonDocumentProblemAt(path, document.problem)
}

describe('readJsonDocumentFile', () => {
  test('reads a well-formed document, CRLF line endings included', () => {
    expect(read(written('ok.json', '{\r\n  "a": [1, 2]\r\n}\r\n'))).toEqual({ value: { a: [1, 2] } })
  })

  test('places a syntax error at its line and column', () => {
    const path = written('comma.json', '{\n  "a": 1,\n  "b": 2,\n}\n')
    expect(read(path)).toBe(`${path}:4:1: not JSON (expected a key in double quotes, found "}")`)
  })

  test('places a file cut off inside a string at the end of its last line', () => {
    const path = written('torn.json', '{\n  "format": "timegr')
    // Line 2, `  "format": "timegr`, is 19 characters long: the text ends in column 20.
    expect(read(path)).toBe(`${path}:2:20: not JSON (the text ends inside a string)`)
  })

  test('names bytes that are not UTF-8 by line, column (in characters) and byte', () => {
    const bytes = Buffer.concat([Buffer.from('{\n  "é": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"\n}\n')])
    const path = written('latin.json', bytes)
    // Line 2 is `  "é": "` before the bad byte: 8 characters, so the bad sequence starts in column 9, at byte 11.
    expect(read(path)).toBe(`${path}:2:9: not UTF-8 (byte 11)`)
  })

  test('names a byte order mark at line 1', () => {
    const path = written('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{}\n')]))
    expect(read(path)).toBe(`${path}:1:1: starts with a byte order mark (EF BB BF), which a JSON file must not have`)
  })

  test('names an empty file', () => {
    const path = written('empty.json', '')
    expect(read(path)).toBe(`${path}: is empty, where one JSON document was expected`)
  })

  test(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels before anything walks it`, () => {
    const path = written('deep.json', `${'['.repeat(100_000)}${']'.repeat(100_000)}`)
    expect(read(path)).toBe(`${path}: nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep`)
  })

  test('refuses a file over the size limit before reading it (a sparse file: its size, no bytes written)', () => {
    const path = written('huge.json', '{}')
    truncateSync(path, MAX_JSON_DOCUMENT_BYTES + 1)
    expect(read(path)).toBe(`${path}: is ${MAX_JSON_DOCUMENT_BYTES + 1} bytes, over the ${MAX_JSON_DOCUMENT_BYTES}-byte limit of a JSON file read whole`)
  })

  test('throws what opening the file throws', () => {
    expect(() => readJsonDocumentFile(join(dir, 'missing.json'))).toThrow(/ENOENT/)
  })
})
