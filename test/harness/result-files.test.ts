import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { aggregateRepetitions, reportName } from '../../src/tivarq/aggregate.js'
import { buildRunManifest, harnessCommit, manifestEnvironment } from '../../src/harness/manifest.js'
import { parsePredictions, readPredictions } from '../../src/harness/predictions.js'
import { RunWriter } from '../../src/harness/result-files.js'
import { QUALITY_METRICS } from '../../src/tivarq/metrics.js'
import { type PredictionRow, runFileNames } from '../../src/tivarq/results.js'
import { bundledDatasetDir } from '../../src/tivarq/dataset.js'
import { scoreRows } from '../../src/tivarq/score.js'
import { transitionOutcomes } from '../../src/tivarq/transitions.js'
import { printable } from '../../src/tivarq/row-issues.js'
import { baseOf, simulatedRows } from '../tivarq/score-fixtures.js'

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
    expect(firstLine.startsWith('{"probe_id": "replacement-00-q1", "episode_id": ')).toBe(true) // upstream's key order and separators
    writer.writeReport(scoreRows(rows, { seed: 1 }))
    expect(JSON.parse(readFileSync(join(writer.dir, 'report.json'), 'utf8')).metrics.transition_success_rate).toEqual({ score: 0.9, cases: 10 })
    expect(readdirSync(writer.dir).sort()).toEqual(['predictions.jsonl', 'report.json'])
  })

  test('close(canonical) rewrites rows that arrived out of order', () => {
    const writer = new RunWriter(join(work, 'b'))
    const rows = simulatedRows('smoke', 'oracle').slice(0, 5)
    // Repetition 1 (0-based, as in the rows) of 3 is the second file.
    const file = writer.openPredictions(1, 3)
    for (const row of [...rows].reverse()) file.append(row)
    file.close(rows)
    expect(file.path.endsWith('predictions-2.jsonl')).toBe(true)
    expect(readPredictions(file.path).map((r) => r.probe_id)).toEqual(rows.map((r) => r.probe_id))
  })

  test("removeEarlierResults removes every result file but those kept, sorted; other files, and a link's target, stay", () => {
    const writer = new RunWriter(join(work, 'earlier'))
    const outside = join(work, 'outside.html')
    writeFileSync(outside, 'a page kept elsewhere')
    for (const name of ['report-2.json', 'predictions-1.jsonl', 'aggregate.json', 'report.json', 'notes.txt', 'report.json.bak']) {
      writeFileSync(join(writer.dir, name), '{}')
    }
    symlinkSync(outside, join(writer.dir, 'report.html'))
    expect(writer.removeEarlierResults((name) => name === 'report.json')).toEqual(['aggregate.json', 'predictions-1.jsonl', 'report-2.json', 'report.html'])
    expect(readdirSync(writer.dir).sort()).toEqual(['notes.txt', 'report.json', 'report.json.bak'])
    expect(readFileSync(outside, 'utf8')).toBe('a page kept elsewhere')
    expect(writer.removeEarlierResults()).toEqual(['report.json'])
  })

  test('removeEarlierResults: a directory named like a result file is a ResultWriteError naming it; the files before it are gone, the directory stays', () => {
    const writer = new RunWriter(join(work, 'in-the-way'))
    writeFileSync(join(writer.dir, 'aggregate.json'), '{}')
    mkdirSync(join(writer.dir, 'report-1.json'))
    writeFileSync(join(writer.dir, 'report-1.json', 'inside.txt'), '')
    const path = join(writer.dir, 'report-1.json')
    expect(() => writer.removeEarlierResults()).toThrow(
      expect.objectContaining({
        code: 'RESULT_WRITE_FAILED',
        path,
        message: `could not write ${path}: Path is a directory: rm returned EISDIR (is a directory) ${path}`,
      }),
    )
    expect(existsSync(join(writer.dir, 'aggregate.json'))).toBe(false)
    expect(readdirSync(path)).toEqual(['inside.txt'])
  })

  test('file names: plain for one run, numbered from 1 with repeats (repetition 0 is file 1, as upstream names them)', () => {
    expect(runFileNames(0, 1)).toEqual({ predictions: 'predictions.jsonl', report: 'report.json' })
    expect(runFileNames(0, 4)).toEqual({ predictions: 'predictions-1.jsonl', report: 'report-1.json' })
    expect(runFileNames(3, 4)).toEqual({ predictions: 'predictions-4.jsonl', report: 'report-4.json' })
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

  test("upstream leniency: missing family comes from episode_id, repetition defaults to 0 (upstream's first), extra fields kept", () => {
    const original = simulatedRows('smoke', 'latest').find((r) => r.episode_id === 'third_party_quote-00')!
    const { family: _f, repetition: _r, ...row } = original as unknown as Record<string, unknown>
    const [parsed] = parsePredictions(JSON.stringify({ ...row, judge: 'none' }), 'u.jsonl')
    expect(parsed).toMatchObject({ family: 'third_party_quote', repetition: 0, judge: 'none' })
  })

  test('update-lag fields: kept on answered rows that carry a number; null or missing ones (and any on unanswered rows) are left out; bad types are issues', () => {
    const rows = simulatedRows('smoke', 'latest')
    const answered = rows.find((r) => r.status === 'answered' && r.role === 'target' && r.phase === 'post')!
    const unsupported = rows.find((r) => r.status === 'unsupported')!
    // One repetition per line: a probe's second row of one repetition would be a duplicate.
    const text = [
      JSON.stringify(answered),
      JSON.stringify({ ...answered, repetition: 1, update_lag_ms: 812.25, update_lag_polls: 3, update_lag_censored: true }),
      JSON.stringify({ ...answered, repetition: 2, update_lag_ms: null, update_lag_polls: null, update_lag_censored: null }),
      JSON.stringify({ ...unsupported, update_lag_polls: 0, update_lag_censored: false }),
    ].join('\n')
    const parsed = parsePredictions(text, 'u.jsonl')
    const lag = (r: object) => Object.fromEntries(Object.entries(r).filter(([key]) => key.startsWith('update_lag_')))
    expect(parsed.map(lag)).toEqual([{}, { update_lag_ms: 812.25, update_lag_polls: 3, update_lag_censored: true }, {}, {}])
    expect(() => parsePredictions(JSON.stringify({ ...answered, update_lag_censored: 'yes' }), 'bad.jsonl')).toThrow(/bad\.jsonl:1: update_lag_censored: /)
  })

  test('unsupported and error rows keep only what applies to them, whatever the file wrote (our files before 0.2 wrote nulls)', () => {
    const rows = simulatedRows('smoke', 'latest')
    const unsupported = rows.find((r) => r.status === 'unsupported')!
    const failed = { ...unsupported, status: 'error', error: 'query: adapter replied error: boom', latency_ms: 1.5 }
    const nulls = { prediction: null, latency_ms: null, error: null, update_lag_ms: null, update_lag_polls: null, update_lag_censored: null }
    const parsed = parsePredictions(
      [
        JSON.stringify({ ...unsupported, ...nulls }),
        JSON.stringify({ ...failed, repetition: 1 }),
        JSON.stringify({ ...failed, repetition: 2, prediction: null, latency_ms: null }),
      ].join('\n'),
      'u.jsonl',
    )
    const fieldsBeyondTheBase = (r: object) => Object.keys(r).filter((key) => !Object.keys(baseOf(unsupported)).includes(key))
    expect(parsed.map(fieldsBeyondTheBase)).toEqual([['status'], ['status', 'latency_ms', 'error'], ['status', 'error']])
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
      '  p.jsonl:1: status: unknown status "done"; expected one of answered, unsupported, error',
      '  p.jsonl:2: probe_id: missing; a string is required',
      '  p.jsonl:3: latency_ms: expected a number, got "fast"',
      '  p.jsonl:4: role: unknown role "boss"; expected one of target, control, scope_control',
      '  p.jsonl:5: old_value: expected a string, a list of strings or null, got number 5',
    ])
    // The same issue shape as the dataset validator's: a code, the file and line, the field path and the value found.
    expect((caught as { issues: unknown[] }).issues[0]).toEqual({
      code: 'unknown_value',
      file: 'p.jsonl',
      line: 1,
      path: 'status',
      value: 'done',
      message: 'unknown status "done"; expected one of answered, unsupported, error',
    })
    expect((caught as { issues: { code: string }[] }).issues.map((issue) => issue.code)).toEqual([
      'unknown_value',
      'missing_field',
      'invalid_field',
      'unknown_value',
      'invalid_field',
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
  test("upstream's keys first, then ours; revision from the manifest hash; configs recorded as given", () => {
    const sixFiles = { 'episodes_dev.jsonl': '1'.repeat(64), 'probes_dev.jsonl': '2'.repeat(64) }
    const manifest = buildRunManifest({
      datasetManifest: { episode_count: 240, families: [], files: sixFiles, schema_version: 'tivarq.v1', seed: 20261001 },
      fileHashes: { 'probes_dev.jsonl': 'ab', 'manifest.json': 'cd' },
      track: 'conversation',
      split: 'dev',
      adapter: {
        name: 'mine',
        command: ['python3', 'a.py'],
        adapterVersion: '2.0',
        capabilities: { clock: true, history: false, inspection: false, tracks: ['conversation'] },
      },
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
      dataset_revision: 'sha256:cd',
      dataset_file_hashes: sixFiles,
      dataset_source: bundledDatasetDir(),
      harness_commit: null,
      track: 'conversation',
      split: 'dev',
      adapter_command: ['python3', 'a.py'],
      model_config: '{"model":"small","temperature":0}',
      prompt_config: 'prompt v3',
      run_seed: 5,
      repeats: 2,
      update_polls: 3,
      poll_interval_ms: 50,
      sampling_settings: 'unspecified',
      adapter_version: '2.0',
      capabilities: { protocol: 'tivarq.adapter.v1', adapter_version: '2.0', tracks: ['conversation'], clock: true, history: false, inspection: false },
      harness: { name: 'timegrounded', version: expect.any(String), commit: null },
      dataset: {
        source: 'bundled',
        revision: 'sha256:cd',
        schema_version: 'tivarq.v1',
        seed: 20261001,
        files: { 'probes_dev.jsonl': 'ab', 'manifest.json': 'cd' },
        variant: null,
      },
      adapter: {
        name: 'mine',
        command: ['python3', 'a.py'],
        version: '2.0',
        capabilities: { clock: true, history: false, inspection: false, tracks: ['conversation'] },
      },
      sampling: { concurrency: 4, timeout_ms: 1000, bootstrap_resamples: 1000 },
      started_at: '2026-01-01T00:00:00.000Z',
      adapter_close_errors: [],
    })
  })

  test("an in-process store without a version: `adapter_command` [] and `adapter_version` unknown, as upstream types them; the environment's settings win", () => {
    const manifest = buildRunManifest({
      datasetDir: '/data/tivarq',
      datasetManifest: { episode_count: 240, families: [], files: {}, schema_version: 'tivarq.v1', seed: 20261001 },
      fileHashes: {},
      track: 'structured',
      split: 'smoke',
      adapter: {
        name: 'factory',
        command: null,
        adapterVersion: null,
        capabilities: { clock: false, history: false, inspection: false, tracks: ['structured'] },
      },
      seed: 1,
      repeats: 1,
      updatePolls: 0,
      pollIntervalMs: 0,
      concurrency: 1,
      timeoutMs: 1000,
      resamples: 1000,
      ...manifestEnvironment({ TIVARQ_DATASET_REVISION: 'cae7ab63', TIVARQ_SAMPLING: 'temperature=0', OTHER: 'x' }),
    })
    expect(manifest).toMatchObject({
      dataset_revision: 'cae7ab63',
      dataset_source: '/data/tivarq',
      adapter_command: [],
      model_config: 'none',
      prompt_config: 'none',
      sampling_settings: 'temperature=0',
      adapter_version: 'unknown',
      capabilities: { protocol: 'tivarq.adapter.v1', tracks: ['structured'], clock: false, history: false, inspection: false },
      dataset: { source: '/data/tivarq', revision: 'cae7ab63' },
      adapter: { command: null, version: null },
    })
    expect(manifest.capabilities).not.toHaveProperty('adapter_version')
    expect(manifestEnvironment({ TIVARQ_DATASET_REVISION: '', TIVARQ_SAMPLING: undefined })).toEqual({})
  })
})

describe("harnessCommit: a commit only from the harness's own checkout", () => {
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
  const repo = join(work, 'git-repo')
  beforeAll(() => {
    mkdirSync(join(repo, 'node_modules', 'timegrounded'), { recursive: true })
    git(repo, 'init', '-q')
    writeFileSync(join(repo, 'file.txt'), 'x')
    git(repo, 'add', '.')
    git(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'one')
  })

  test('at the top of a git work tree: its HEAD', async () => {
    expect(await harnessCommit(repo)).toBe(git(repo, 'rev-parse', 'HEAD'))
  })

  test('at the top of a linked worktree (a `.git` file, not a folder): its HEAD', async () => {
    const linked = join(work, 'git-linked')
    git(repo, 'worktree', 'add', '-q', '--detach', linked)
    expect(await harnessCommit(linked)).toBe(git(repo, 'rev-parse', 'HEAD'))
  })

  test('in a folder inside a work tree that holds a `.git` of its own that git does not accept: null', async () => {
    const fake = join(repo, 'fake-top')
    mkdirSync(join(fake, '.git'), { recursive: true })
    expect(await harnessCommit(fake)).toBeNull()
  })

  test("installed inside someone else's repository (node_modules): null, never their commit", async () => {
    expect(await harnessCommit(join(repo, 'node_modules', 'timegrounded'))).toBeNull()
  })

  test('outside any git work tree: null', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'tg-no-git-'))
    try {
      expect(await harnessCommit(bare)).toBeNull()
    } finally {
      rmSync(bare, { recursive: true, force: true })
    }
  })
})

