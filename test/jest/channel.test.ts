/**
 * The side-file channel between Jest's workers and the reporter: the context
 * the reporter sets, the records a test file appends, and how they read back
 * (errors of a suite attached to its records, a torn last line or one that
 * is not UTF-8 skipped,
 * files of deleted tests dropped).
 */
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { appendSideLines, CONTEXT_VARIABLE, clearSideFile, readSideFiles, readWorkerContext, sideFileOf } from '../../src/jest/channel.js'

const work = mkdtempSync(join(tmpdir(), 'timegrounded-channel-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

const probe = (suite: string, probeId: string) => ({ kind: 'tivarq-probe', suite: { name: suite }, probeId })

describe('the side-file channel', () => {
  test('the context reads back as the reporter wrote it; anything else reads as no reporter', () => {
    const context = { runDir: work, baselinePath: join(work, 'b.json'), update: true }
    expect(readWorkerContext({ [CONTEXT_VARIABLE]: JSON.stringify(context) })).toEqual(context)
    expect(readWorkerContext({})).toBeNull()
    expect(readWorkerContext({ [CONTEXT_VARIABLE]: '{not json' })).toBeNull()
    expect(readWorkerContext({ [CONTEXT_VARIABLE]: '{"runDir":1}' })).toBeNull()
  })

  test("records read back per test file with their suite's errors; a torn line is skipped; a deleted test file's records and a cleared file are gone", () => {
    const runDir = join(work, 'run')
    const a = join(work, 'a.test.ts')
    const b = join(work, 'b.test.ts')
    const gone = join(work, 'gone.test.ts')
    for (const file of [a, b, gone]) writeFileSync(file, '')
    appendSideLines(runDir, [{ testPath: a, record: probe('one', 'p1') }])
    appendSideLines(runDir, [
      { testPath: a, suite: 'one', blockError: 'closing `store` failed: disk full' },
      { testPath: a, record: probe('two', 'p2') },
    ])
    // A worker killed mid-write leaves half a line.
    appendFileSync(sideFileOf(runDir, a), '{"testPath":"')
    appendSideLines(runDir, [{ testPath: b, record: probe('one', 'p3') }])
    appendSideLines(runDir, [{ testPath: gone, record: probe('one', 'p4') }])
    rmSync(gone)

    expect(readSideFiles(runDir)).toEqual([
      {
        testPath: a,
        records: [
          { file: a, record: probe('one', 'p1'), blockErrors: ['closing `store` failed: disk full'] },
          { file: a, record: probe('two', 'p2'), blockErrors: [] },
        ],
      },
      { testPath: b, records: [{ file: b, record: probe('one', 'p3'), blockErrors: [] }] },
    ])
    clearSideFile(runDir, a)
    expect(readSideFiles(runDir).map((file) => file.testPath)).toEqual([b])
  })

  test('a line that is not UTF-8 is read as torn, not as a record with its bytes replaced', () => {
    const runDir = join(work, 'run-bytes')
    const a = join(work, 'bytes.test.ts')
    writeFileSync(a, '')
    appendSideLines(runDir, [{ testPath: a, record: probe('one', 'p1') }])
    // A record whose probe id holds a byte no UTF-8 text has: decoding it leniently would make it "p\ufffd2", a probe nobody ran.
    appendFileSync(
      sideFileOf(runDir, a),
      Buffer.concat([
        Buffer.from(`{"testPath":${JSON.stringify(a)},"record":{"kind":"tivarq-probe","suite":{"name":"one"},"probeId":"p`),
        Buffer.from([0xff]),
        Buffer.from('2"}}\n'),
      ]),
    )
    appendSideLines(runDir, [{ testPath: a, record: probe('one', 'p3') }])
    expect(readSideFiles(runDir)).toEqual([
      {
        testPath: a,
        records: [
          { file: a, record: probe('one', 'p1'), blockErrors: [] },
          { file: a, record: probe('one', 'p3'), blockErrors: [] },
        ],
      },
    ])
  })

  test("a suite's isolation outcome reads back on each of its records in that file; a malformed one is dropped", () => {
    const runDir = join(work, 'isolation-run')
    const a = join(work, 'isolation-a.test.ts')
    writeFileSync(a, '')
    const outcome = { checked: true as const, failures: [], asked: 2, unanswered: 0, usage: {} }
    appendSideLines(runDir, [
      { testPath: a, record: probe('one', 'p1') },
      { testPath: a, record: probe('two', 'p2') },
      { testPath: a, suite: 'one', isolation: outcome },
      { testPath: a, suite: 'two', isolation: { checked: 'yes' } as never },
    ])
    expect(readSideFiles(runDir)).toEqual([
      {
        testPath: a,
        records: [
          { file: a, record: probe('one', 'p1'), blockErrors: [], isolation: outcome },
          { file: a, record: probe('two', 'p2'), blockErrors: [] },
        ],
      },
    ])
  })

  test("a suite's model calls read back on each of its records in that file; a count that is not one is dropped", () => {
    const runDir = join(work, 'calls-run')
    const a = join(work, 'calls-a.test.ts')
    writeFileSync(a, '')
    const calls = { replayed: 7, recorded: 2, live: 0 }
    appendSideLines(runDir, [
      { testPath: a, record: probe('one', 'p1') },
      { testPath: a, record: probe('one', 'p2') },
      { testPath: a, record: probe('two', 'p3') },
      { testPath: a, suite: 'one', modelCalls: calls },
      { testPath: a, suite: 'two', modelCalls: { replayed: -1, recorded: 0, live: 0 } },
    ])
    expect(readSideFiles(runDir)).toEqual([
      {
        testPath: a,
        records: [
          { file: a, record: probe('one', 'p1'), blockErrors: [], modelCalls: calls },
          { file: a, record: probe('one', 'p2'), blockErrors: [], modelCalls: calls },
          { file: a, record: probe('two', 'p3'), blockErrors: [] },
        ],
      },
    ])
  })
})
