/**
 * The real built CLI, as subprocesses: `npm test` builds dist/ first; run
 * `npx tsc -p tsconfig.build.json` before running this file on its own.
 */
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectPublishedMetrics, PUBLISHED_LATEST_SMOKE } from '../support/published.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const CLI = join(ROOT, 'dist/cli/main.js')
const SCRIPTED = fileURLToPath(new URL('./fixtures/scripted-adapter.mjs', import.meta.url))
const FAULT_ADAPTER = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
let work: string

beforeAll(() => {
  if (!existsSync(CLI)) spawnSync('npx', ['tsc', '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'ignore' })
  work = mkdtempSync(join(tmpdir(), 'tg-cli-'))
})
afterAll(() => rmSync(work, { recursive: true, force: true }))

function cli(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', GITHUB_STEP_SUMMARY: '', ...env },
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const jsonl = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))

describe('run --adapter builtin:latest on smoke', () => {
  let out: string
  let result: ReturnType<typeof cli>
  beforeAll(() => {
    out = join(work, 'latest')
    result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out])
  })

  test('exit 0, the three files and the HTML report beside them, named in the summary', () => {
    expect(result.stderr).toContain('run: 60/60 probes (100%), 0 errors')
    expect(result.status).toBe(0)
    expect(readdirSync(out).sort()).toEqual(['predictions.jsonl', 'report.html', 'report.json', 'run_manifest.json'])
    expect(result.stdout).toContain(`HTML report in ${join(out, 'report.html')}`)
  })

  test('report.json carries the published latest figures', () => {
    const report = json(join(out, 'report.json'))
    expect(report.complete).toBe(true)
    expect(report.probe_counts).toEqual(PUBLISHED_LATEST_SMOKE.probe_counts)
    expectPublishedMetrics(report.metrics, PUBLISHED_LATEST_SMOKE)
    // Upstream's key holds [low, high]; ours beside it says how the interval was made.
    expect(report.transition_success_95pct_bootstrap_ci).toEqual([report.transition_success_bootstrap.low, report.transition_success_bootstrap.high])
    expect(report.transition_success_bootstrap).toMatchObject({ seed: 20261001, resamples: 1000 })
    expect(report.metrics.query_latency_ms.cases).toBe(54)
    expect(report.metrics.reported_cost_usd).toEqual({ total: 0, cases_with_cost: 0 })
    expect(Object.keys(report.by_family)).toHaveLength(12)
  })

  test('predictions.jsonl: one row per probe, in probe order, as upstream writes rows: its key order, fields only where they apply, repetition 0', () => {
    const rows = jsonl(join(out, 'predictions.jsonl'))
    const probes = jsonl(join(ROOT, 'fixtures/tivarq-v1/probes_smoke.jsonl'))
    expect(rows).toHaveLength(60)
    expect(new Set(rows.map((r) => r.probe_id))).toEqual(new Set(probes.map((p) => p.probe_id)))
    const base = ['probe_id', 'episode_id', 'expected', 'role', 'transition_id', 'phase', 'capability', 'old_value', 'family', 'repetition', 'status']
    const lag = ['update_lag_ms', 'update_lag_polls', 'update_lag_censored']
    for (const row of rows) {
      const postChange = row.status === 'answered' && row.role === 'target' && row.phase === 'post'
      const expected = row.status === 'unsupported' ? base : [...base, 'prediction', 'latency_ms', ...(postChange ? lag : [])]
      expect(Object.keys(row), row.probe_id).toEqual(expected)
      expect(row.repetition).toBe(0)
    }
    expect(rows.filter((r) => r.status === 'unsupported')).toHaveLength(6)
    // Python's json.dumps separators, as upstream writes each line.
    expect(
      readFileSync(join(out, 'predictions.jsonl'), 'utf8').startsWith(
        '{"probe_id": "replacement-00-q1", "episode_id": "replacement-00", "expected": {"state": "known", "value": "email"}, ',
      ),
    ).toBe(true)
  })

  test("run_manifest.json records dataset, adapter, settings: upstream's keys, then ours", () => {
    const manifest = json(join(out, 'run_manifest.json'))
    const upstream = json(join(ROOT, 'test/fixtures/upstream/run_manifest.json'))
    expect(Object.keys(manifest).slice(0, Object.keys(upstream).length)).toEqual(Object.keys(upstream))
    expect(manifest).toMatchObject({
      dataset_file_hashes: json(join(ROOT, 'fixtures/tivarq-v1/manifest.json')).files,
      dataset_source: join(ROOT, 'fixtures/tivarq-v1'),
      // Run from this checkout: its own commit (an installed package records none).
      harness_commit: expect.stringMatching(/^[0-9a-f]{40}$/),
      adapter_command: [],
      model_config: 'none',
      sampling_settings: 'unspecified',
      capabilities: { protocol: 'tivarq.adapter.v1', tracks: ['structured'], clock: false, history: false, inspection: false },
    })
    expect(manifest.harness).toMatchObject({ version: json(join(ROOT, 'package.json')).version, commit: manifest.harness_commit })
    expect(manifest).toMatchObject({
      schema_version: 'tivarq.run.v1',
      track: 'structured',
      split: 'smoke',
      run_seed: 20261001,
      repeats: 1,
      update_polls: 0,
      poll_interval_ms: 0,
      adapter: { name: 'builtin:latest', command: null, capabilities: { clock: false, history: false } },
      dataset: { source: 'bundled', seed: 20261001 },
    })
    const published = json(join(ROOT, 'fixtures/tivarq-v1/manifest.json'))
    expect(manifest.dataset.files['probes_smoke.jsonl']).toBe(published.files['probes_smoke.jsonl'])
    expect(manifest.dataset.files['episodes_smoke.jsonl']).toBe(published.files['episodes_smoke.jsonl'])
  })

  test('the summary shows headline metrics with denominators, the interval and its seed, the family table', () => {
    expect(result.stdout).toContain('0.9 (10)')
    expect(result.stdout).toContain('0.944444 (54)')
    expect(result.stdout).toContain('0.083333 (12)')
    expect(result.stdout).toMatch(/95% CI \[[0-9.]+, [0-9.]+\]/)
    expect(result.stdout).toContain('seed 20261001')
    expect(result.stdout).toContain('delayed_arrival')
    expect(result.stdout).toContain('60 probes: 54 answered, 6 unsupported, 0 errors')
  })

  test('score re-scores predictions.jsonl into the same report, byte for byte', () => {
    const rescored = join(work, 'latest-rescored')
    const scored = cli(['score', join(out, 'predictions.jsonl'), '--output', rescored])
    expect(scored.status).toBe(0)
    expect(readFileSync(join(rescored, 'report.json'), 'utf8')).toBe(readFileSync(join(out, 'report.json'), 'utf8'))
    // Its page where --html says, each failing probe with its episode from the bundled data the rows were run on.
    const page = join(work, 'pages', 'latest.html')
    expect(cli(['score', join(out, 'predictions.jsonl'), '--output', rescored, '--html', page]).stdout).toContain(`HTML report in ${page}`)
    const data = JSON.parse(/<script type="application\/json" id="tg-data">([\s\S]*?)<\/script>/.exec(readFileSync(page, 'utf8'))![1]!)
    expect(data.tivarq.timelineNote).toBeNull()
    expect(data.tivarq.failing.every((probe: { episode: string }) => data.tivarq.episodes[probe.episode] !== undefined)).toBe(true)
    // A page that cannot be written is a warning naming it; the report and the exit code stand.
    const blocked = join(work, 'pages', 'latest.html', 'page.html')
    const warned = cli(['score', join(out, 'predictions.jsonl'), '--output', join(work, 'rescored-blocked'), '--html', blocked])
    expect(warned.status).toBe(0)
    expect(warned.stderr).toContain(`timegrounded score: warning: the HTML report was not written to ${blocked}:`)
    expect(warned.stdout).not.toContain('HTML report:')
    expect(existsSync(join(work, 'rescored-blocked', 'report.json'))).toBe(true)
  })

  test('score reads of the bundled data only the episodes its page draws: the page is the one a copy of the data, read whole, gives', () => {
    const copy = join(work, 'bundled-copy')
    cpSync(join(ROOT, 'fixtures/tivarq-v1'), copy, { recursive: true })
    const predictions = join(out, 'predictions.jsonl')
    const bundled = join(work, 'pages', 'bundled.html')
    const whole = join(work, 'pages', 'whole.html')
    expect(cli(['score', predictions, '--output', join(work, 'scored-bundled'), '--html', bundled]).status).toBe(0)
    expect(cli(['score', predictions, '--output', join(work, 'scored-whole'), '--html', whole, '--dataset', copy]).status).toBe(0)
    const page = readFileSync(bundled, 'utf8')
    expect(JSON.parse(/<script type="application\/json" id="tg-data">([\s\S]*?)<\/script>/.exec(page)![1]!).tivarq.failing.length).toBeGreaterThan(0)
    expect(page).toBe(readFileSync(whole, 'utf8'))
  })

  test("score of rows from two splits draws every failing probe's timeline from its own split", () => {
    const dev = join(work, 'latest-dev')
    expect(cli(['run', '--split', 'dev', '--adapter', 'builtin:latest', '--no-html', '--output', dev]).status).toBe(0)
    const mixed = join(work, 'mixed-predictions.jsonl')
    writeFileSync(mixed, readFileSync(join(out, 'predictions.jsonl'), 'utf8') + readFileSync(join(dev, 'predictions.jsonl'), 'utf8'))
    const page = join(work, 'pages', 'mixed.html')
    expect(cli(['score', mixed, '--output', join(work, 'mixed-scored'), '--html', page]).status).toBe(0)
    const data = JSON.parse(/<script type="application\/json" id="tg-data">([\s\S]*?)<\/script>/.exec(readFileSync(page, 'utf8'))![1]!)
    expect(data.tivarq.timelineNote).toBeNull()
    const episodesOf = (split: string) => new Set(jsonl(join(ROOT, `fixtures/tivarq-v1/episodes_${split}.jsonl`)).map((row) => row.episode_id as string))
    const failing = data.tivarq.failing as { episode: string }[]
    // Both splits have failing probes under builtin:latest, and each one's episode is on the page.
    expect(failing.some((probe) => episodesOf('smoke').has(probe.episode))).toBe(true)
    expect(failing.some((probe) => episodesOf('dev').has(probe.episode))).toBe(true)
    expect(failing.every((probe) => data.tivarq.episodes[probe.episode] !== undefined)).toBe(true)
  })

  test('score accepts upstream-shaped rows (no family or repetition, extra fields, usage inside prediction)', () => {
    const rows = jsonl(join(out, 'predictions.jsonl')).map((row) => {
      const { family: _family, repetition: _repetition, ...rest } = row
      if (rest.status === 'answered') rest.prediction = { ...rest.prediction, usage: { prompt_tokens: 3, completion_tokens: 1 } }
      return { ...rest, harness_note: 'upstream' }
    })
    const file = join(work, 'upstream.jsonl')
    writeFileSync(file, `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`)
    const scored = cli(['score', file, '--output', join(work, 'upstream-report')])
    expect(scored.status).toBe(0)
    const report = json(join(work, 'upstream-report', 'report.json'))
    const original = json(join(out, 'report.json'))
    expect(report.metrics.transition_success_rate).toEqual(original.metrics.transition_success_rate)
    expect(report.by_family.delayed_arrival).toBeDefined()
    expect(report.metrics.reported_tokens).toEqual({ prompt: 3 * 54, completion: 54, cases_with_usage: 54 })
  })
})