describe('aggregateRepetitions', () => {
  // Three repetitions of the smoke split: the oracle's rows (transition success 13 of 13), then
  // twice the same rows with the post-change answer of two transitions wrong (11 of 13).
  const oracle = simulatedRows('smoke', 'oracle')
  // The post-change answers of the first two scored transitions.
  const postIds = transitionOutcomes(oracle)
    .slice(0, 2)
    .map((transition) => transition.post_probe_id)
  const posts = oracle.filter((row) => postIds.includes(row.probe_id))
  const worse = (repetition: number): PredictionRow[] =>
    oracle.map((row) =>
      posts.includes(row) && row.status === 'answered'
        ? { ...row, repetition, prediction: { state: 'known' as const, value: 'misheard' } }
        : { ...row, repetition },
    )
  const repetitions = [oracle, worse(1), worse(2)]
  const reports = repetitions.map((rows) => scoreRows(rows, { seed: 1 }))
  const aggregate = aggregateRepetitions(repetitions, reports, { seed: 1, resamples: 1000 })

  test("upstream's three keys first: mean, sample sd and range of transition success (reference: 1, 11/13, 11/13 → mean 0.897436, sd 0.088823)", () => {
    expect(Object.keys(aggregate).slice(0, 3)).toEqual(['transition_success_mean', 'transition_success_stddev', 'transition_success_range'])
    expect(aggregate).toMatchObject({ transition_success_mean: 0.897436, transition_success_stddev: 0.088823, transition_success_range: [0.846154, 1] })
    expect(aggregate.reports).toEqual(['report-1.json', 'report-2.json', 'report-3.json'])
  })

  test('every quality metric: its spread, its value pooled over all repetitions (35 of 39) and the episode-bootstrap interval', () => {
    expect(Object.keys(aggregate.metrics)).toEqual(QUALITY_METRICS.map(reportName))
    expect(aggregate.metrics.transition_success_rate).toMatchObject({
      mean: 0.897436,
      scores: [1, 0.846154, 0.846154],
      cases: [13, 13, 13],
      pooled: 0.897436,
      pooled_cases: 39,
    })
    const [low, high] = aggregate.metrics.transition_success_rate!.pooled_95pct_bootstrap_ci!
    expect(low).toBeLessThan(0.897436)
    expect(high).toBe(1)
    expect(aggregate.bootstrap).toEqual({ level: 0.95, resamples: 1000, seed: 1, unit: 'episode', repetitions: 'pooled' })
    // The same rows and seed give the same intervals.
    expect(aggregateRepetitions(repetitions, reports, { seed: 1, resamples: 1000 })).toEqual(aggregate)
  })

  test('how often each probe was right; the two wrong twice are flaky (right in 1 of 3)', () => {
    expect(aggregate.probes).toEqual({ total: 60, correct_every_time: 58, wrong_every_time: 0, flaky: 2, unsupported: 0, errored: 0 })
    expect(aggregate.flaky_probes).toEqual(posts.map((row) => ({ probe_id: row.probe_id, correct: 1, wrong: 2 })))
    expect(aggregate.probe_correct[posts[0]!.probe_id]).toBe(1)
    expect(Object.values(aggregate.probe_correct).filter((count) => count === 3)).toHaveLength(58)
  })

  test('no defined score: upstream keys are null', () => {
    const unsupported = oracle.map((row): PredictionRow => ({ ...baseOf(row), status: 'unsupported' }))
    const none = aggregateRepetitions([unsupported, unsupported], [scoreRows(unsupported, { seed: 1 }), scoreRows(unsupported, { seed: 1 })], {
      seed: 1,
      resamples: 1000,
    })
    expect(none).toMatchObject({ transition_success_mean: null, transition_success_stddev: null, transition_success_range: null })
    expect(none.probes).toMatchObject({ total: 60, unsupported: 60 })
    expect(none.probe_correct).toEqual({})
  })
})

