// timegrounded/jest end to end in Jest's ES module mode (ts-jest's ESM preset,
// NODE_OPTIONS=--experimental-vm-modules), and the same project under real
// Vitest: the two runners share the store, the options and the baseline file
// format, so a baseline recorded by one is accepted by the other, and both
// write the same report.json and predictions.jsonl (measured times aside:
// latencies differ between any two runs).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { explain, installedProject, JEST_30, JEST_TEST_TIMEOUT, pinned, STALE_WRONG, withoutTimes } from './run-jest.js'

const project = installedProject('esm', [...JEST_30, pinned('vitest'), pinned('vite')])

function readText(path: string): string {
  return readFileSync(join(project.dir(), path), 'utf8')
}

/** `vitest run` in the project (its config includes only vitest/*.vitest.ts). */
function vitest(args: string[], env: Record<string, string>) {
  return project.node(['node_modules/vitest/vitest.mjs', 'run', ...args], env)
}

// The stale store (first write wins) with no thresholds: its 12 wrong answers fail tests unless a baseline records them.
const STALE = { TG_BUG: 'stale', TG_THRESHOLDS: '{}' }

describe('timegrounded/jest under real Jest 30 in ES module mode, beside real Vitest', { timeout: JEST_TEST_TIMEOUT }, () => {
  test('a bound that cannot mean what the user wants (`min` on leakage) stops Jest as withTimegrounded loads the config, with the fix', async () => {
    const run = await project.jest([], { TG_THRESHOLDS: JSON.stringify({ staleValueLeakageRate: { min: 0.1 } }), TG_OUTPUT: 'meaningless-out' })
    expect(run.code, explain(run)).not.toBe(0)
    expect(run.stderr).toContain('withTimegrounded(config, options) in jest.config: invalid option:')
    expect(run.stderr).toContain(
      '`thresholds.staleValueLeakageRate` is {"min":0.1}: staleValueLeakageRate is lower-is-better, so `min` would fail a store for being better; bound it with `{ max: 0.05 }`',
    )
    expect(run.stderr).not.toContain('probes ran')
  })

  test('a store that keeps state across episodes fails the run: module-level facts behind a factory, and one object whose reset() does nothing', async () => {
    const stores: Record<string, string>[] = [{ TG_BUG: 'global' }, { TG_BUG: 'no-reset', TG_SINGLE: '1' }]
    for (const variables of stores) {
      const run = await project.jest([], { ...variables, TG_OUTPUT: `isolation-${variables.TG_BUG}-out`, TG_BASELINE: 'isolation.baseline.json' })
      expect(run.code, explain(run)).not.toBe(0)
      expect(run.stderr).toMatch(
        /timegrounded \[tivarq\] ISOLATION: state carried over from episode [a-z_]+-\d\d: slot [a-z_]+\/(personal|work) — reset after the episode, the store still answered/,
      )
      expect(run.stderr).toMatch(/timegrounded \[tivarq\] gate failed \([^)]*\): [^\n]*state carried over between episodes in \d+ cases/)
      expect(run.stderr).not.toContain('gate passed')
    }
  })

  test('isolationCheck: false asks nothing after the episodes: the reset that does nothing passes, and the summary says the check was off', async () => {
    const run = await project.jest([], {
      TG_BUG: 'no-reset',
      TG_SINGLE: '1',
      TG_ISOLATION_CHECK: 'off',
      TG_OUTPUT: 'isolation-off-out',
      TG_BASELINE: 'isolation-off.baseline.json',
    })
    expect(run.code, explain(run)).toBe(0)
    expect(run.stderr).not.toContain('ISOLATION')
    expect(run.stderr).toContain('timegrounded [tivarq] isolation check off (`isolationCheck: false`): a store that keeps state across episodes is not caught')
    expect(run.stderr).toContain('timegrounded [tivarq] gate passed')
  })

  test('a correct store passes: every probe runs and the gate passes', async () => {
    const run = await project.jest([], { TG_BASELINE: 'clean.baseline.json', TG_OUTPUT: 'clean-out' })
    expect(run.code, explain(run)).toBe(0)
    // Jest's ES module mode (the flag the helper sets): Node warns about the VM modules it uses.
    expect(run.stderr).toContain('ExperimentalWarning: VM Modules is an experimental feature')
    expect(run.stderr).toContain('Tests:       60 passed, 60 total')
    expect(run.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (passed as tests), 0 errors')
    expect(run.stderr).toContain('timegrounded [tivarq] gate passed (thresholds; no baseline)')
  })

  test("the reporter appends its report to the CI job summary; a summary file it cannot write is a warning naming it, and the run's exit code stands", async () => {
    const summary = join(project.dir(), 'summary.md')
    writeFileSync(summary, '# an earlier step\n')
    const written = await project.jest([], { TG_BASELINE: 'summary.baseline.json', TG_OUTPUT: 'summary-out', GITHUB_STEP_SUMMARY: summary })
    expect(written.code, explain(written)).toBe(0)
    const text = readFileSync(summary, 'utf8')
    expect(text.startsWith('# an earlier step\n')).toBe(true)
    expect(text).toContain('## timegrounded')
    expect(text).toContain('| Stale-value leakage | 0.0 (15) | lower |')

    const missing = join(project.dir(), 'no-such-folder', 'summary.md')
    const unwritable = await project.jest([], { TG_BASELINE: 'summary.baseline.json', TG_OUTPUT: 'summary-out', GITHUB_STEP_SUMMARY: missing })
    expect(unwritable.code, explain(unwritable)).toBe(0)
    expect(unwritable.stderr).toContain(`timegrounded: warning: could not write the job summary to ${missing} (ENOENT`)
    expect(unwritable.stderr).toContain('timegrounded [tivarq] gate passed')
  })

  test('timeGroundedTests: each control and probe question is a Jest test, the reporter prints the delta and writes time-grounded.json', async () => {
    const only = ['--testMatch', '**/time-grounded/*.tg.ts']
    const honest = await project.jest(only, { TG_OUTPUT: 'tg-honest-out' })
    expect(honest.code, explain(honest)).toBe(0)
    expect(honest.stderr).toContain('Tests:       24 passed, 24 total')
    expect(honest.stderr).toContain('control (timestamps-and-text)  100.0% (12/12)')
    expect(honest.stderr).toContain('probe   (timestamps-only)      100.0% (12/12)')
    expect(honest.stderr).toMatch(/delta\s+\(probe − control\)\s+±0\.0 pts/)
    expect(JSON.parse(readFileSync(join(project.dir(), 'tg-honest-out/time-grounded.json'), 'utf8')).suites[0].probe.correct).toBe(12)

    const stamped = await project.jest(only, { TG_OUTPUT: 'tg-stamped-out', TG_AGENT: 'ingestion-order' })
    expect(stamped.code, explain(stamped)).toBe(1)
    expect(stamped.stderr).toContain('Tests:       7 failed, 17 passed, 24 total')
    expect(stamped.stderr).toContain('probe   (timestamps-only)      41.7% (5/12)')
    expect(stamped.stderr).toMatch(/delta\s+\(probe − control\)\s+-58\.3 pts/)
  })

  test('each runner names its own commands: a Jest user is told `npx jest -u`, a Vitest user `npx vitest run -u`', async () => {
    // The stale store without a baseline: its wrong answers fail, and the verdict names the command that records them.
    const jest = await project.jest([], { ...STALE, TG_BASELINE: 'commands.baseline.json', TG_OUTPUT: 'commands-jest-out' })
    expect(jest.code, explain(jest)).not.toBe(0)
    expect(jest.stderr).toContain('record one with `npx jest -u`')
    expect(jest.stdout + jest.stderr).not.toMatch(/npx vitest|vitest\.config/)
    const onVitest = await vitest([], { ...STALE, TG_BASELINE: 'commands.baseline.json', TG_OUTPUT: 'commands-vitest-out' })
    expect(onVitest.code, explain(onVitest)).not.toBe(0)
    expect(onVitest.stdout + onVitest.stderr).toContain('record one with `npx vitest run -u`')
    expect(onVitest.stdout + onVitest.stderr).not.toMatch(/npx jest|jest\.config\.js/)
  })

  test('`jest -u` and `vitest run -u` write the same baseline, report.json and predictions.jsonl; each runner accepts the other’s baseline', async () => {
    const fromJest = await project.jest(['-u'], { ...STALE, TG_BASELINE: 'jest.baseline.json', TG_OUTPUT: 'jest-out' })
    expect(fromJest.code, explain(fromJest)).toBe(0)
    expect(fromJest.stderr).toContain('timegrounded [tivarq] baseline written to jest.baseline.json: 60 probes, 12 recorded as known failures')
    const fromVitest = await vitest(['-u'], { ...STALE, TG_BASELINE: 'vitest.baseline.json', TG_OUTPUT: 'vitest-out' })
    expect(fromVitest.code, explain(fromVitest)).toBe(0)
    expect(fromVitest.stdout + fromVitest.stderr).toContain(
      'timegrounded [tivarq] baseline written to vitest.baseline.json: 60 probes, 12 recorded as known failures',
    )

    expect(readText('jest.baseline.json')).toBe(readText('vitest.baseline.json'))
    const probes = JSON.parse(readText('jest.baseline.json')).suites.tivarq.probes as Record<string, string>
    expect(
      Object.keys(probes)
        .filter((probe) => probes[probe] === 'wrong')
        .sort(),
    ).toEqual(STALE_WRONG)
    for (const name of ['report.json', 'predictions.jsonl']) {
      const jestText = readText(`jest-out/${name}`)
      const vitestText = readText(`vitest-out/${name}`)
      expect(withoutTimes(jestText), name).toBe(withoutTimes(vitestText))
      // The mask hides numbers only: both files hold the measured fields in the same places.
      expect(jestText.match(/"latency_ms"/g)?.length, name).toBe(vitestText.match(/"latency_ms"/g)?.length)
    }

    // Without an accepted baseline the 12 wrong answers would fail 12 tests; with it they are known failures and the gate passes.
    const vitestOnJest = await vitest([], { ...STALE, TG_BASELINE: 'jest.baseline.json', TG_OUTPUT: 'vitest-on-jest-out' })
    expect(vitestOnJest.code, explain(vitestOnJest)).toBe(0)
    const vitestOutput = vitestOnJest.stdout + vitestOnJest.stderr
    expect(vitestOutput).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 0 failed, 12 known failures')
    expect(vitestOutput).toContain('timegrounded [tivarq] gate passed (no thresholds set; baseline jest.baseline.json)')

    const jestOnVitest = await project.jest([], { ...STALE, TG_BASELINE: 'vitest.baseline.json', TG_OUTPUT: 'jest-on-vitest-out' })
    expect(jestOnVitest.code, explain(jestOnVitest)).toBe(0)
    expect(jestOnVitest.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 48 passed, 0 failed, 12 known failures')
    expect(jestOnVitest.stderr).toContain('timegrounded [tivarq] gate passed (no thresholds set; baseline vitest.baseline.json)')
  })
})
