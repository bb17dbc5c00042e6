import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  LongMemEvalDatasetError,
  loadLongMemEval,
  loadLongMemEvalSync,
  normalisedTextSha256,
  readLongMemEval,
  type LongMemEvalEntry,
} from '../../src/time-grounded/longmemeval.js'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tg-lme-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

function entry(id: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    question_id: id,
    question_type: 'temporal-reasoning',
    question: 'How many days passed between the two trips?',
    answer: 12,
    question_date: '2023/05/30 (Tue) 23:40',
    haystack_session_ids: ['s1', 's2'],
    haystack_dates: ['2023/05/20 (Sat) 02:21', '2023/05/25 (Thu) 09:00'],
    haystack_sessions: [
      [
        { role: 'user', content: 'I went hiking.', has_answer: true },
        { role: 'assistant', content: 'Nice.' },
      ],
      [
        { role: 'user', content: 'Back from the coast.' },
        { role: 'assistant', content: 'Welcome back.' },
      ],
    ],
    answer_session_ids: ['s1'],
    ...overrides,
  }
}

describe('LongMemEval loader', () => {
  test('loads a valid file, keeps every field and pins the normalised hash', async () => {
    const file = join(dir, 'valid.json')
    const text = JSON.stringify([entry('q1'), entry('q2_abs', { answer: 'You did not mention this.' })], null, 2).replace(/\n/g, '\r\n')
    await writeFile(file, text)
    const dataset = await loadLongMemEval(file)
    expect(dataset.datasetId).toBe('valid')
    expect(dataset.entries).toBe(2)
    expect(dataset.items.map((e) => e.question_id)).toEqual(['q1', 'q2_abs'])
    expect(dataset.items[0]?.haystack_sessions[0]?.[0]).toEqual({ role: 'user', content: 'I went hiking.', has_answer: true })
    // Reference value: SHA-256 of the same text with \n line ends.
    const lf = createHash('sha256').update(text.replace(/\r\n/g, '\n')).digest('hex')
    expect(dataset.datasetSha256).toBe(lf)
    expect(normalisedTextSha256(text)).toBe(lf)
    // The synchronous loader (Jest registers tests synchronously) reads the same dataset, with the same id and hash.
    expect(loadLongMemEvalSync(file)).toEqual(dataset)
  })

  test('answer_explanation is optional: kept when present, absent when not, and must be a string', async () => {
    const file = join(dir, 'explained.json')
    await writeFile(file, JSON.stringify([entry('q1'), entry('q2', { answer: '5 days', answer_explanation: '5 days (from 2023-05-20 to 2023-05-25).' })]))
    const dataset = await loadLongMemEval(file)
    expect(dataset.items[0]).not.toHaveProperty('answer_explanation')
    expect(dataset.items[1]).toMatchObject({ answer: '5 days', answer_explanation: '5 days (from 2023-05-20 to 2023-05-25).' })
    const bad = join(dir, 'explained-bad.json')
    await writeFile(bad, JSON.stringify([entry('q1', { answer_explanation: 3 })]))
    await expect(loadLongMemEval(bad)).rejects.toThrow('entry 0 (question_id "q1"): answer_explanation: Invalid input: expected string, received number')
  })

  test('an error thrown by onEntry stops the read and comes back as is, not as a broken file', async () => {
    const file = join(dir, 'stop.json')
    await writeFile(file, JSON.stringify([entry('q1'), entry('q2'), entry('q3')]))
    const seen: string[] = []
    const stop = new Error('stop at q2')
    const error = await readLongMemEval(file, {
      onEntry: (e) => {
        seen.push(e.question_id)
        if (e.question_id === 'q2') throw stop
      },
    }).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBe(stop)
    expect(seen).toEqual(['q1', 'q2'])
  })

  test('CR LF split across stream chunks hashes like LF', () => {
    const text = 'a\r\nb\rc\r\n'
    const expected = createHash('sha256').update('a\nb\nc\n').digest('hex')
    expect(normalisedTextSha256(text)).toBe(expected)
  })

  test('an invalid entry is named by index, question_id and field', async () => {
    const file = join(dir, 'invalid.json')
    const bad = entry('q-bad', { haystack_dates: ['2023/05/20 (Sat) 02:21', 7] })
    const missing = entry('q-missing')
    delete missing.question_date
    await writeFile(file, JSON.stringify([entry('q-ok'), bad, missing, entry('q-ok')]))
    const error = await loadLongMemEval(file).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(LongMemEvalDatasetError)
    const failure = error as LongMemEvalDatasetError
    expect(failure.code).toBe('LONGMEMEVAL_INVALID')
    expect(failure.issues).toContainEqual(expect.objectContaining({ entryIndex: 1, questionId: 'q-bad', path: 'haystack_dates[1]' }))
    expect(failure.issues).toContainEqual(expect.objectContaining({ entryIndex: 2, questionId: 'q-missing', path: 'question_date' }))
    expect(failure.issues).toContainEqual(expect.objectContaining({ entryIndex: 3, questionId: 'q-ok', path: 'question_id' }))
    // The validator's issue shape: a code, the file, the value found.
    expect(failure.issues).toContainEqual(
      expect.objectContaining({ code: 'invalid_field', file, line: null, entryIndex: 1, path: 'haystack_dates[1]', value: 7 }),
    )
    expect(failure.issues).toContainEqual(expect.objectContaining({ code: 'missing_field', entryIndex: 2, value: undefined }))
    expect(failure.issues).toContainEqual(expect.objectContaining({ code: 'duplicate_id', entryIndex: 3, value: 'q-ok' }))
    expect(failure.message).toContain('entry 1 (question_id "q-bad"): haystack_dates[1]: Invalid input: expected string, received number')
    // An absent field says so, rather than "received undefined".
    expect(failure.message).toContain('entry 2 (question_id "q-missing"): question_date: missing; a string is required')
  })

  test('arrays that do not line up session by session are refused', async () => {
    const file = join(dir, 'misaligned.json')
    await writeFile(file, JSON.stringify([entry('q1', { haystack_session_ids: ['s1'] })]))
    await expect(loadLongMemEval(file)).rejects.toThrow(/entry 0 \(question_id "q1"\): haystack_session_ids: has 1 items but haystack_sessions has 2/)
  })

  test('broken JSON and a non-array top level are file-level issues', async () => {
    const truncated = join(dir, 'truncated.json')
    await writeFile(truncated, JSON.stringify([entry('q1'), entry('q2')]).slice(0, -40))
    const cut = JSON.stringify([entry('q1'), entry('q2')]).slice(0, -40)
    await writeFile(truncated, cut)
    const failure = (await loadLongMemEval(truncated).catch((error: unknown) => error)) as LongMemEvalDatasetError
    expect(failure).toBeInstanceOf(LongMemEvalDatasetError)
    // Only the file-level issue: the first entry was complete and valid.
    expect(failure.issues.map((issue) => issue.message)).toEqual([
      `not a complete JSON array: it ends inside the 2nd entry (byte ${Buffer.byteLength(cut)}), after 1 complete entry; the file looks truncated — download it again`,
    ])
    const empty = join(dir, 'empty.json')
    await writeFile(empty, '')
    await expect(loadLongMemEval(empty)).rejects.toThrow(/the file is empty; a LongMemEval dataset is a JSON array of entries/)
    const garbled = join(dir, 'garbled.json')
    await writeFile(garbled, `[${JSON.stringify(entry('q1'))}, xx]`)
    await expect(loadLongMemEval(garbled)).rejects.toThrow(
      `${garbled}: not a JSON array of entries: expected a value, found "x" at byte ${Buffer.byteLength(`[${JSON.stringify(entry('q1'))}, `)}`,
    )
    const object = join(dir, 'object.json')
    await writeFile(object, JSON.stringify({ data: [entry('q1')] }))
    await expect(loadLongMemEval(object)).rejects.toBeInstanceOf(LongMemEvalDatasetError)
  })

  test('a missing file names the path', async () => {
    await expect(loadLongMemEval(join(dir, 'nope.json'))).rejects.toThrow(/cannot read LongMemEval dataset .*nope\.json \(ENOENT\)/)
  })

  test('a file of tens of MB streams: entries arrive before the end of the file is read', async () => {
    const file = join(dir, 'large.json')
    const out = createWriteStream(file)
    const filler = 'We talked about the garden, the weather and a long list of errands. '.repeat(60)
    const count = 6000
    out.write('[\n')
    for (let i = 0; i < count; i++) {
      const big = entry(`q${i}`, {
        haystack_sessions: [
          [
            { role: 'user', content: filler },
            { role: 'assistant', content: filler },
          ],
          [
            { role: 'user', content: `${filler} ${i}` },
            { role: 'assistant', content: 'Noted.' },
          ],
        ],
      })
      if (!out.write(`${JSON.stringify(big)}${i + 1 < count ? ',' : ''}\n`)) await once(out, 'drain')
    }
    out.end(']\n')
    await once(out, 'finish')
    const size = (await stat(file)).size
    expect(size).toBeGreaterThan(40_000_000)

    let firstSeenAt = -1
    let seen = 0
    let lastId = ''
    const summary = await readLongMemEval(file, {
      onEntry: (e: LongMemEvalEntry, position) => {
        if (firstSeenAt < 0) firstSeenAt = position.bytesRead
        seen++
        lastId = e.question_id
      },
    })
    expect(seen).toBe(count)
    expect(lastId).toBe(`q${count - 1}`)
    expect(summary.entries).toBe(count)
    expect(summary.bytes).toBe(size)
    // Streaming: the first entry was validated with only a sliver of the file read.
    expect(firstSeenAt).toBeGreaterThan(0)
    expect(firstSeenAt).toBeLessThan(size / 10)
    const reference = createHash('sha256')
      .update(await readFile(file))
      .digest('hex')
    expect(summary.datasetSha256).toBe(reference)
  })
})