describe('the CI job summary', () => {
  test('run appends its report as Markdown to the file GITHUB_STEP_SUMMARY names', () => {
    const summary = join(work, 'summary.md')
    writeFileSync(summary, '# an earlier step\n')
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', join(work, 'summary-run')], { GITHUB_STEP_SUMMARY: summary })
    expect(result.status, result.stderr).toBe(0)
    const text = readFileSync(summary, 'utf8')
    expect(text.startsWith('# an earlier step\n')).toBe(true)
    expect(text).toContain('| Stale-value leakage | 0.083333 (12) | lower |')
  })

  test('a summary file that cannot be written: a warning naming it, and the exit code of the results', () => {
    const summary = join(work, 'no-such-folder', 'summary.md')
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', join(work, 'unwritable-summary')], {
      GITHUB_STEP_SUMMARY: summary,
    })
    expect(result.stderr).toContain(`timegrounded: warning: could not write the job summary to ${summary} (ENOENT`)
    expect(result.status).toBe(0)
    expect(existsSync(join(work, 'unwritable-summary', 'report.json'))).toBe(true)
  })
})

describe('oracle and versioned: transition success 1.0 on every split', () => {
  test.each([
    ['oracle', 'smoke'],
    ['oracle', 'dev'],
    ['oracle', 'test'],
    ['versioned', 'smoke'],
    ['versioned', 'dev'],
    ['versioned', 'test'],
  ])('builtin:%s on %s', (name, split) => {
    const out = join(work, `${name}-${split}`)
    const result = cli(['run', '--split', split, '--adapter', `builtin:${name}`, '--output', out])
    expect(result.status).toBe(0)
    const report = json(join(out, 'report.json'))
    expect(report.metrics.transition_success_rate.score).toBe(1)
    expect(report.probe_counts.unsupported).toBe(0)
  })
})

