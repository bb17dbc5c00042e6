/**
 * The regression-episode file reader (`run --episodes FILE`) on real files: both forms read, and each
 * kind of damage told at its line and column with the byte-level rules every other input follows.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { MAX_DATASET_LINE_CHARS } from '../../src/limits.js'
import { RegressionFileError, readRegressionRows } from '../../src/tivarq/regression-file.js'

const work = mkdtempSync(join(tmpdir(), 'timegrounded-regression-file-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

let count = 0
function fileOf(content: string | Buffer): string {
  const file = join(work, `episodes-${count++}.jsonl`)
  writeFileSync(file, content)
  return file
}

function problemOf(content: string | Buffer): { file: string; message: string } {
  const file = fileOf(content)
  try {
    readRegressionRows(file)
  } catch (error) {
    expect(error).toBeInstanceOf(RegressionFileError)
    return { file, message: (error as Error).message }
  }
  throw new Error('the file was read')
}

describe('reading a regression-episode file', () => {
  test('one JSON array, or one value per line (blank lines and CRLF endings allowed)', () => {
    expect(readRegressionRows(fileOf(' \n[{"a":1},{"b":[2]}]\n'))).toEqual([{ a: 1 }, { b: [2] }])
    expect(readRegressionRows(fileOf('{"a":1}\r\n\r\n{"b":[2]}'))).toEqual([{ a: 1 }, { b: [2] }])
  })

  test('a line that is not JSON is told at its line and column', () => {
    const { file, message } = problemOf('{"a":1}\n{"a":1,"b":}\n')
    expect(message).toBe(`${file}:2:12: not JSON (expected a value, found "}")`)
  })

  test('bytes that are not UTF-8 are told, never read as replacement characters', () => {
    const { file, message } = problemOf(Buffer.concat([Buffer.from('{"a":1}\n{"a":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]))
    expect(message).toBe(`${file}:2: not UTF-8`)
    const array = problemOf(Buffer.concat([Buffer.from('[{"a":"'), Buffer.from([0xff]), Buffer.from('"}]')]))
    expect(array.message).toBe(`${array.file}:1:8: not UTF-8 (byte 7)`)
  })

  test('a byte order mark, a broken array, an empty file, a line over the limit and nesting too deep are each told', () => {
    const bom = problemOf('\ufeff{"a":1}\n')
    expect(bom.message).toBe(`${bom.file}:1:1: starts with a byte order mark (EF BB BF), which a JSON file must not have`)
    const array = problemOf('[{"a":1},\n {"a":2]\n')
    expect(array.message).toBe(`${array.file}:2:8: not JSON (expected ',' or '}', found "]")`)
    const empty = problemOf('\n \n')
    expect(empty.message).toBe(`${empty.file}: holds no episode (one JSON array of episodes, or one episode per line)`)
    const long = problemOf(`{"a":"${'x'.repeat(MAX_DATASET_LINE_CHARS)}"}\n`)
    expect(long.message).toBe(`${long.file}:1: is ${MAX_DATASET_LINE_CHARS + 8} characters long, over the ${MAX_DATASET_LINE_CHARS}-character limit of a line`)
    const deep = problemOf(`${'['.repeat(5000)}${']'.repeat(5000)}`)
    expect(deep.message).toMatch(/: nests arrays or objects more than \d+ levels deep$/)
  })
})
