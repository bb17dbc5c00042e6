/**
 * examples/jest-memory as a user has it: a CommonJS ts-jest project that
 * installs timegrounded from the packed tarball (packed once for the run) (with jest and ts-jest from the
 * local npm cache where possible) and runs the real `npx jest`. Its store
 * passes all 60 smoke probes, its threshold and its committed baseline; the
 * same project with the arrival-order bug put into the store fails the run
 * through the gate, so the first run proves something. Needs `dist/`.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { REPO } from '../vitest/run-vitest.js'
import { preferOnline, staleMetadata } from '../support/npm.js'

const EXAMPLE = join(REPO, 'examples/jest-memory')
const example = JSON.parse(readFileSync(join(EXAMPLE, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> } & Record<string, unknown>

// What the user's shell would not have: npm's settings from `npm test`, the outer Vitest's markers, a CI job summary, a Jest run's context.
const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }
for (const key of Object.keys(env)) {
  if (key.toLowerCase().startsWith('npm_') || key.startsWith('VITEST') || key.startsWith('JEST')) delete env[key]
}
for (const key of ['CI', 'GITHUB_STEP_SUMMARY', 'TIMEGROUNDED_JEST_CONTEXT', 'NODE_OPTIONS', 'NODE_ENV', 'TEST']) delete env[key]

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 })
}

function explain(result: SpawnSyncReturns<string>): string {
  return `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`
}

let work = ''
let project = ''

beforeAll(() => {
  if (!existsSync(join(REPO, 'dist/jest/index.cjs'))) throw new Error('dist/jest/index.cjs is missing: run `npm run build` first (npm test does)')
  work = mkdtempSync(join(tmpdir(), 'timegrounded-jest-memory-'))
  // The run's one tarball of the built repository (test/support/e2e-setup.ts).
  const tarball = inject('tarball')

  // The example's files, without the link to this repository: the tarball takes its place, as in a user's project.
  project = join(work, 'jest-memory')
  cpSync(EXAMPLE, project, { recursive: true, filter: (path) => !/(node_modules|\.timegrounded|package-lock\.json)$/.test(path) })
  const { timegrounded: _linked, jest, 'ts-jest': tsJest, ...others } = example.devDependencies
  writeFileSync(join(project, 'package.json'), JSON.stringify({ ...example, devDependencies: { jest, 'ts-jest': tsJest, ...others } }, null, 2))
  // The install docs/jest.md gives, plus the example's other devDependencies (typescript, @types/node).
  const rest = Object.entries(others).map(([name, version]) => `${name}@${version}`)
  const args = ['install', tarball, `jest@${jest}`, `ts-jest@${tsJest}`, ...rest, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']
  let install = run('npm', args, project)
  if (install.status !== 0 && staleMetadata(install.stderr)) install = run('npm', preferOnline(args), project)
  if (install.status !== 0) throw new Error(`npm install in the example failed: ${explain(install)}`)
}, 300_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

test("the example pins the jest, ts-jest, typescript and @types/node of this repository's own devDependencies (so the install is served from the npm cache)", () => {
  const repo = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }
  const { timegrounded, ...pinned } = example.devDependencies
  expect(timegrounded).toBe('file:../..')
  for (const [name, version] of Object.entries(pinned)) expect(version, name).toBe(repo.devDependencies[name])
})

test('npx jest passes all 60 smoke probes, the threshold and the committed baseline, and writes the report', () => {
  const baseline = readFileSync(join(project, 'timegrounded.baseline.json'), 'utf8')
  const ran = spawnSync('npx', ['jest'], { cwd: project, env, encoding: 'utf8', timeout: 240_000 })
  expect(ran.status, explain(ran)).toBe(0)
  // The reporter writes to stderr, beside Jest's own summary.
  expect(ran.stderr).toMatch(/Tests:\s+60 passed, 60 total/)
  expect(ran.stderr).toContain('timegrounded [tivarq] 60 of 60 probes ran: 60 passed, 0 failed, 0 known failures, 0 unsupported (passed as tests), 0 errors')
  expect(ran.stderr).toContain('timegrounded [tivarq] gate passed (thresholds; baseline timegrounded.baseline.json)')
  expect(ran.stdout).toBe('')
  const report = JSON.parse(readFileSync(join(project, '.timegrounded/report.json'), 'utf8'))
  expect(report.metrics.transition_success_rate).toEqual({ score: 1, cases: 13 })
  expect(report.metrics.stale_value_leakage_rate).toEqual({ score: 0, cases: 15 })
  expect(existsSync(join(project, '.timegrounded/report.html'))).toBe(true)
  // A run without -u leaves the committed baseline as it was.
  expect(readFileSync(join(project, 'timegrounded.baseline.json'), 'utf8')).toBe(baseline)
}, 240_000)

test('the same project with the arrival-order bug in its store fails the run through the gate', () => {
  const storePath = join(project, 'src/store.ts')
  const store = readFileSync(storePath, 'utf8')
  const validTimeOrder = '.sort((a, b) => a.validFrom - b.validFrom || a.heard - b.heard)'
  expect(store).toContain(validTimeOrder)
  // Statements taken in the order they arrived: a late, back-dated message wins over a newer one.
  writeFileSync(storePath, store.replace(validTimeOrder, '.sort((a, b) => a.heard - b.heard)'))
  try {
    const ran = spawnSync('npx', ['jest'], { cwd: project, env, encoding: 'utf8', timeout: 240_000 })
    expect(ran.status, explain(ran)).toBe(1)
    expect(ran.stderr).toContain('delayed_arrival-00-q4')
    expect(ran.stderr).toContain(
      'timegrounded [tivarq] gate violation: staleValueLeakageRate is 1 of 15 (0.066667), above the threshold (max 0.05); families outside the bound: delayed_arrival 1/1.',
    )
    expect(ran.stderr).toMatch(/timegrounded \[tivarq\] gate failed \(thresholds; baseline timegrounded\.baseline\.json\): \d+ violations/)
  } finally {
    writeFileSync(storePath, store)
  }
}, 240_000)