describe('adapter commands (the subprocess path)', () => {
  test('-- node dist/cli/main.js reference oracle: 1.0 on 13 transitions, 60/60 answered', () => {
    const out = join(work, 'oracle-process')
    const result = cli(['run', '--split', 'smoke', '--output', out, '--', process.execPath, CLI, 'reference', 'oracle'])
    expect(result.status).toBe(0)
    const report = json(join(out, 'report.json'))
    expect(report.metrics.transition_success_rate).toEqual({ score: 1, cases: 13 })
    expect(report.probe_counts).toEqual({ total: 60, answered: 60, unsupported: 0, error: 0 })
    expect(json(join(out, 'run_manifest.json')).adapter.command).toEqual([process.execPath, CLI, 'reference', 'oracle'])
  })

  test('a faulty adapter: exit 1, error rows recorded, report incomplete, files valid', () => {
    const out = join(work, 'faulty')
    const result = cli(['run', '--split', 'smoke', '--output', out, '--', process.execPath, SCRIPTED, '--error-every', '7'])
    expect(result.status).toBe(1)
    const rows = jsonl(join(out, 'predictions.jsonl'))
    expect(rows).toHaveLength(60)
    const errors = rows.filter((r) => r.status === 'error')
    expect(errors.length).toBe(Math.floor(54 / 7)) // 54 basic probes asked; every 7th query fails
    expect(errors[0].error).toContain('scripted failure')
    const report = json(join(out, 'report.json'))
    expect(report.complete).toBe(false)
    expect(report.probe_counts.error).toBe(errors.length)
    expect(result.stdout).toContain('INCOMPLETE')
    // The summary shows what went wrong, not only how often.
    expect(result.stdout).toContain(`First errors (${errors.length} error rows, ${errors.length} distinct messages):`)
    expect(result.stdout).toContain(
      `  ${errors[0].probe_id}: ${errors[0].error}\n  ${errors[1].probe_id}: ${errors[1].error}\n  ${errors[2].probe_id}: ${errors[2].error}\n  … and ${errors.length - 3} more distinct messages`,
    )
    // The exit code in words: how many errored, which, and that the rates leave them out.
    expect(result.stdout).toContain(
      `INCOMPLETE: ${errors.length} of 60 probes errored (${errors.map((row) => row.probe_id).join(', ')}); every rate above leaves them out, so the run cannot pass (exit 1)`,
    )
  })

  test('an adapter that exits badly on shutdown: a warning on stderr and in run_manifest.json; the complete run still exits 0', () => {
    const out = join(work, 'bad-exit')
    const adapter = fileURLToPath(new URL('../fixtures/adapters/fault-adapter.mjs', import.meta.url))
    const result = cli(['run', '--split', 'smoke', '--output', out, '--', process.execPath, adapter, 'bad-exit'])
    expect(result.status).toBe(0)
    expect(json(join(out, 'report.json')).complete).toBe(true)
    const warning = result.stderr.split('\n').filter((line) => line.startsWith('timegrounded run: warning: '))
    expect(warning).toHaveLength(1)
    expect(warning[0]).toMatch(
      /^timegrounded run: warning: closing `.*fault-adapter\.mjs bad-exit` failed: adapter process `.*fault-adapter\.mjs bad-exit` exited with code 5 when its stdin closed/,
    )
    const manifest = json(join(out, 'run_manifest.json'))
    expect(manifest.adapter_close_errors).toEqual([
      {
        store: expect.stringContaining('fault-adapter.mjs bad-exit'),
        episode_id: null,
        message: expect.stringContaining('exited with code 5 when its stdin closed'),
      },
    ])
    // A clean run records none.
    expect(json(join(work, 'oracle-process', 'run_manifest.json')).adapter_close_errors).toEqual([])
  })

  test('SIGINT: predictions so far and a report marked incomplete, exit 1', async () => {
    const out = join(work, 'interrupted')
    const child = spawn(process.execPath, [CLI, 'run', '--split', 'smoke', '--output', out, '--', process.execPath, SCRIPTED, '--delay-ms', '40'], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1' },
    })
    let stderr = ''
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    await new Promise<void>((resolve) => {
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
        if (stderr.includes('run: 12/60')) resolve()
      })
    })
    child.kill('SIGINT')
    expect(await exited).toBe(1)
    expect(stderr).toContain('interrupted after')
    const rows = jsonl(join(out, 'predictions.jsonl'))
    expect(rows.length).toBeGreaterThanOrEqual(12)
    expect(rows.length).toBeLessThan(60)
    const report = json(join(out, 'report.json'))
    expect(report.complete).toBe(false)
    expect(report.interrupted).toEqual({ expected_probes: 60, finished_probes: rows.length })
    // The page of what finished is kept too.
    expect(stderr).toContain(`HTML report in ${join(out, 'report.html')}`)
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('INCOMPLETE: interrupted after')
    expect(readdirSync(out).filter((name) => name.endsWith('.tmp'))).toEqual([])
    // Every row finished before the interrupt is on disk, whole and in order: the rows a complete run writes first (latency aside).
    expect(stderr).toContain(`interrupted after ${rows.length} of 60 probes`)
    const whole = join(work, 'not-interrupted')
    expect(cli(['run', '--split', 'smoke', '--output', whole, '--', process.execPath, SCRIPTED]).status).toBe(0)
    const withoutLatency = (row: Record<string, unknown>) => ({ ...row, latency_ms: undefined, update_lag_ms: undefined })
    expect(rows.map(withoutLatency)).toEqual(jsonl(join(whole, 'predictions.jsonl')).slice(0, rows.length).map(withoutLatency))
  })
})

