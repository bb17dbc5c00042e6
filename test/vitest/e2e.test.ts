// End to end: the real Vitest CLI on test/fixtures/vitest-projects/basic, a
// project whose store can carry a bug (TG_BUG), checked by output and exit code.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { assertBuilt, FIXTURES, REPO, runVitest, scratchDir } from './run-vitest.js'
import { expectPublishedMetrics, PUBLISHED_LATEST_SMOKE } from '../support/published.js'

const PROJECT = join(FIXTURES, 'basic')
let scratch: string

beforeAll(() => {
  assertBuilt()
  scratch = scratchDir('vitest-e2e')
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** One scenario's files: its own baseline, output directory and Vite cache. */
function paths(name: string): { baseline: string; output: string; env: Record<string, string> } {
  const baseline = join(scratch, `${name}.baseline.json`)
  const output = join(scratch, `${name}-out`)
  return { baseline, output, env: { TG_BASELINE: baseline, TG_OUTPUT: output, TG_CACHE_DIR: join(scratch, 'cache') } }
}

function run(args: string[], env: Record<string, string>) {
  return runVitest(['run', '--root', PROJECT, ...args], { cwd: PROJECT, env })
}

function readJson(path: string): any {
  return JSON.parse(readFileSync(path, 'utf8'))
}

/** report.json without the fields that measure time (they differ between any two runs). */
function withoutTimings(report: unknown): string {
  return JSON.stringify(report, (key, value) => (key === 'query_latency_ms' || key === 'update_lag_ms' ? undefined : value))
}

describe('timegrounded under real Vitest', () => {
  test('a correct store passes every probe, writes report.json and predictions.jsonl, and the gate passes', async () => {
    const { env, output } = paths('clean')
    const result = await run([], env)
    expect(result.output).toContain('Tests  60 passed (60)')
    expect(result.output).toContain('60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (skipped), 0 errors')
    expect(result.output).toMatch(/Transition success\s+1\.0 \(13\)/)
    expect(result.output).toContain('gate passed (no thresholds set; no baseline)') // the fixture sets none, and says so
    expect(result.code).toBe(0)
    const report = readJson(join(output, 'report.json'))
    expect(report.complete).toBe(true)
    expect(report.probe_counts).toEqual({ total: 60, answered: 60, unsupported: 0, error: 0 })
    expect(readFileSync(join(output, 'predictions.jsonl'), 'utf8').trim().split('\n')).toHaveLength(60)
  })

  test('probes needing an undeclared capability are skipped as unsupported; a store that throws fails with its error', async () => {
    const { env } = paths('capabilities')
    const basic = await run([], { ...env, TG_BUG: 'basic-only' })
    expect(basic.output).toContain('Tests  54 passed | 6 skipped (60)') // smoke: 6 probes need clock or history
    expect(basic.output).toContain('54 passed, 0 failed, 0 known failures, 6 unsupported (skipped), 0 errors')
    expect(basic.code).toBe(0)
    const throwing = await run([], { ...env, TG_BUG: 'throws' })
    expect(throwing.output).toMatch(/delayed_arrival-00-q1 \(delayed_arrival, target pre, .*\): the store failed: query: .*meeting window index is corrupt/)
    expect(throwing.output).toContain('5 errors') // the smoke split asks about the meeting window 5 times
    expect(throwing.code).toBe(1)
  })

  test('one store object and an adapter process work too; the latest-write process reproduces the upstream smoke figures', async () => {
    const { env, output } = paths('sources')
    const result = await run([], { ...env, TG_INCLUDE: 'probes/sources.probes.ts' })
    expect(result.output).toContain('timegrounded [single-store] 60 of 60 probes ran: 60 passed, 0 failed')
    expect(result.output).toContain(
      'timegrounded [latest-process] 60 of 60 probes ran: 51 passed, 3 failed, 0 known failures, 6 unsupported (skipped), 0 errors',
    )
    expect(result.code).toBe(1)
    // spec section 6, upstream harness on smoke: latest → 0.9 on 10 transitions, 54 answered, 6 unsupported,
    // current-state accuracy 0.944444 (54), stale-value leakage 0.083333 (12), retention 1.0 (13).
    const report = readJson(join(output, 'latest-process', 'report.json'))
    expect(report.probe_counts).toEqual(PUBLISHED_LATEST_SMOKE.probe_counts)
    expectPublishedMetrics(report.metrics, PUBLISHED_LATEST_SMOKE)
  })

  test('a stale-value bug fails its probes with a message naming the probe, both answers and the meaning', async () => {
    const { env } = paths('stale')
    const result = await run([], { ...env, TG_BUG: 'stale' })
    expect(result.code).toBe(1)
    expect(result.output).toContain('Tests  12 failed | 48 passed (60)')
    expect(result.output).toContain(
      'replacement-00-q3 (replacement, target post, as of 2025-01-05; asked "As of 2025-01-05, what is my notification channel for personal?"): stale value leaked: returned "email", which was replaced by known "chat" on 2025-01-04. Expected known "chat", returned known "email".',
    )
  })

  test('with no baseline under CI=true every failing probe fails, and GITHUB_STEP_SUMMARY gets the Markdown report', async () => {
    const { env } = paths('ci')
    const summary = join(scratch, 'step-summary.md')
    writeFileSync(summary, '')
    const result = await run([], { ...env, TG_BUG: 'forget', CI: 'true', GITHUB_STEP_SUMMARY: summary })
    expect(result.code).toBe(1)
    expect(result.output).toContain('Tests  10 failed | 50 passed (60)')
    expect(result.output).toContain('every failing probe fails; record one with `npx vitest run -u`')
    const markdown = readFileSync(summary, 'utf8')
    expect(markdown).toContain('## timegrounded')
    expect(markdown).toContain('60 of 60 probes ran: 50 passed, 10 failed')
  })

  test('-u records a baseline; known failures then pass; a newly failing probe and a regressed metric fail', async () => {
    const { env, baseline } = paths('baseline')
    const update = await run(['-u'], { ...env, TG_BUG: 'forget' })
    expect(update.output).toContain('baseline written to')
    expect(update.output).toContain('60 probes, 10 recorded as known failures')
    expect(update.code).toBe(0)
    const file = readJson(baseline)
    expect(file.format).toBe('timegrounded.baseline.v2')
    expect(Object.values(file.suites.tivarq.probes).filter((outcome) => outcome === 'wrong')).toHaveLength(10)
    expect(file.suites.tivarq.metrics.staleValueLeakageRate).toEqual({ value: 0, cases: 15 })

    const again = await run([], { ...env, TG_BUG: 'forget' })
    expect(again.output).toContain('Tests  60 passed (60)')
    expect(again.output).toContain('known failures (failing in the baseline too, not failing CI): replacement-00-q3, reversal-00-q3')
    expect(again.output).toMatch(/gate passed \(no thresholds set; baseline .*\)/)
    expect(again.code).toBe(0)

    // The stale bug fails two more probes than the baseline and makes leakage go up.
    const worse = await run([], { ...env, TG_BUG: 'stale' })
    expect(worse.code).toBe(1)
    expect(worse.output).toContain('Tests  2 failed | 58 passed (60)')
    expect(worse.output).toContain('delayed_arrival-00-q4 (delayed_arrival, target post')
    expect(worse.output).toContain(
      'timegrounded [tivarq] gate violation: staleValueLeakageRate rose from 0 of 15 to 8 of 15 (0 → 0.533333) since the baseline; families: add_vs_replace 0/1 → 1/1,',
    )
  })

  test('a regressed metric fails the run through the exit code even when every probe test passes', async () => {
    const { env } = paths('metric')
    expect((await run(['-u'], { ...env, TG_BUG: 'stale' })).code).toBe(0)
    // `forget` fails a subset of the probes `stale` failed, but answers "unknown" where the facts are known.
    const result = await run([], { ...env, TG_BUG: 'forget' })
    expect(result.output).toContain('Tests  60 passed (60)')
    expect(result.output).toContain(
      'timegrounded [tivarq] gate violation: abstentionPrecision fell from 2 of 2 to 2 of 12 (1 → 0.166667) since the baseline; families: ',
    )
    expect(result.code).toBe(1)
  })

  test('thresholds are checked per metric, one line per violation, and fail the run', async () => {
    const { env } = paths('thresholds')
    expect((await run(['-u'], { ...env, TG_BUG: 'stale' })).code).toBe(0)
    const thresholds = JSON.stringify({ staleValueLeakageRate: { max: 0.05 }, unaffectedFactRetention: { min: 0.9 } })
    const result = await run([], { ...env, TG_BUG: 'stale', TG_THRESHOLDS: thresholds })
    expect(result.output).toContain('Tests  60 passed (60)')
    expect(result.output).toContain(
      'timegrounded [tivarq] gate violation: staleValueLeakageRate is 8 of 15 (0.533333), above the threshold (max 0.05); families outside the bound: add_vs_replace 1/1,',
    )
    expect(result.output).not.toContain('unaffectedFactRetention is')
    expect(result.code).toBe(1)
  })

  test('a baseline recorded on another dataset is refused, never compared', async () => {
    const { env, baseline } = paths('refused')
    expect((await run(['-u'], { ...env, TG_BUG: 'forget' })).code).toBe(0)
    const file = readJson(baseline)
    file.suites.tivarq.dataset_hash = 'sha256:0000000000000000000000000000000000000000000000000000000000000000'
    writeFileSync(baseline, JSON.stringify(file))
    const result = await run([], { ...env, TG_BUG: 'forget' })
    expect(result.output).toContain('baseline refused:')
    expect(result.output).toContain('was recorded on TIVARQ v1 sha256:0000000000000000000000000000000000000000000000000000000000000000 (split smoke)')
    expect(result.output).toContain('a baseline is never compared across datasets')
    // Refused means strict: the known failures of that baseline are not tolerated.
    expect(result.output).toContain('Tests  10 failed | 50 passed (60)')
    expect(result.code).toBe(1)
  })

  test('-t selects one probe, one episode or one family, and a partial run is not gated', async () => {
    const { env } = paths('filter')
    const probe = await run(['-t', 'replacement-00-q3'], { ...env, TG_BUG: 'stale' })
    expect(probe.output).toContain('Tests  1 failed | 59 skipped (60)')
    expect(probe.output).toContain('partial run (1 of 60 probes): metrics are not gated')
    const episode = await run(['-t', 'reversal-00'], { ...env, TG_BUG: 'stale' })
    expect(episode.output).toContain('Tests  1 failed | 4 passed | 55 skipped (60)')
    const family = await run(['-t', 'withdrawal'], { ...env, TG_BUG: 'stale' })
    expect(family.output).toContain('Tests  4 passed | 56 skipped (60)')
    expect(family.code).toBe(0)
    // Nothing was cut short: the report says what was chosen, and its file records it the same way.
    expect(family.output).toContain(
      '4 probes: 4 answered, 0 unsupported, 0 errors; partial run: 4 of 60 probes selected (`-t`, files left out); metrics not gated',
    )
    expect(family.output).not.toContain('interrupted')
    const written = readJson(join(paths('filter').output, 'report.json'))
    expect(written.complete).toBe(false)
    expect(written.selected).toEqual({ expected_probes: 60, selected_probes: 4 })
    expect(written.interrupted).toBeUndefined()
  })

  test('three partition files sharded 1/2 and 2/2 then merged give exactly the unsharded report and gate decision', async () => {
    const { env, output } = paths('shards')
    const thresholds = JSON.stringify({ staleValueLeakageRate: { max: 0.05 } })
    const common = { ...env, TG_BUG: 'stale', TG_THRESHOLDS: thresholds, TG_BASELINE: join(scratch, 'shards-none.json') }
    const whole = await run([], { ...common, TG_OUTPUT: join(scratch, 'shards-whole') })
    const violation =
      'timegrounded [tivarq] gate violation: staleValueLeakageRate is 8 of 15 (0.533333), above the threshold (max 0.05); families outside the bound: add_vs_replace 1/1,'
    expect(whole.output).toContain(violation)
    expect(whole.code).toBe(1)

    const blobs = join(scratch, 'blobs')
    const parts = { ...common, TG_INCLUDE: 'probes/part*.probes.ts' }
    for (const shard of ['1/2', '2/2']) {
      const result = await run([`--shard=${shard}`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${shard.replace('/', '-')}.json`)}`], parts)
      expect(result.output).toContain(`shard ${shard}:`)
      expect(result.output).toContain('a shard never gates')
      expect(result.output).not.toContain('gate violation')
      expect(existsSync(join(output, 'report.json'))).toBe(false)
      expect(existsSync(join(output, 'report.html'))).toBe(false)
    }
    const merged = await runVitest(['--root', PROJECT, `--merge-reports=${blobs}`], { cwd: PROJECT, env: parts })
    expect(merged.output).toContain('60 of 60 probes ran: 48 passed, 12 failed')
    expect(merged.output).toContain(violation)
    expect(merged.code).toBe(1)
    // The merge writes the page, a shard never does.
    expect(merged.output).toContain('HTML report in')
    expect(existsSync(join(output, 'report.html'))).toBe(true)
    expect(withoutTimings(readJson(join(output, 'report.json')))).toBe(withoutTimings(readJson(join(scratch, 'shards-whole', 'report.json'))))
    const rows = (dir: string) =>
      readFileSync(join(dir, 'predictions.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => {
          const { latency_ms, update_lag_ms, ...rest } = JSON.parse(line)
          return rest
        })
    expect(rows(output)).toEqual(rows(join(scratch, 'shards-whole')))

    // Each shard also left its file: `timegrounded merge` gives the same report and gate without blobs.
    const shardFiles = ['1', '2'].map((index) => join(output, 'shards', `shard-${index}-of-2.json`))
    rmSync(join(output, 'report.json'))
    const cli = spawnSync(process.execPath, [join(REPO, 'dist/cli/main.js'), 'merge', '--root', PROJECT, ...shardFiles], { cwd: PROJECT, encoding: 'utf8' })
    expect(cli.stdout).toContain('60 of 60 probes ran: 48 passed, 12 failed')
    expect(cli.stdout).toContain(violation)
    expect(cli.status).toBe(1)
    expect(withoutTimings(readJson(join(output, 'report.json')))).toBe(withoutTimings(readJson(join(scratch, 'shards-whole', 'report.json'))))
  })

  test('with `timeGrounded`, the time-grounded questions run as tests and the reporter prints the probe-vs-control delta', async () => {
    const { env, output } = paths('time-grounded')
    const common = { ...env, TG_INCLUDE: 'probes/time-grounded.probes.ts' }
    const honest = await run([], { ...common, TG_AGENT: 'honest' })
    expect(honest.output).toContain('Tests  28 passed (28)') // 4 replacement probes + 12 control + 12 probe questions
    expect(honest.output).toMatch(/delta\s+\(probe − control\)\s+±0\.0 pts/)
    expect(honest.code).toBe(0)
    expect(readJson(join(output, 'time-grounded.json')).suites[0].probe.correct).toBe(12)

    const textDates = await run([], { ...common, TG_AGENT: 'ingestion-order' })
    expect(textDates.output).toContain('Tests  7 failed | 21 passed (28)')
    expect(textDates.output).toContain('this answer depended on text dates, not on the timestamps delivered through the typed channel')
    expect(textDates.output).toMatch(/delta\s+\(probe − control\)\s+-58\.3 pts/)
    expect(textDates.code).toBe(1)
  })
})
