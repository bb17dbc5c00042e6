// timegrounded/jest end to end in the usual Jest project: CommonJS mode,
// ts-jest's default preset, the package installed from its tarball. Real Jest
// 30 runs the fixture store (test/fixtures/jest-projects/cjs), correct and with
// bugs, and the checks read its exit code, its output and the files it leaves.
// Each scenario gives the run its own baseline file and output folder.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  copyStore,
  explain,
  REPO as REPO_ROOT,
  installedProject,
  JEST_30_CJS,
  JEST_FIXTURES,
  JEST_TEST_TIMEOUT,
  STALE_WRONG,
  withoutTimes,
} from './run-jest.js'

// The CommonJS fixture's packages include Babel's, for the babel-jest scenario.
const project = installedProject('cjs', JEST_30_CJS)

/** Where a scenario's run keeps its baseline and result files (relative to the project, as a config names them). */
function scenario(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return { TG_BASELINE: `scenarios/${name}.baseline.json`, TG_OUTPUT: `scenarios/${name}-out`, ...extra }
}

function readText(path: string): string {
  return readFileSync(join(project.dir(), path), 'utf8')
}

/** The probes a baseline file records as wrong, sorted. */
function wrongIn(path: string): string[] {
  const probes = JSON.parse(readText(path)).suites.tivarq.probes as Record<string, string>
  return Object.keys(probes)
    .filter((probe) => probes[probe] === 'wrong')
    .sort()
}