describe('repeats', () => {
  test('--repeat 3: numbered predictions and reports, aggregate.json', () => {
    const out = join(work, 'repeat')
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', out, '--repeat', '3', '--seed', '7'])
    expect(result.status).toBe(0)
    expect(readdirSync(out).sort()).toEqual([
      'aggregate.json',
      'predictions-1.jsonl',
      'predictions-2.jsonl',
      'predictions-3.jsonl',
      'report-1.json',
      'report-2.json',
      'report-3.json',
      'report.html',
      'run_manifest.json',
    ])
    // Rows count repetitions from 0, as upstream does; files from 1.
    expect(jsonl(join(out, 'predictions-1.jsonl')).every((row) => row.repetition === 0)).toBe(true)
    expect(jsonl(join(out, 'predictions-2.jsonl')).every((row) => row.repetition === 1)).toBe(true)
    expect(json(join(out, 'report-3.json')).transition_success_bootstrap.seed).toBe(7)
    const aggregate = json(join(out, 'aggregate.json'))
    // latest is deterministic: three identical scores, so sd 0 and a point range.
    expect(aggregate).toMatchObject({ transition_success_mean: 0.9, transition_success_stddev: 0, transition_success_range: [0.9, 0.9] })
    expect(aggregate).toMatchObject({ repeats: 3, complete: true, reports: ['report-1.json', 'report-2.json', 'report-3.json'] })
    expect(aggregate.metrics.transition_success_rate).toMatchObject({
      mean: 0.9,
      stddev: 0,
      min: 0.9,
      max: 0.9,
      scores: [0.9, 0.9, 0.9],
      cases: [10, 10, 10],
      pooled: 0.9,
      pooled_cases: 30,
    })
    expect(aggregate.probes).toMatchObject({ flaky: 0 })
    expect(json(join(out, 'run_manifest.json')).repeats).toBe(3)
    expect(result.stdout).toContain('over 3 repetitions')
    // The three files in one: score keeps each repetition apart and writes what run wrote.
    const all = join(work, 'repeat-all.jsonl')
    writeFileSync(all, ['predictions-1.jsonl', 'predictions-2.jsonl', 'predictions-3.jsonl'].map((name) => readFileSync(join(out, name), 'utf8')).join(''))
    const rescored = join(work, 'repeat-rescored')
    expect(cli(['score', all, '--output', rescored, '--seed', '7', '--no-html']).status).toBe(0)
    expect(existsSync(join(rescored, 'report.html'))).toBe(false)
    for (const name of ['report-1.json', 'report-2.json', 'report-3.json', 'aggregate.json']) {
      expect(readFileSync(join(rescored, name), 'utf8'), name).toBe(readFileSync(join(out, name), 'utf8'))
    }
    // The numbered files given together, as the suite and `run --repeat` leave them: the same reports.
    const together = join(work, 'repeat-together')
    const numbered = ['predictions-1.jsonl', 'predictions-2.jsonl', 'predictions-3.jsonl'].map((name) => join(out, name))
    expect(cli(['score', ...numbered, '--output', together, '--seed', '7']).status).toBe(0)
    expect(readFileSync(join(together, 'aggregate.json'), 'utf8')).toBe(readFileSync(join(out, 'aggregate.json'), 'utf8'))
  })
})

