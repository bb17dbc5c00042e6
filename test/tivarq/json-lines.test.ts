/**
 * The one JSON-lines reader, on bytes cut into chunks at every place: the same lines whatever the
 * cuts, a byte order mark given apart, lines over the limit counted in UTF-16 code units and not held,
 * a line that is not UTF-8 named on its own, and the last line's missing newline.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { type JsonLine, JsonLineSplitter, readJsonLinesBytes, readJsonLinesFile } from '../../src/tivarq/json-lines.js'

function linesOf(chunks: readonly Uint8Array[], limit = 1000): { lines: JsonLine[]; bom: boolean } {
  const lines: JsonLine[] = []
  const splitter = new JsonLineSplitter(limit, (line) => lines.push(line))
  for (const chunk of chunks) splitter.push(chunk)
  return { lines, bom: splitter.end().bom }
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf])
// Two-, three- and four-byte characters, a CRLF ending, a blank line, and a last line without its newline.
const SAMPLE = Buffer.concat([BOM, Buffer.from('{"a":"café"}\r\n\n{"b":"€ 😀"}\n{"c":1}')])

describe('JsonLineSplitter', () => {
  test('the same lines, BOM and numbers wherever the bytes are cut (every cut into two and three chunks)', () => {
    const expected: JsonLine[] = [
      { kind: 'bom', line: 1 },
      { kind: 'text', line: 1, text: '{"a":"café"}\r', terminated: true },
      { kind: 'text', line: 2, text: '', terminated: true },
      { kind: 'text', line: 3, text: '{"b":"€ 😀"}', terminated: true },
      { kind: 'text', line: 4, text: '{"c":1}', terminated: false },
    ]
    expect(linesOf([SAMPLE])).toEqual({ lines: expected, bom: true })
    for (let cut = 0; cut <= SAMPLE.length; cut++) {
      expect(linesOf([SAMPLE.subarray(0, cut), SAMPLE.subarray(cut)]).lines, `cut at ${cut}`).toEqual(expected)
      for (let second = cut; second <= SAMPLE.length; second += 3)
        expect(linesOf([SAMPLE.subarray(0, cut), SAMPLE.subarray(cut, second), SAMPLE.subarray(second)]).lines).toEqual(expected)
    }
  })

  test('a file ending in its newline has no empty last line; bytes that only begin a BOM are text', () => {
    expect(linesOf([Buffer.from('{}\n')]).lines).toEqual([{ kind: 'text', line: 1, text: '{}', terminated: true }])
    expect(linesOf([Buffer.from([0xef, 0xbb])])).toEqual({ lines: [{ kind: 'not_utf8', line: 1, terminated: false }], bom: false })
    expect(linesOf([])).toEqual({ lines: [], bom: false })
  })

  test('a line at the limit is kept; one character more is too long, counted in UTF-16 code units, its head kept', () => {
    // 'é' is 2 bytes and 1 code unit, '😀' 4 bytes and 2 code units: 10 of each make 20 + 40 bytes, 10 + 20 units.
    const atLimit = `${'é'.repeat(10)}${'😀'.repeat(5)}`
    const over = `${atLimit}😀`
    const { lines } = linesOf([Buffer.from(`${atLimit}\n${over}\nx\n`)], 20)
    expect(lines).toEqual([
      { kind: 'text', line: 1, text: atLimit, terminated: true },
      { kind: 'too_long', line: 2, chars: 22, head: over, terminated: true },
      { kind: 'text', line: 3, text: 'x', terminated: true },
    ])
  })

  test('a huge line pushed a byte at a time is counted exactly and only its first 64 characters are kept', () => {
    const line = `${'€'.repeat(70)}${'a'.repeat(500)}`
    const lines: JsonLine[] = []
    const splitter = new JsonLineSplitter(100, (found) => lines.push(found))
    for (const byte of Buffer.from(`${line}\nok`)) splitter.push(Uint8Array.of(byte))
    splitter.end()
    expect(lines).toEqual([
      { kind: 'too_long', line: 1, chars: 570, head: '€'.repeat(64), terminated: true },
      { kind: 'text', line: 2, text: 'ok', terminated: false },
    ])
  })

  test('a line that is not UTF-8 (Latin-1, a surrogate, a cut sequence) is named alone; its neighbours are read', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"ok":1}\n'),
      Buffer.from('{"name":"caf\xe9"}\n', 'latin1'),
      Buffer.from([0xed, 0xa0, 0x80, 0x0a]),
      Buffer.from('{"ok":2}\n'),
      Buffer.from([0xe2, 0x82]),
    ])
    expect(readJsonLinesBytes(bytes, 1000, () => undefined)).toEqual({ bom: false })
    const kinds: string[] = []
    readJsonLinesBytes(bytes, 1000, (line) => kinds.push(`${line.line} ${line.kind}`))
    expect(kinds).toEqual(['1 text', '2 not_utf8', '3 not_utf8', '4 text', '5 not_utf8'])
  })
})

describe('readJsonLinesFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'timegrounded-json-lines-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  test('reads a file of several chunks (3 MiB of lines) as the same lines as its bytes in memory', () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => JSON.stringify({ i, text: `row ${i} ${'ü'.repeat(i % 90)}` }))
    const bytes = Buffer.from(`${rows.join('\n')}\n`)
    expect(bytes.length).toBeGreaterThan(3 * 1024 * 1024)
    writeFileSync(join(dir, 'rows.jsonl'), bytes)
    const fromFile: JsonLine[] = []
    readJsonLinesFile(join(dir, 'rows.jsonl'), 1000, (line) => fromFile.push(line))
    expect(fromFile).toHaveLength(30_000)
    expect(fromFile.map((line) => (line.kind === 'text' ? line.text : line.kind))).toEqual(rows)
  })

  test('throws what opening the file throws', () => {
    expect(() => readJsonLinesFile(join(dir, 'missing.jsonl'), 1000, () => undefined)).toThrow(/ENOENT/)
    expect(() => readJsonLinesFile(dir, 1000, () => undefined)).toThrow(/EISDIR/)
  })
})
