/**
 * The suite core without any test framework: the smoke split planned with
 * planSuite, each probe answered by a real reference store through the real
 * pool and runner and settled as a test would, then finishRun scores, gates,
 * writes the files and words the run. This is the path every runner shell
 * (Vitest today) takes.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runSmokeSuite, smokePlan } from '../support/smoke-suite.js'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { finishPlainRun } from '../support/plain-finish.js'
import type { BaselineMatch } from '../../src/suite/baseline.js'
import type { FinishedRun, FinishRunInput } from '../../src/report/finish-run.js'
import type { GatheredRecord } from '../../src/suite/gather.js'
import { type ResolvedReporterOptions, resolveReporterOptions } from '../../src/suite/options.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'
import { finishTestRun } from '../../src/report/test-run.js'
import { updateRequestOf } from '../../src/suite/update-request.js'

let root: string
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'timegrounded-finish-'))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** Every probe of the smoke split run against a reference store, each record as its test leaves it. */
async function runSuite(store: 'oracle' | 'latest', baseline: BaselineMatch = { status: 'missing' }, update = false): Promise<GatheredRecord[]> {
  return runSmokeSuite(await smokePlan(), store, baseline, update)
}

/** finishRun with the plain run's settings, overridden where a test says. */
function finish(records: GatheredRecord[], options: ResolvedReporterOptions, overrides: Partial<FinishRunInput> = {}): FinishedRun {
  return finishPlainRun(records, root, options, overrides)
}