describe('timegrounded/jest under real Jest 30, CommonJS mode', { timeout: JEST_TEST_TIMEOUT }, () => {
  test('a correct store passes: every probe runs, the report is written and the gate passes', async () => {
    const run = await project.jest(['whole'], scenario('clean'))
    expect(run.code, explain(run)).toBe(0)
    expect(run.stderr).toContain('Tests:       60 passed, 60 total')
    expect(run.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (passed as tests), 0 errors')
    expect(run.stderr).toContain('timegrounded [tivarq] gate passed (thresholds; no baseline)')
    // Nothing of ours on stdout: it belongs to Jest (`--json`).
    expect(run.stdout).toBe('')
    expect(JSON.parse(readText('scenarios/clean-out/report.json')).probe_counts).toEqual({ total: 60, answered: 60, unsupported: 0, error: 0 })
  })

  test('under babel-jest (no ts-jest): a correct store passes; the arrival-order bug fails the gate', async () => {
    const clean = await project.jest(['--config', 'jest.babel.config.js', 'whole'], scenario('babel'))
    expect(clean.code, explain(clean)).toBe(0)
    expect(clean.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed')
    expect(clean.stderr).toContain('timegrounded [tivarq] gate passed (thresholds; no baseline)')
    const arrival = await project.jest(['--config', 'jest.babel.config.js', 'whole'], scenario('babel-arrival', { TG_BUG: 'arrival' }))
    expect(arrival.code, explain(arrival)).toBe(1)
    expect(arrival.stderr).toMatch(/gate violation: staleValueLeakageRate is \d+ of 15/)
  })

  test('a store that applies changes in arrival order fails the run on stale values; with --json, stdout stays one JSON document', async () => {
    const run = await project.jest(['whole', '--json'], scenario('arrival', { TG_BUG: 'arrival' }))
    expect(run.code, explain(run)).toBe(1)
    const results = JSON.parse(run.stdout)
    expect(results.success).toBe(false)
    expect(results.numFailedTests).toBe(2)
    expect(results.numPassedTests).toBe(58)
    expect(run.stderr).toContain('stale value leaked')
    expect(run.stderr).toMatch(/timegrounded \[tivarq\] gate violation: staleValueLeakageRate is 1 of 15 \(0\.066667\), above the threshold \(max 0\.05\)/)
    expect(run.stderr).toContain('timegrounded [tivarq] gate failed')
  })

  test('-u records the wrong answers as known failures; then every test passes yet the threshold fails the run, under --forceExit too', async () => {
    const env = scenario('stale', { TG_BUG: 'stale' })
    const record = await project.jest(['whole', '-u'], env)
    // -u never lifts a threshold: the baseline is written and the run still fails on the leakage bound.
    expect(record.code, explain(record)).toBe(1)
    expect(record.stderr).toContain('Tests:       60 passed, 60 total')
    expect(record.stderr).toContain('timegrounded [tivarq] baseline written to scenarios/stale.baseline.json: 60 probes, 12 recorded as known failures')
    expect(wrongIn('scenarios/stale.baseline.json')).toEqual(STALE_WRONG)

    const gated = await project.jest(['whole', '--forceExit'], env)
    expect(gated.code, explain(gated)).toBe(1)
    expect(gated.stderr).toContain('Tests:       60 passed, 60 total')
    expect(gated.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 0 failed, 12 known failures')
    expect(gated.stderr).toMatch(/timegrounded \[tivarq\] known failures \(failing in the baseline too, not failing CI\): (\S+, ){11}\S+\n/)
    expect(gated.stderr).toMatch(/timegrounded \[tivarq\] gate violation: staleValueLeakageRate is 8 of 15/)
    expect(gated.stderr).toContain('timegrounded [tivarq] gate failed (thresholds; baseline scenarios/stale.baseline.json): 1 violation')
  })

  test('a store that declares neither clock nor history: Jest passes the probes that need them, and the report counts them as unsupported', async () => {
    // A factory's capabilities are known only once a store is made, after Jest has collected its tests, so there is no test.skip for them.
    const run = await project.jest(['whole'], scenario('basic-only', { TG_BUG: 'basic-only' }))
    expect(run.code, explain(run)).toBe(0)
    expect(run.stderr).toContain('Tests:       60 passed, 60 total')
    expect(run.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 54 passed, 0 failed, 0 known failures, 6 unsupported (passed as tests), 0 errors')
    expect(JSON.parse(readText('scenarios/basic-only-out/report.json')).probe_counts).toEqual({ total: 60, answered: 54, unsupported: 6, error: 0 })
  })

  test('`--reporters=default` (the timegrounded reporter replaced): a store worse than the baseline fails its probes strictly, and the fix is said once', async () => {
    // The correct store's baseline, at the default path the tests read when no reporter tells them another.
    const recorded = await project.jest(['whole', '-u'], { TG_OUTPUT: 'scenarios/no-reporter-out' })
    expect(recorded.stderr).toContain('timegrounded [tivarq] baseline written to timegrounded.baseline.json: 60 probes, 0 recorded as known failures')
    try {
      // The careless store drops its `clock` and `history` capabilities and ignores expiry; no gate will judge the run.
      const run = await project.jest(['whole', '--reporters=default'], { TG_BUG: 'careless' })
      expect(run.code, explain(run)).toBe(1)
      expect(run.stderr).toContain('Tests:       6 failed, 54 passed, 60 total')
      expect(run.stderr).toContain(
        'unsupported: the probe needs the `clock` capability, which the store does not declare (Strict: no timegrounded gate runs in this run, so an unsupported probe fails instead of being skipped;',
      )
      const notice = 'timegrounded [tivarq] the gate does not run: no timegrounded reporter in this Jest run'
      expect(run.stderr.split(notice).length - 1).toBe(1)
      expect(run.stderr).toContain(
        "Fix: keep the timegrounded reporter beside the others, in jest.config.js `reporters: ['default', 'timegrounded/jest/reporter']` (or `module.exports = withTimegrounded({ ... })` from timegrounded/jest/config), and on the command line `--reporters=default --reporters=timegrounded/jest/reporter`",
      )
      expect(run.stderr).not.toContain('gate passed')
      // The fix as the note words it: the reporter beside the default one gates the run again (the unsupported probes then pass as tests, counted by the gate).
      const fixed = await project.jest(['whole', '--reporters=default', '--reporters=timegrounded/jest/reporter'], {
        TG_BUG: 'careless',
        TG_OUTPUT: 'scenarios/no-reporter-out',
      })
      expect(fixed.stderr).not.toContain('the gate does not run')
      expect(fixed.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 54 passed, 0 failed, 0 known failures, 6 unsupported (passed as tests)')
    } finally {
      rmSync(join(project.dir(), 'timegrounded.baseline.json'), { force: true })
    }
  })

  test('-t replacement-00-q3 runs that one probe, and the store sees only its episode', async () => {
    const trace = join(project.dir(), 'scenarios', 'filter-trace.txt')
    mkdirSync(join(project.dir(), 'scenarios'), { recursive: true })
    writeFileSync(trace, '')
    const run = await project.jest(['whole', '-t', 'replacement-00-q3'], scenario('filter', { TG_TRACE: trace }))
    expect(run.code, explain(run)).toBe(0)
    expect(run.stderr).toContain('Tests:       59 skipped, 1 passed, 60 total')
    expect(run.stderr).toContain('timegrounded [tivarq] 1 of 60 probes ran: 1 passed')
    expect(run.stderr).toContain('timegrounded [tivarq] partial run (1 of 60 probes): metrics are not gated')
    // The run reached its end on the probe it was given: chosen, not interrupted.
    expect(run.stderr).toContain('partial run: 1 of 60 probes selected (`-t`, files left out); metrics not gated')
    expect(run.stderr).not.toContain('interrupted')
    const calls = readFileSync(trace, 'utf8').trim().split('\n')
    // The probe, then the isolation check asking the reset store the same question again (docs/gating.md).
    expect(calls.filter((call) => call.startsWith('query '))).toEqual([
      'query 2025-01-05T00:00:00Z notification_channel',
      'query 2025-01-05T00:00:00Z notification_channel',
    ])
    const ingests = calls.filter((call) => call.startsWith('ingest '))
    expect(ingests.length).toBeGreaterThan(0)
    expect(ingests.filter((call) => !/^ingest replacement-00-e\d+$/.test(call))).toEqual([])
    expect(ingests.length + 2).toBe(calls.length)
  })

  test('--shard=1/2 and 2/2, then `timegrounded merge`: the same report and baseline as one unsharded run; an incomplete set exits 2', async () => {
    // The suite is spread over two test files (`partition`), which Jest places in different shards.
    // Recording a baseline of the unsharded run also writes its report.json and predictions.jsonl (the same as without -u: they hold no decisions).
    const unsharded = await project.jest(['part', '-u'], scenario('unsharded', { TG_BUG: 'stale' }))
    expect(unsharded.code, explain(unsharded)).toBe(1) // the leakage threshold, as in one file
    expect(unsharded.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 0 failed, 12 known failures')

    // The shards run as a CI job would: plain `--shard=i/n` with the default output folder (.timegrounded/shards/).
    const shardEnv = { TG_BASELINE: 'scenarios/sharded.baseline.json', TG_BUG: 'stale' }
    const carried: number[] = []
    let failedTests = 0
    for (const [index, flag] of [
      [1, '--shard=1/2'],
      [2, '--shard=2/2'],
    ] as const) {
      const shard = await project.jest(['part', flag], shardEnv)
      // A shard fails on its own failing tests only: it never gates and never writes the baseline.
      const failed = Number(/Tests: +(\d+) failed/.exec(shard.stderr)?.[1] ?? 0)
      expect(shard.code, explain(shard)).toBe(failed > 0 ? 1 : 0)
      expect(shard.stderr).not.toMatch(/gate (passed|failed|violation)/)
      failedTests += failed
      const file = JSON.parse(readText(`.timegrounded/shards/shard-${index}-of-2.json`))
      expect(file.shard).toEqual({ index, count: 2 })
      expect(file.update).toBe(false)
      carried.push(file.records.length)
    }
    expect(failedTests).toBe(STALE_WRONG.length)
    expect(existsSync(join(project.dir(), 'scenarios/sharded.baseline.json'))).toBe(false)
    // Both shards hold records (the parts did land apart), 60 in all.
    expect(carried.every((count) => count > 0)).toBe(true)
    expect(carried[0]! + carried[1]!).toBe(60)

    const incomplete = await project.shell('node_modules/.bin/timegrounded merge .timegrounded/shards/shard-1-of-2.json')
    expect(incomplete.code, explain(incomplete)).toBe(2)
    expect(incomplete.stderr).toContain('incomplete shard set for --shard=?/2: missing 2 (given 1)')

    // As one run: the same report.json and predictions.jsonl, measured times aside, and the same gate (the leakage threshold fails it).
    const merged = await project.shell('node_modules/.bin/timegrounded merge .timegrounded/shards/*.json')
    expect(merged.code, explain(merged)).toBe(1)
    expect(merged.stdout).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 12 failed, 0 known failures')
    expect(merged.stdout).toMatch(/timegrounded \[tivarq\] gate violation: staleValueLeakageRate is 8 of 15/)
    for (const name of ['report.json', 'predictions.jsonl']) {
      const one = readText(`scenarios/unsharded-out/${name}`)
      const fromShards = readText(`.timegrounded/${name}`)
      expect(withoutTimes(fromShards), name).toBe(withoutTimes(one))
      // The mask hides numbers only: both files hold the measured fields in the same places.
      expect(fromShards.match(/"latency_ms"/g)?.length, name).toBe(one.match(/"latency_ms"/g)?.length)
    }
    expect(existsSync(join(project.dir(), 'scenarios/sharded.baseline.json'))).toBe(false)

    // -u (the shards did not need it): the baseline the unsharded -u run wrote, byte for byte.
    const recorded = await project.shell('node_modules/.bin/timegrounded merge -u .timegrounded/shards/*.json')
    expect(recorded.code, explain(recorded)).toBe(1)
    expect(recorded.stdout).toContain('timegrounded [tivarq] baseline written to scenarios/sharded.baseline.json: 60 probes, 12 recorded as known failures')
    expect(readText('scenarios/sharded.baseline.json')).toBe(readText('scenarios/unsharded.baseline.json'))
    expect(wrongIn('scenarios/sharded.baseline.json')).toEqual(STALE_WRONG)
  })

  test('--shard: a shard whose test file failed to load records it in its file, and `timegrounded merge` fails naming it, never gated', async () => {
    const env = scenario('load-error')
    for (const flag of ['--shard=1/2', '--shard=2/2']) await project.jest(['whole', 'load-error', flag], env)
    const files = [1, 2].map((index) => JSON.parse(readText(`scenarios/load-error-out/shards/shard-${index}-of-2.json`)))
    expect(files.flatMap((file) => file.loadErrors)).toEqual([
      expect.stringMatching(/load-error\.test\.ts: .*the store module failed to load \(test fixture\)/),
    ])
    expect(files.every((file) => typeof file.run.package === 'string')).toBe(true)
    const merged = await project.shell('node_modules/.bin/timegrounded merge scenarios/load-error-out/shards/*.json')
    expect(merged.code, explain(merged)).toBe(1)
    expect(merged.stdout).toMatch(/timegrounded merge: shard [12]\/2 \(.*\) failed to load: .*load-error\.test\.ts/)
    expect(merged.stdout).not.toContain('gate passed')
  })

  test('types: tsc accepts the fixture tests and rejects misuses under node10 (typesVersions), node16 (CommonJS) and nodenext (ES module)', async () => {
    const tsc = 'node_modules/typescript/bin/tsc'
    // test/typed.ts holds misuses marked @ts-expect-error: types that resolved to `any` would leave those unused, an error.
    // The ESM fixture's sources in a folder whose package.json says "type": "module", with this project's node_modules.
    const esm = join(project.dir(), 'esm-types')
    cpSync(join(JEST_FIXTURES, 'esm'), esm, { recursive: true })
    copyStore(join(esm, 'src/store.ts'))
    // Three independent checks (nothing written: noEmit), so at once rather than one after another.
    const [node10, node16, nodenext] = await Promise.all([
      project.node([tsc, '-p', 'tsconfig.json']),
      project.node([tsc, '-p', 'tsconfig.node16.json']),
      project.node([tsc, '-p', 'esm-types/tsconfig.json']),
    ])
    expect(node10.code, `moduleResolution node10: ${explain(node10)}`).toBe(0)
    expect(node16.code, `module node16 (CommonJS): ${explain(node16)}`).toBe(0)
    expect(nodenext.code, `module nodenext (ES module): ${explain(nodenext)}`).toBe(0)
  })
})

describe('issue 25: the time-grounded verdict under real Jest, on a peer-shaped file', { timeout: JEST_TEST_TIMEOUT }, () => {
  const dataset = join(REPO_ROOT, 'test/time-grounded/fixtures/peer-mixed-gold.json')

  test('a control at 100% against a ceiling that answered none is "cannot tell", worded as the CLI and Vitest word it; without the ceiling, honoured', async () => {
    const run = await project.jest(['peer-probe'], { TG_DATASET: dataset, TG_CEILING: '1', TG_OUTPUT: 'scenarios/peer-out' })
    expect(run.stderr).toContain('control (timestamps-and-text)  100.0% (4/4, 2 unjudged left out)')
    expect(run.stderr).toContain('ceiling (reference reader)     0.0% (0/4, 2 unjudged left out)')
    expect(run.stderr).toContain(
      '  Cannot tell: no drop, but the reference reader answered none of these questions (0/4; it only knows the bundled corpora), so there is no ceiling to measure the control against.',
    )
    expect(run.stderr).toContain('pf-prospective-03: Has my bike come back from the repair shop yet? (not judged: no machine-checkable gold)')
    const alone = await project.jest(['peer-probe'], { TG_DATASET: dataset, TG_OUTPUT: 'scenarios/peer-alone-out' })
    expect(alone.code, explain(alone)).toBe(0)
    expect(alone.stderr).toContain(
      '  No drop beyond chance, and the control’s 100.0% matches a perfect score (no ceiling ran): the agent honours the timestamps it is given (on these questions).',
    )
  })
})