describe('upstream files through the CLI (test/fixtures/upstream)', () => {
  const UPSTREAM = join(ROOT, 'test/fixtures/upstream')

  test('score reads an upstream predictions file (repetition 0, usage inside predictions, no lag on most rows) and scores it as upstream: exit 1 for its error row', () => {
    const dir = join(work, 'upstream-scored')
    const result = cli(['score', join(UPSTREAM, 'predictions.jsonl'), '--output', dir])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(1)
    const ours = json(join(dir, 'report.json'))
    const theirs = json(join(UPSTREAM, 'report.json'))
    expect(ours.metrics).toEqual(theirs.metrics)
    expect(ours.probe_counts).toEqual(theirs.probe_counts)
    expect(ours.complete).toBe(false)
    for (const family of Object.keys(theirs.by_family)) expect(ours.by_family[family], family).toEqual(theirs.by_family[family])
    // Written as upstream writes report.json: two-space indent, the interval as a two-number list.
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toMatch(
      /^\{\n {2}"complete": false,\n {2}"probe_counts": \{\n[\s\S]*\n {2}"transition_success_95pct_bootstrap_ci": \[\n {4}[0-9.]+,\n {4}[0-9.]+\n {2}\],\n/,
    )
    expect(result.stdout).toContain('Reported usage')
  })

  test("timegrounded 0.1's file of the same rows gives the same report", () => {
    const dir = join(work, 'older-scored')
    expect(cli(['score', join(UPSTREAM, 'timegrounded-0.1-predictions.jsonl'), '--output', dir]).status).toBe(1)
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe(readFileSync(join(work, 'upstream-scored', 'report.json'), 'utf8'))
  })

  test("a file holding two repetitions: one report per repetition, and aggregate.json with upstream's keys", () => {
    const dir = join(work, 'two-repetitions')
    const result = cli(['score', join(UPSTREAM, 'predictions-two-repetitions.jsonl'), '--output', dir])
    expect(result.status).toBe(0)
    expect(readdirSync(dir).sort()).toEqual(['aggregate.json', 'report-1.json', 'report-2.json', 'report.html'])
    expect(json(join(dir, 'report-1.json')).metrics.transition_success_rate).toEqual({ score: 1, cases: 2 })
    expect(json(join(dir, 'report-2.json')).metrics.transition_success_rate).toEqual({ score: 0.5, cases: 2 })
    expect(json(join(dir, 'aggregate.json'))).toMatchObject({
      transition_success_mean: 0.75,
      transition_success_stddev: 0.353553,
      transition_success_range: [0.5, 1],
      repeats: 2,
    })
    expect(result.stdout).toContain('Over 2 repetitions')
    // Pooled (cases), interval, mean, sample sd, range.
    expect(result.stdout).toMatch(/Transition success\s+│\s+0\.75 \(4\) │\s+\[0\.5, 1\.0\] │\s+0\.75 │\s+0\.353553 │\s+\[0\.5, 1\.0\] │/)
    expect(result.stdout).toContain(`Wrote report-1.json, report-2.json, aggregate.json to ${dir}`)
  })

  test('run records TIVARQ_DATASET_REVISION and TIVARQ_SAMPLING in run_manifest.json, as upstream does', () => {
    const dir = join(work, 'with-env')
    const result = spawnSync(
      process.execPath,
      [CLI, 'run', '--split', 'smoke', '--adapter', 'builtin:oracle', '--output', dir, '--model-config', '{"model":"m"}'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', TIVARQ_DATASET_REVISION: 'cae7ab63ff9daf1f9d167978d5496b93554ac447', TIVARQ_SAMPLING: 'temperature=0' },
      },
    )
    expect(result.status).toBe(0)
    expect(json(join(dir, 'run_manifest.json'))).toMatchObject({
      dataset_revision: 'cae7ab63ff9daf1f9d167978d5496b93554ac447',
      sampling_settings: 'temperature=0',
      model_config: '{"model":"m"}',
      dataset: { revision: 'cae7ab63ff9daf1f9d167978d5496b93554ac447' },
    })
  })
})

describe('usage and data errors exit 2', () => {
  test.each([
    [['run', '--adapter', 'builtin:latest', '--output', 'x'], "required option '--split <split>' not specified"],
    [
      ['run', '--split', 'huge', '--adapter', 'builtin:latest', '--output', 'x'],
      "option '--split <split>' argument 'huge' is invalid. Allowed choices are smoke, dev, test.",
    ],
    [
      ['run', '--split', 'smoke', '--adapter', 'builtin:nope', '--output', 'x'],
      "option '--adapter <NAME>' argument 'builtin:nope' is invalid. not a reference store; expected builtin:NAME with NAME one of oracle, versioned, latest, hybrid, hybrid-corrections.",
    ],
    [['run', '--split', 'smoke', '--output', 'x'], 'say what to run'],
    [['run', '--split', 'smoke', '--adapter', 'builtin:latest'], "required option '--output <dir>' not specified"],
    [
      ['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', 'x', '--repeat', '0'],
      "option '--repeat <n>' argument '0' is invalid. expected a whole number from 1 to 1000 (OPTION_RANGES.repeat).",
    ],
    [
      ['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', 'x', '--resamples', '100'],
      "option '--resamples <n>' argument '100' is invalid. expected a whole number from 500 to 1000000 (OPTION_RANGES.resamples).",
    ],
    [['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', 'x', '--bogus'], "unknown option '--bogus'"],
    [
      ['run', '--split', 'smoke', '--variant', '3', '--dataset', 'd', '--adapter', 'builtin:latest', '--output', 'x'],
      "option '--variant <seed>' cannot be used with option '--dataset <dir>'",
    ],
    [
      ['score', 'predictions.jsonl', '--output', 'x', '--seed', '-1'],
      "option '--seed <n>' argument '-1' is invalid. expected a whole number from 0 to 9007199254740991 (OPTION_RANGES.seed).",
    ],
    [['score', 'does-not-exist.jsonl', '--output', 'x'], 'no such file'],
    [
      ['score', 'predictions.jsonl', '--output', 'x', '--dataset', 'd', '--no-html'],
      '`--dataset` is read for the HTML report only (its timelines); drop `--dataset` or `--no-html`.',
    ],
  ])('%j', (args, message) => {
    const result = cli(args)
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(message)
  })

  test('an adapter process whose answers answerSchema rejects: error rows naming the probe and the zod issue, exit 1', () => {
    const out = join(work, 'schema-invalid')
    const result = cli(['run', '--split', 'smoke', '--output', out, '--', process.execPath, FAULT_ADAPTER, 'schema-invalid', 'withdrawal-00'])
    expect(result.status).toBe(1)
    const errors = jsonl(join(out, 'predictions.jsonl')).filter((row) => row.status === 'error')
    // Every probe of the faulty episode (withdrawal-00): known answers without a value, the others withdrawn with one.
    expect(new Set(errors.map((row) => row.episode_id))).toEqual(new Set(['withdrawal-00']))
    expect(errors).toHaveLength(4)
    expect(errors.map((row) => row.error)).toContain(
      'query: the answer {"state":"known"} fails answerSchema: value: a known answer needs a value (a string or a list of strings)',
    )
    expect(errors.map((row) => row.error)).toContain(
      'query: the answer {"state":"withdrawn","value":"dark"} fails answerSchema: value: state withdrawn must carry value null, not "dark"',
    )
    expect(result.stdout).toContain(`  ${errors[0].probe_id}: query: the answer {"state":"known"} fails answerSchema`)
  })

  test('serveNdjson in an adapter process: a store object without reset() is refused at start-up, as in process; a factory is served', () => {
    const script = (source: string) => {
      const path = join(work, `serve-${source}.mjs`)
      writeFileSync(
        path,
        `import { serveNdjson } from ${JSON.stringify(join(ROOT, 'dist/index.js'))}\n` +
          // Last write wins on `set`; everything else forgets the slot. Correct or not, every answer is valid.
          "const create = () => { const facts = new Map(); return { ingest: (e) => { const a = e.assertion; if (a?.op === 'set') facts.set(a.scope + a.slot, a.value); else if (a) facts.delete(a.scope + a.slot) }, query: (q) => (facts.has(q.scope + q.slot) ? { state: 'known', value: facts.get(q.scope + q.slot) } : { state: 'unknown', value: null }) } }\n" +
          `await serveNdjson(${source === 'object' ? 'create()' : 'create'}, process.stdin, process.stdout)\n`,
      )
      return path
    }
    const refused = cli(['run', '--split', 'smoke', '--output', join(work, 'serve-object'), '--', process.execPath, script('object')])
    expect(refused.status).toBe(2)
    expect(refused.stderr).toContain(
      'has no reset() method, but one store object serves every episode and memory must not outlive its episode. Add reset() that forgets everything, or pass a factory',
    )
    const served = cli(['run', '--split', 'smoke', '--output', join(work, 'serve-factory'), '--', process.execPath, script('factory')])
    expect(served.stdout).toContain('60 probes: 54 answered, 6 unsupported, 0 errors; complete')
    // A fresh store per episode: the memory of one episode never answers in the next (a shared store would leak it).
    expect(served.status).toBe(0)
  })

  test('an invalid dataset directory', () => {
    const dir = join(work, 'empty-dataset')
    mkdirSync(dir, { recursive: true })
    const result = cli(['run', '--dataset', dir, '--split', 'smoke', '--adapter', 'builtin:latest', '--output', join(work, 'never')])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(dir)
  })

  test('an adapter command that cannot start', () => {
    const result = cli(['run', '--split', 'smoke', '--output', join(work, 'never'), '--', join(work, 'no-such-adapter')])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain('could not start the adapter')
    expect(result.stderr.match(/could not start/g)).toHaveLength(1)
  })

  test('a builtin asked for a track it does not run: a usage error naming the builtin and the fix', () => {
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--track', 'conversation', '--output', join(work, 'never')])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(
      '`builtin:latest` runs the structured track only; drop `--track conversation`, or use builtin:hybrid or builtin:hybrid-corrections for the conversation track.',
    )
  })

  test('--output on a file: says the file is in the way', () => {
    const file = join(work, 'a-file')
    writeFileSync(file, 'x')
    const result = cli(['run', '--split', 'smoke', '--adapter', 'builtin:latest', '--output', file])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(`cannot write to \`--output ${file}\`: ${file} is a file, not a directory`)
  })

  test('the example in `reference --help` is a complete command', () => {
    const result = cli(['reference', '--help'])
    expect(result.status).toBe(0)
    expect(result.stdout).toContain('timegrounded run --split smoke --output out/latest -- timegrounded reference latest')
  })

  test('a bad predictions line is named by file:line', () => {
    const file = join(work, 'bad.jsonl')
    const good = readFileSync(join(work, 'latest', 'predictions.jsonl'), 'utf8').split('\n')[0]
    writeFileSync(file, `${good}\n{"probe_id": "x"}\nnot json\n`)
    const result = cli(['score', file, '--output', join(work, 'never')])
    expect(result.status).toBe(2)
    expect(result.stderr).toContain(`${file}:2`)
    expect(result.stderr).toContain(`${file}:3: not JSON`)
  })
})
