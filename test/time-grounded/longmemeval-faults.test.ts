/**
 * The LongMemEval loaders (streaming and synchronous) refuse what they used
 * to read silently: invalid UTF-8 and a BOM, each at its byte offset; an
 * empty array; and a syntax error is placed at its true byte, not at the end
 * of a read buffer. Real files written from the embedded corpus.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { timeGroundedCorpus } from '../../src/time-grounded/corpus/index.js'
import { loadLongMemEval, loadLongMemEvalSync, type LongMemEvalDatasetError } from '../../src/time-grounded/longmemeval.js'

const dir = mkdtempSync(join(tmpdir(), 'tg-lme-faults-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const text = JSON.stringify(timeGroundedCorpus().items, null, 2)

/** The file-level messages both loaders give for `bytes`. */
async function messages(name: string, bytes: Buffer): Promise<string[][]> {
  const file = join(dir, name)
  writeFileSync(file, bytes)
  const streamed = (await loadLongMemEval(file).catch((error: unknown) => error)) as LongMemEvalDatasetError
  let whole: LongMemEvalDatasetError | null = null
  try {
    loadLongMemEvalSync(file)
  } catch (error) {
    whole = error as LongMemEvalDatasetError
  }
  return [streamed, whole].map((error) => error?.issues?.map((issue) => issue.message) ?? ['(accepted)'])
}

test('invalid UTF-8 at byte 3000, in each of its forms: refused at that byte', async () => {
  const before = Buffer.from(text, 'utf8').subarray(0, 3000)
  expect(before.toString('utf8')).not.toContain('\ufffd')
  for (const bad of [[0xff], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xe2, 0x28, 0xa1], [0xf4, 0x90, 0x80, 0x80], [0x80]]) {
    const bytes = Buffer.concat([before, Buffer.from(bad), Buffer.from(text, 'utf8').subarray(3000)])
    expect(await messages('bad-utf8.json', bytes)).toEqual([
      ['not valid UTF-8 at byte 3000; a LongMemEval file is UTF-8 JSON — re-encode or download it again'],
      ['not valid UTF-8 at byte 3000; a LongMemEval file is UTF-8 JSON — re-encode or download it again'],
    ])
  }
})

test('a byte order mark: refused, naming bytes 0–2', async () => {
  const found = await messages('bom.json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]))
  for (const each of found) expect(each[0]).toMatch(/^starts with a byte order mark \(bytes 0–2, EF BB BF\)/)
})

test('an empty array: refused (no 0-question probe)', async () => {
  const found = await messages('empty-array.json', Buffer.from('[]\n'))
  expect(found).toEqual([
    ['holds no entries; a LongMemEval dataset is a JSON array of at least one entry'],
    ['holds no entries; a LongMemEval dataset is a JSON array of at least one entry'],
  ])
})

test('a control character inside the first question (byte ~1000 of a 60 KB file): reported at its byte, by both loaders', async () => {
  const bytes = Buffer.from(text, 'utf8')
  // Inside a string value near the start (the corpus opens with prose).
  const at = bytes.indexOf(Buffer.from('"question": "')) + 13
  const placed = Buffer.concat([bytes.subarray(0, at), Buffer.from([0x01]), bytes.subarray(at)])
  const found = await messages('control.json', placed)
  for (const each of found) expect(each).toEqual([expect.stringMatching(new RegExp(`the control character U\\+0001 inside a string .* at byte ${at}$`))])
})