describe('finishRun', () => {
  test('a correct store: report.json and predictions.jsonl written, every probe passed, the gate passes', async () => {
    const outputDir = join(root, 'oracle')
    const finished = finish(await runSuite('oracle'), resolveReporterOptions({ outputDir, baseline: false }, 'test'))
    expect(finished.failed).toBe(false)
    expect(finished.text).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (skipped), 0 errors')
    expect(finished.text).toContain('timegrounded [tivarq] gate passed (no thresholds set; no baseline)')
    expect(finished.markdown).toContain('## timegrounded')
    const report = JSON.parse(readFileSync(join(outputDir, 'report.json'), 'utf8'))
    expect(report.metrics.transition_success_rate).toEqual({ score: 1, cases: 13 })
    expect(readFileSync(join(outputDir, 'predictions.jsonl'), 'utf8').trim().split('\n')).toHaveLength(60)
    expect(finished.htmlReports).toEqual([join(outputDir, 'report.html')])
    expect(finished.text).toContain(`timegrounded [tivarq] HTML report in oracle/report.html`)
  })

  test('the isolation check’s outcome, carried beside the records, fails the gate on state carried over, and is said when off or when it spent', async () => {
    const records = await runSuite('oracle')
    const failure = {
      episodeId: 'replacement-00',
      repetition: 0,
      probeId: 'replacement-00-q4',
      slot: 'interface_language',
      scope: 'personal',
      asOf: '2025-01-09T00:00:00Z',
      answer: { state: 'known', value: 'English' },
    }
    const carrying = (isolation: GatheredRecord['isolation']) => records.map((record) => ({ ...record, isolation }))
    const options = (name: string) => resolveReporterOptions({ outputDir: join(root, name), baseline: false, html: false }, 'test')

    const leaked = finish(carrying({ checked: true, failures: [failure], asked: 12, unanswered: 0, usage: {} }), options('isolation-leaked'))
    expect(leaked.failed).toBe(true)
    expect(leaked.text).toContain(
      'timegrounded [tivarq] ISOLATION: state carried over from episode replacement-00: slot interface_language/personal — reset after the episode, the store still answered replacement-00-q4 (as of 2025-01-09T00:00:00Z) with "English", learnt in it',
    )
    expect(leaked.text).toMatch(/gate failed \([^)]*\): [^\n]*state carried over between episodes in 1 case \(the store is not isolated\)/)
    expect(leaked.text).not.toContain('isolation check')

    const off = finish(carrying({ checked: false }), options('isolation-off'))
    expect(off.failed).toBe(false)
    expect(off.text).toContain('timegrounded [tivarq] isolation check off (`isolationCheck: false`): a store that keeps state across episodes is not caught')

    const spent = finish(
      carrying({ checked: true, failures: [], asked: 12, unanswered: 1, usage: { promptTokens: 110, completionTokens: 22 }, costUsd: 0.011 }),
      options('isolation-spent'),
    )
    expect(spent.failed).toBe(false)
    expect(spent.text).toContain(
      'timegrounded [tivarq] isolation check: 12 episodes asked again after the measured ones (a reset and a query each, 1 unanswered); the store reported 110 prompt + 22 completion tokens, cost 0.011 USD for them, in no row',
    )
  })

  test("the model calls each file's suite made are summed into report.json and shown on the page; a run with none writes no model_calls", async () => {
    const records = await runSuite('oracle')
    // Two test files ran the suite: the first made 5 replayed and 1 recorded call, the second 3 replayed and 2 live.
    const counted = records.map((record, index) =>
      index % 2 === 0
        ? { ...record, file: 'a.test.ts', modelCalls: { replayed: 5, recorded: 1, live: 0 } }
        : { ...record, file: 'b.test.ts', modelCalls: { replayed: 3, recorded: 0, live: 2 } },
    )
    const outputDir = join(root, 'model-calls')
    finish(counted, resolveReporterOptions({ outputDir, baseline: false }, 'test'))
    expect(JSON.parse(readFileSync(join(outputDir, 'report.json'), 'utf8')).model_calls).toEqual({ replayed: 8, recorded: 1, live: 2 })
    expect(readFileSync(join(outputDir, 'report.html'), 'utf8')).toContain('8 replayed from a cassette, 1 recorded into one, 2 live with none')

    const plainDir = join(root, 'no-model-calls')
    finish(records, resolveReporterOptions({ outputDir: plainDir, baseline: false, html: false }, 'test'))
    expect(JSON.parse(readFileSync(join(plainDir, 'report.json'), 'utf8'))).not.toHaveProperty('model_calls')
  })

  test('the files an earlier run with repeats left are removed, so the folder holds one run; other files stay', async () => {
    const outputDir = join(root, 'earlier-repeats')
    mkdirSync(outputDir)
    for (const name of ['report-1.json', 'report-2.json', 'predictions-1.jsonl', 'predictions-2.jsonl', 'aggregate.json', 'notes.txt'])
      writeFileSync(join(outputDir, name), '{}\n')
    finish(await runSuite('oracle'), resolveReporterOptions({ outputDir, baseline: false, html: false }, 'test'))
    expect(readdirSync(outputDir).sort()).toEqual(['notes.txt', 'predictions.jsonl', 'report.json'])
  })

  test('a store that leaks stale values fails a leakage threshold, and -u records a baseline that makes its wrong answers known failures', async () => {
    const options = resolveReporterOptions(
      { outputDir: join(root, 'latest-out'), baseline: 'latest.baseline.json', thresholds: { staleValueLeakageRate: { max: 0.05 } } },
      'test',
    )
    const gated = finish(await runSuite('latest'), options)
    expect(gated.failed).toBe(true)
    expect(gated.text).toMatch(/gate violation: staleValueLeakageRate is \d+ of \d+ \([\d.]+\), above the threshold \(max 0\.05\)/)

    const recorded = finish(await runSuite('latest', { status: 'missing' }, true), options, { update: { kind: 'update' } })
    expect(recorded.text).toContain('baseline written to latest.baseline.json: 60 probes')
    const file = JSON.parse(readFileSync(join(root, 'latest.baseline.json'), 'utf8'))
    expect(file.format).toBe('timegrounded.baseline.v2')
    // -u never lifts a threshold: the run still fails on it.
    expect(recorded.failed).toBe(true)
  })

  test('a shard reports what it carries and writes nothing; watch mode compares with the previous run', async () => {
    const outputDir = join(root, 'shard')
    const records = await runSuite('oracle')
    const options = resolveReporterOptions({ outputDir, baseline: false }, 'test')
    const shard = finish(records.slice(0, 30), options, { shard: { index: 1, count: 2 } })
    expect(shard.failed).toBe(false)
    expect(shard.text).toContain('timegrounded [tivarq] shard 1/2: 30 of 60 probe results carried in this shard')
    expect(existsSync(outputDir)).toBe(false)
    expect(shard.htmlReports).toEqual([])

    const first = finish(records, options, { previous: new Map() })
    const again = finish(records, options, { previous: first.metrics })
    expect(again.text).toContain('timegrounded [tivarq] no metric changed since the previous run')
  })
})

