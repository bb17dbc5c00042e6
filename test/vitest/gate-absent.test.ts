// Issue 19 §1, as its user met it: real Vitest on the `basic` fixture project with no timegrounded
// reporter in the run (an inline `test.projects` entry without `extends: true`, a config without the
// plugin, an editor running the tests through Vitest's node API with a reporter of its own). The store
// is worse than the one the baseline recorded: it drops its `clock` and `history` capabilities and
// ignores expiry. No gate will judge such a run, so its probes are judged strictly and the run fails.
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios, FIXTURES, REPO, runVitest, type VitestRun } from './run-vitest.js'

const { scratch, env, run } = basicScenarios('vitest-gate-absent')
const PROJECT = join(FIXTURES, 'basic')
const NOTICE = 'timegrounded [tivarq] the gate does not run: no timegrounded reporter in this Vitest run'
const FIX =
  "Fix: add `plugins: [timegrounded()]` to the config that runs this file; in `test.projects`, an inline project inherits the root config's plugins only with `extends: true`: `projects: [{ extends: true, test: { name: 'memory', include: [...] } }]`"
// The smoke probes that need the `clock` (4) or `history` (2) capability, which the careless store no longer declares.
const NEEDS_CAPABILITY = [
  'expiration-00-q3',
  'expiration-00-q4',
  'future_effective-00-q3',
  'future_effective-00-q4',
  'retro_correction-00-q4',
  'retro_correction-00-q5',
]

function occurrences(text: string, needle: string): number {
  return text.split(needle).length - 1
}

/**
 * The correct store's baseline, recorded with the plugin where a run without a reporter used to look for it
 * (the working directory), and a `vitest run` of `config` there with the careless store.
 */
async function carelessRun(name: string, config: string): Promise<VitestRun> {
  const cwd = join(scratch(), name)
  const variables = env(name, { TG_BASELINE: join(cwd, 'timegrounded.baseline.json') })
  const recorded = await runVitest(['run', '--root', PROJECT, '-u'], { cwd: PROJECT, env: variables })
  expect(recorded.output).toContain(`baseline written to ${variables.TG_BASELINE}: 60 probes, 0 recorded as known failures`)
  return runVitest(['run', '--root', PROJECT, '--config', join(PROJECT, config)], { cwd, env: { ...variables, TG_BUG: 'careless' } })
}

function expectStrictFailure(result: VitestRun): void {
  expect(result.output).toContain('Tests  6 failed | 54 passed (60)')
  for (const probe of NEEDS_CAPABILITY) expect(result.output).toMatch(new RegExp(`ProbeFailure: ${probe} .*: unsupported: the probe needs the`))
  expect(result.output).toContain(
    'which the store does not declare (Strict: no timegrounded gate runs in this run, so an unsupported probe fails instead of being skipped;',
  )
  expect(occurrences(result.output, NOTICE)).toBe(1)
  expect(result.output).toContain(FIX)
  expect(result.output).not.toContain('gate passed')
  expect(result.code).toBe(1)
}

describe('no timegrounded reporter in the run: the suite is strict and says so once', () => {
  test('the plugin at the root and an inline `test.projects` entry without `extends: true`: exit 1, the fix named once', async () => {
    expectStrictFailure(await carelessRun('projects', 'vitest.projects.config.ts'))
  })

  test('a config without the plugin: exit 1, the fix named once', async () => {
    expectStrictFailure(await carelessRun('bare', 'vitest.bare.config.ts'))
  })

  test("Vitest's node API with a reporter of its own (an editor's): strict per-test verdicts, the note once, exit code 1", async () => {
    const cwd = join(scratch(), 'api')
    const variables = env('api', { TG_BASELINE: join(cwd, 'timegrounded.baseline.json') })
    const recorded = await runVitest(['run', '--root', PROJECT, '-u'], { cwd: PROJECT, env: variables })
    expect(recorded.code).toBe(0)
    const seen = await nodeApiRun(join(PROJECT, 'vitest.projects.config.ts'), { ...variables, TG_BUG: 'careless' })
    expect(seen.failed.sort()).toEqual(NEEDS_CAPABILITY)
    expect(seen.passed).toBe(54)
    expect(seen.skipped).toBe(0)
    expect(seen.notices).toBe(1)
    expect(seen.exitCode).toBe(1)
  })

  test('with the plugin the same store is judged by the gate as before: its unsupported probes are skipped, no strict note', async () => {
    const result = await run([], env('gated', { TG_BUG: 'careless' }))
    expect(result.output).toContain('Tests  54 passed | 6 skipped (60)')
    expect(result.output).not.toContain('the gate does not run')
    expect(result.output).toContain('timegrounded [tivarq] 60 of 60 probes ran: 54 passed, 0 failed, 0 known failures, 6 unsupported (skipped)')
  })
})

/** `node api-run.mjs <config>` in the fixture: what the editor's reporter saw. */
function nodeApiRun(
  config: string,
  extra: Record<string, string>,
): Promise<{ failed: string[]; passed: number; skipped: number; notices: number; exitCode: number }> {
  return new Promise((resolve, reject) => {
    const environment: Record<string, string | undefined> = { ...process.env, ...extra, FORCE_COLOR: '0', NO_COLOR: '1' }
    for (const key of Object.keys(environment)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete environment[key]
    const child = spawn(process.execPath, [join(PROJECT, 'api-run.mjs'), config], { cwd: REPO, env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`api-run.mjs did not finish within 60 s:\n${output}`))
    }, 60_000)
    child.on('close', () => {
      clearTimeout(timer)
      const last = output.trim().split('\n').at(-1) ?? ''
      try {
        resolve(JSON.parse(last))
      } catch {
        reject(new Error(`api-run.mjs printed no result line:\n${output}`))
      }
    })
  })
}
