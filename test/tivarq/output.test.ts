import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { aggregateReports, buildRunManifest, parsePredictions, readPredictions, RunWriter, runFileNames } from '../../src/tivarq/output.js'
import { scoreRows, type TivarqReport } from '../../src/tivarq/score.js'
import { printable } from '../../src/tivarq/row-issues.js'
import { simulatedRows } from './score-fixtures.js'

const work = mkdtempSync(join(tmpdir(), 'tg-output-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

describe('RunWriter', () => {
  test('predictions are on disk line by line as they are appended; reports are whole JSON', () => {
    const writer = new RunWriter(join(work, 'a', 'nested'))
    const rows = simulatedRows('smoke', 'latest')
    const file = writer.openPredictions()
    file.append(rows[0]!)
    file.append(rows[1]!)
    // Before close: both lines already written (an interrupted run keeps them).
    expect(readFileSync(file.path, 'utf8').split('\n')).toHaveLength(3)
    for (const row of rows.slice(2)) file.append(row)
    file.close(rows)
    expect(readPredictions(file.path)).toEqual(rows)
    const firstLine = readFileSync(file.path, 'utf8').split('\n')[0] as string
    expect(firstLine.startsWith('{"capability":')).toBe(true) // keys sorted, as in the dataset
    writer.writeReport(scoreRows(rows, { seed: 1 }))
    expect(JSON.parse(readFileSync(join(writer.dir, 'report.json'), 'utf8')).metrics.transition_success_rate).toEqual({ score: 0.9, cases: 10 })
    expect(readdirSync(writer.dir).sort()).toEqual(['predictions.jsonl', 'report.json'])
  })

  test('close(canonical) rewrites rows that arrived out of order', () => {
    const writer = new RunWriter(join(work, 'b'))
    const rows = simulatedRows('smoke', 'oracle').slice(0, 5)
    const file = writer.openPredictions(2, 3)
    for (const row of [...rows].reverse()) file.append(row)
    file.close(rows)
    expect(file.path.endsWith('predictions-2.jsonl')).toBe(true)
    expect(readPredictions(file.path).map((r) => r.probe_id)).toEqual(rows.map((r) => r.probe_id))
  })

  test('file names: plain for one run, numbered with repeats', () => {
    expect(runFileNames(1, 1)).toEqual({ predictions: 'predictions.jsonl', report: 'report.json' })
    expect(runFileNames(3, 4)).toEqual({ predictions: 'predictions-3.jsonl', report: 'report-3.json' })
  })
})

describe('readPredictions', () => {
  test('every problem is reported with file:line and field path', () => {
    const good = JSON.stringify(simulatedRows('smoke', 'latest')[0])
    const text = [good, '', '{"status":"answered"}', 'nope', JSON.stringify({ ...JSON.parse(good), prediction: { state: 'maybe', value: null } })].join('\n')
    let caught: unknown
    try {
      parsePredictions(text, 'p.jsonl')
    } catch (error) {
      caught = error
    }
    expect(caught).toMatchObject({ code: 'PREDICTIONS_INVALID', file: 'p.jsonl' })
    const issues = (caught as { issues: { line: number; path: string }[] }).issues
    expect(new Set(issues.map((i) => i.line))).toEqual(new Set([3, 4, 5]))
    expect(issues.some((i) => i.line === 3 && i.path === 'probe_id')).toBe(true)
    expect(issues.some((i) => i.line === 5 && i.path === 'prediction.state')).toBe(true)
    expect((caught as Error).message).toContain('p.jsonl:4: not JSON')
  })

  test('upstream leniency: missing family comes from episode_id, repetition defaults to 1, extra fields kept', () => {
    const original = simulatedRows('smoke', 'latest').find((r) => r.episode_id === 'third_party_quote-00')!
    const { family: _f, repetition: _r, ...row } = original as unknown as Record<string, unknown>
    const [parsed] = parsePredictions(JSON.stringify({ ...row, judge: 'none' }), 'u.jsonl')
    expect(parsed).toMatchObject({ family: 'third_party_quote', repetition: 1, judge: 'none' })
  })

  test('update-lag fields: missing ones read as null; on rows without an answer they are always null; bad types are issues', () => {
    const rows = simulatedRows('smoke', 'latest')
    const answered = rows.find((r) => r.status === 'answered' && r.role === 'target' && r.phase === 'post')!
    const unsupported = rows.find((r) => r.status === 'unsupported')!
    const strip = (r: object) => Object.fromEntries(Object.entries(r).filter(([key]) => !key.startsWith('update_lag_')))
    const text = [
      JSON.stringify(strip(answered)),
      JSON.stringify({ ...answered, update_lag_ms: 812.25, update_lag_polls: 3, update_lag_censored: true }),
      JSON.stringify({ ...unsupported, update_lag_polls: 0, update_lag_censored: false }),
    ].join('\n')
    const parsed = parsePredictions(text, 'u.jsonl')
    const lag = (r: object) => Object.fromEntries(Object.entries(r).filter(([key]) => key.startsWith('update_lag_')))
    expect(parsed.map(lag)).toEqual([
      { update_lag_ms: null, update_lag_polls: null, update_lag_censored: null },
      { update_lag_ms: 812.25, update_lag_polls: 3, update_lag_censored: true },
      { update_lag_ms: null, update_lag_polls: null, update_lag_censored: null },
    ])
    expect(() => parsePredictions(JSON.stringify({ ...answered, update_lag_censored: 'yes' }), 'bad.jsonl')).toThrow(/bad\.jsonl:1 update_lag_censored: /)
  })

  test('upstream rows without update-lag fields are read whatever their status (unsupported and error rows too)', () => {
    const rows = simulatedRows('smoke', 'latest')
    const strip = (r: object) => Object.fromEntries(Object.entries(r).filter(([key]) => !key.startsWith('update_lag_')))
    const unsupported = rows.find((r) => r.status === 'unsupported')!
    const failed = { ...unsupported, status: 'error', error: 'query: adapter replied error: boom', latency_ms: 1.5 }
    const parsed = parsePredictions([JSON.stringify(strip(unsupported)), JSON.stringify(strip(failed))].join('\n'), 'u.jsonl')
    expect(parsed.map((r) => [r.status, r.update_lag_ms, r.update_lag_polls, r.update_lag_censored])).toEqual([
      ['unsupported', null, null, null],
      ['error', null, null, null],
    ])
  })

  test('problems read as sentences naming the field, the value found and what is allowed', () => {
    const good = simulatedRows('smoke', 'latest')[0]! as unknown as Record<string, unknown>
    const { probe_id: _p, ...noId } = good
    const text = [
      JSON.stringify({ ...good, status: 'done' }),
      JSON.stringify(noId),
      JSON.stringify({ ...good, latency_ms: 'fast' }),
      JSON.stringify({ ...good, role: 'boss' }),
      JSON.stringify({ ...good, old_value: 5 }),
    ].join('\n')
    let caught: unknown
    try {
      parsePredictions(text, 'p.jsonl')
    } catch (error) {
      caught = error
    }
    expect((caught as Error).message.split('\n').slice(1)).toEqual([
      '  p.jsonl:1 status: unknown status "done"; expected one of answered, unsupported, error',
      '  p.jsonl:2 probe_id: missing; a string is required',
      '  p.jsonl:3 latency_ms: expected a number, got "fast"',
      '  p.jsonl:4 role: unknown role "boss"; expected one of target, control, scope_control',
      '  p.jsonl:5 old_value: expected a string, a list of strings or null, got number 5',
    ])
  })

  test('invalid UTF-8 inside a row is an issue at its line; binary garbage is quoted escaped and cut short', () => {
    const [row] = simulatedRows('smoke', 'latest')
    const good = Buffer.from(`${JSON.stringify(row)}\n`)
    // Line 2: a row whose probe_id holds a byte that is not UTF-8 (0xff), which a lenient decoder would turn into U+FFFD.
    const bad = Buffer.concat([Buffer.from(JSON.stringify({ ...row, probe_id: 'X' }).replace('"X"', '"x')), Buffer.from([0xff]), Buffer.from('"\n')])
    // Line 3: control characters and a long run of junk.
    const garbage = Buffer.from(`\u001b[2J\u0007${'z'.repeat(500)}\n`)
    const file = join(work, 'binary.jsonl')
    writeFileSync(file, Buffer.concat([good, bad, garbage]))
    let caught: unknown
    try {
      readPredictions(file)
    } catch (error) {
      caught = error
    }
    const lines = (caught as Error).message.split('\n').slice(1)
    expect(lines[0]).toBe(`  ${file}:2: not valid UTF-8 (binary data, or text in another encoding); a predictions file is UTF-8 text, one JSON row per line`)
    expect(lines[1]).toMatch(new RegExp(`^  ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3: not JSON \\(`))
    expect(lines[1]).toContain('\\u{001b}')
    expect(lines[1]).not.toMatch(/[\u0000-\u0008\u001b\u007f]/)
    expect(lines[1]!.length).toBeLessThan(file.length + 260)
    expect(lines).toHaveLength(2)
  })

  test('a missing file and an empty file are refused, saying which', () => {
    const missing = join(work, 'nope.jsonl')
    expect(() => readPredictions(missing)).toThrow(`${missing}: cannot read it: no such file`)
    const empty = join(work, 'empty.jsonl')
    writeFileSync(empty, '\n')
    expect(() => readPredictions(empty)).toThrow(`${empty}: no prediction rows; a predictions file holds one JSON row per probe`)
  })
})

describe('buildRunManifest', () => {
  test('snake_case fields, revision from the manifest hash, configs parsed when JSON', () => {
    const manifest = buildRunManifest({
      datasetManifest: { episode_count: 240, families: [], files: {}, schema_version: 'tivarq.v1', seed: 20261001 },
      fileHashes: { 'probes_dev.jsonl': 'ab', 'manifest.json': 'cd' },
      track: 'conversation',
      split: 'dev',
      adapter: { name: 'mine', command: ['python3', 'a.py'], adapterVersion: '2.0', capabilities: { clock: true, history: false, inspection: false, tracks: ['conversation'] } },
      modelConfig: '{"model":"small","temperature":0}',
      promptConfig: 'prompt v3',
      seed: 5,
      repeats: 2,
      updatePolls: 3,
      pollIntervalMs: 50,
      concurrency: 4,
      timeoutMs: 1000,
      resamples: 1000,
      harnessCommit: null,
      startedAt: '2026-01-01T00:00:00.000Z',
    })
    expect(manifest).toEqual({
      schema_version: 'tivarq.run.v1',
      harness: { name: 'timegrounded', version: expect.any(String), commit: null },
      dataset: { source: 'bundled', revision: 'sha256:cd', schema_version: 'tivarq.v1', seed: 20261001, files: { 'probes_dev.jsonl': 'ab', 'manifest.json': 'cd' }, variant: null },
      track: 'conversation',
      split: 'dev',
      adapter: { name: 'mine', command: ['python3', 'a.py'], version: '2.0', capabilities: { clock: true, history: false, inspection: false, tracks: ['conversation'] } },
      model_config: { model: 'small', temperature: 0 },
      prompt_config: 'prompt v3',
      sampling: { concurrency: 4, timeout_ms: 1000, bootstrap_resamples: 1000 },
      run_seed: 5,
      repeats: 2,
      update_polls: 3,
      poll_interval_ms: 50,
      started_at: '2026-01-01T00:00:00.000Z',
      adapter_close_errors: [],
    })
  })
})

describe('aggregateReports', () => {
  test('mean, sample stddev and range of transition success (reference: 0.9, 1.0, 0.8 → mean 0.9, sd 0.1)', () => {
    const base = scoreRows(simulatedRows('smoke', 'latest'), { seed: 1 })
    const withScore = (score: number | null): TivarqReport => ({ ...base, metrics: { ...base.metrics, transition_success_rate: { score, cases: 10 } } })
    const aggregate = aggregateReports([withScore(0.9), withScore(1), withScore(0.8)])
    expect(aggregate.transition_success_rate).toEqual({ mean: 0.9, stddev: 0.1, min: 0.8, max: 1, scores: [0.9, 1, 0.8], cases: [10, 10, 10] })
    expect(aggregate.reports).toEqual(['report-1.json', 'report-2.json', 'report-3.json'])
    expect(aggregateReports([withScore(null), withScore(0.5)]).transition_success_rate).toMatchObject({ mean: 0.5, stddev: null, min: 0.5, max: 0.5 })
  })
})

test('writeFileAtomic leaves no temporary file', () => {
  const writer = new RunWriter(join(work, 'c'))
  writer.writeAggregate(aggregateReports([scoreRows([], { seed: 1 })]))
  writeFileSync(join(writer.dir, 'keep.txt'), '')
  expect(readdirSync(writer.dir).sort()).toEqual(['aggregate.json', 'keep.txt'])
})

test('printable escapes control and invisible characters and cuts long text', () => {
  expect(printable('a\u0000b\u001b[2Jc\u007f\u0085\u202e\ud800\nd\te')).toBe('a\\u{0000}b\\u{001b}[2Jc\\u{007f}\\u{0085}\\u{202e}\\u{d800}\\nd\\te')
  expect(printable('é ok → fine')).toBe('é ok → fine')
  expect(printable('x'.repeat(200), 10)).toBe(`${'x'.repeat(10)}…`)
})