describe('finishTestRun (what both reporters call)', () => {
  test('a shard writes its file; a job summary that cannot be written is a warning naming the file, and the verdict stands', async () => {
    const records = await runSuite('latest')
    const options = resolveReporterOptions(
      { outputDir: join(root, 'test-run'), baseline: false, html: false, thresholds: { staleValueLeakageRate: { max: 0.05 } } },
      'test',
    )
    const end = {
      runner: 'vitest' as const,
      records,
      root,
      options,
      given: {},
      update: { kind: 'none' as const },
      watching: false,
      session: new Map(),
      shardEvidence: () => ({ run: { package: 'timegrounded', commit: null, runId: null }, loadErrors: [] }),
      color: false,
      commands: VITEST_COMMANDS,
      cwd: root,
    }
    const shard = finishTestRun({ ...end, shard: { index: 1, count: 2 } })
    expect(shard.shardFile).toBe(join(root, 'test-run', 'shards', 'shard-1-of-2.json'))
    expect(JSON.parse(readFileSync(shard.shardFile!, 'utf8'))).toMatchObject({ runner: 'vitest', shard: { index: 1, count: 2 }, update: false })
    expect(shard.failed).toBe(false)
    // A directory where the summary file should be: it cannot be appended to.
    const summaryFile = join(root, 'summary-is-a-directory')
    mkdirSync(summaryFile, { recursive: true })
    const whole = finishTestRun({ ...end, shard: null, summaryFile })
    expect(whole.summaryWarning).toMatch(
      new RegExp(`^timegrounded: warning: could not write the job summary to ${summaryFile} \\(.*\\); the run's result stands$`),
    )
    expect(whole.failed).toBe(true)
    expect(whole.text).toContain('timegrounded [tivarq] gate failed')
    expect(whole.shardFile).toBeNull()
  })

  test("watch mode: the session map carries each suite's metrics to the next run", async () => {
    const records = await runSuite('oracle')
    const options = resolveReporterOptions({ outputDir: join(root, 'test-run-watch'), baseline: false, html: false }, 'test')
    const session = new Map()
    const end = {
      runner: 'jest' as const,
      records,
      root,
      options,
      given: {},
      update: { kind: 'none' as const },
      watching: true,
      session,
      shard: null,
      shardEvidence: () => {
        throw new Error('asked of a shard only')
      },
      color: false,
      commands: VITEST_COMMANDS,
      summaryFile: '',
    }
    finishTestRun(end)
    expect([...session.keys()]).toEqual(['tivarq'])
    expect(finishTestRun(end).summaryWarning).toBeNull()
  })
})

describe('updateRequestOf (the update rule of both reporters)', () => {
  test('-u records a single run and the first of a watch session; a re-run under -u does not; the record key does', () => {
    const mode = { updating: true, watching: true, firstRun: false, startedWithUpdate: true, keyPressed: false }
    expect(updateRequestOf({ ...mode, watching: false })).toEqual({ kind: 'update' })
    expect(updateRequestOf({ ...mode, firstRun: true })).toEqual({ kind: 'update' })
    expect(updateRequestOf(mode)).toEqual({ kind: 'ignored-in-watch' })
    expect(updateRequestOf({ ...mode, keyPressed: true })).toEqual({ kind: 'update' })
    expect(updateRequestOf({ ...mode, startedWithUpdate: false })).toEqual({ kind: 'update' })
    expect(updateRequestOf({ ...mode, updating: false })).toEqual({ kind: 'none' })
    expect(updateRequestOf({ ...mode, updating: false, keyPressed: true })).toEqual({ kind: 'update' })
  })
})