test('writeFileAtomic leaves no temporary file', () => {
  const writer = new RunWriter(join(work, 'c'))
  writer.writeAggregate(
    aggregateRepetitions([simulatedRows('smoke', 'oracle')], [scoreRows(simulatedRows('smoke', 'oracle'), { seed: 1 })], { seed: 1, resamples: 500 }),
  )
  writeFileSync(join(writer.dir, 'keep.txt'), '')
  expect(readdirSync(writer.dir).sort()).toEqual(['aggregate.json', 'keep.txt'])
})

test('printable escapes control and invisible characters and cuts long text', () => {
  expect(printable('a\u0000b\u001b[2Jc\u007f\u0085\u202e\ud800\nd\te')).toBe('a\\u{0000}b\\u{001b}[2Jc\\u{007f}\\u{0085}\\u{202e}\\u{d800}\\nd\\te')
  expect(printable('é ok → fine')).toBe('é ok → fine')
  expect(printable('x'.repeat(200), 10)).toBe(`${'x'.repeat(10)}…`)
})

test('writeFileAtomic: a symlink planted at the old temporary name is not followed; the file lands in place, the outside file is untouched', () => {
  const writer = new RunWriter(join(work, 'planted'))
  const outside = join(work, 'outside-victim.txt')
  writeFileSync(outside, 'not yours')
  // The name a writer of `report.json` used to take: the pid is known to anyone on the machine.
  symlinkSync(outside, join(writer.dir, `report.json.${process.pid}.tmp`))
  const report = scoreRows(simulatedRows('smoke', 'oracle'), { seed: 1 })
  writer.writeReport(report)
  expect(readFileSync(outside, 'utf8')).toBe('not yours')
  expect(lstatSync(join(writer.dir, 'report.json')).isFile()).toBe(true)
  expect(JSON.parse(readFileSync(join(writer.dir, 'report.json'), 'utf8')).metrics.transition_success_rate).toEqual(report.metrics.transition_success_rate)
  // Only the planted link is left beside the report: the temporary file got a name of its own and was renamed.
  expect(readdirSync(writer.dir).sort()).toEqual(['report.json', `report.json.${process.pid}.tmp`])
})
