// Real Jest on a fixture project as a user has it (e2e helper, not a test file):
// the built repo packed once per run (test/support/e2e-setup.ts), installed from
// the tarball into a fresh project with Jest and ts-jest from the registry (the
// local npm cache first) once per run for each fixture and package list, copied
// for each test file (test/support/shared-install.ts), then commands run in it
// as subprocesses. The fixtures' tsconfig sets `isolatedModules`, as many
// projects do: ts-jest then transpiles each file alone instead of type-checking
// it on every run (seconds of CPU a run); the types are checked once, by tsc, in
// the CommonJS file's types test.
import { spawn } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, inject } from 'vitest'
import { preferOnline, staleMetadata } from '../support/npm.js'
import { sharedInstall } from '../support/shared-install.js'

export const REPO = fileURLToPath(new URL('../../', import.meta.url))
export const JEST_FIXTURES = join(REPO, 'test/fixtures/jest-projects')

const devDependencies = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies

/** Copy the fixture store the Vitest fixtures use (test/fixtures/vitest-projects/store.ts) to `target`, its types from timegrounded/jest. */
export function copyStore(target: string): void {
  const source = readFileSync(join(REPO, 'test/fixtures/vitest-projects/store.ts'), 'utf8')
  writeFileSync(target, source.replace("from 'timegrounded'", "from 'timegrounded/jest'"))
}

/** `name@version` with the version this repo develops against (the same pins a user would get today). */
export function pinned(name: string): string {
  const version = devDependencies[name]
  if (version === undefined) throw new Error(`${name} is not a devDependency of the repo, so it has no pinned version here`)
  return `${name}@${version}`
}

/** What a Jest project needs besides timegrounded: Jest 30, ts-jest, TypeScript and the types the fixture store uses. */
export const JEST_30 = [pinned('jest'), pinned('ts-jest'), pinned('typescript'), pinned('@types/node'), pinned('@types/seedrandom')]

/**
 * The CommonJS fixture's packages: Jest 30 and its companions, and Babel's TypeScript preset and CommonJS
 * transform for the babel-jest scenario (babel-jest comes with Jest). One list for every test file of the
 * CommonJS fixture, so they share one install.
 */
export const JEST_30_CJS = [...JEST_30, pinned('@babel/core'), pinned('@babel/preset-typescript'), pinned('@babel/plugin-transform-modules-commonjs')]

/** The smoke probes the fixture store answers wrongly with its `stale` bug (first write wins), sorted. */
export const STALE_WRONG = [
  'add_vs_replace-00-q4',
  'delayed_arrival-00-q3',
  'delayed_arrival-00-q4',
  'duplicate_event-00-q3',
  'duplicate_event-00-q4',
  'future_effective-00-q4',
  'replacement-00-q3',
  'retro_correction-00-q3',
  'retro_correction-00-q5',
  'retro_correction-00-q6',
  'reversal-00-q3',
  'scoped_change-00-q4',
]

/** A result file with every measured time (latencies, update lags, their percentiles and means) masked: they differ between any two runs. */
export function withoutTimes(text: string): string {
  return text.replace(/("(?:latency_ms|update_lag_ms|p50|p95|observed_mean|observed_p95)": ?)(-?[0-9.e+-]+)/g, '$1<ms>')
}

/** A test's time limit: each Jest run takes seconds alone, but `npm test` runs many test files at once. */
export const JEST_TEST_TIMEOUT = 300_000

export interface CommandRun {
  code: number | null
  stdout: string
  stderr: string
}

/**
 * The environment of a command in the fresh project: ours without npm's
 * settings (from `npm test`), the outer Vitest's markers, CI switches and any
 * fixture setting (TG_*) or Jest context of the caller; colours off; then `extra`.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(process.env)) {
    if (value === undefined) continue
    if (key.toLowerCase().startsWith('npm_') || key.startsWith('VITEST') || key.startsWith('TG_') || key.startsWith('JEST_')) continue
    if (['TEST', 'NODE_ENV', 'NODE_OPTIONS', 'CI', 'GITHUB_STEP_SUMMARY', 'GITHUB_ACTIONS', 'TIMEGROUNDED_JEST_CONTEXT'].includes(key)) continue
    env[key] = value
  }
  return { ...env, FORCE_COLOR: '0', NO_COLOR: '1', ...extra }
}

/** Run `command args` in `cwd`, in its own process group (ended whole if it outlives `timeoutMs`). */
export function runCommand(command: string, args: string[], options: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // Already gone.
      }
      reject(new Error(`${command} ${args.join(' ')} did not finish within ${options.timeoutMs} ms\n--- stdout\n${stdout}\n--- stderr\n${stderr}`))
    }, options.timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
    child.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
  })
}

/** A run's exit code and output, for an assertion message. */
export function explain(run: CommandRun): string {
  return `exit ${run.code}\n--- stdout\n${run.stdout.slice(-6000)}\n--- stderr\n${run.stderr.slice(-6000)}`
}

export interface InstalledProject {
  /** The project folder (set once the file's beforeAll has run). */
  dir: () => string
  /** `node node_modules/jest/bin/jest.js <args>` in the project; ESM projects get `--experimental-vm-modules`. */
  jest: (args: string[], env?: Record<string, string>, timeoutMs?: number) => Promise<CommandRun>
  /** `node <script> <args>` in the project (a bin under node_modules, tsc, vitest). */
  node: (args: string[], env?: Record<string, string>, timeoutMs?: number) => Promise<CommandRun>
  /** A shell command line in the project (`sh -c`), for a glob a user types. */
  shell: (line: string, env?: Record<string, string>, timeoutMs?: number) => Promise<CommandRun>
}

/**
 * One installed copy of the fixture project `fixture` (a folder of
 * test/fixtures/jest-projects, plus the Vitest fixtures' store as src/store.ts) for the
 * calling test file: copied in its beforeAll from the run's one install of that fixture
 * with `packages` (installed beside the tarball, Jest 30 and its companions unless
 * given), removed in its afterAll.
 */
export function installedProject(fixture: 'cjs' | 'esm', packages: string[] = JEST_30): InstalledProject {
  let work = ''
  let project = ''
  beforeAll(async () => {
    if (!existsSync(join(REPO, 'dist/jest/index.cjs')))
      throw new Error('dist/jest/index.cjs is missing: run `npm run build` before these tests (npm test does)')
    work = mkdtempSync(join(tmpdir(), `tg-e2e-jest-${fixture}-`))
    project = join(work, fixture)
    await sharedInstall(`jest-project ${fixture} ${packages.join(' ')}`, project, (dir) => installFixture(fixture, packages, dir))
  }, 600_000)
  afterAll(() => {
    if (work !== '') rmSync(work, { recursive: true, force: true })
  })
  const node = (args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<CommandRun> =>
    runCommand(process.execPath, args, { cwd: project, env: cleanEnv(env), timeoutMs })
  return {
    dir: () => project,
    node,
    shell: (line, env = {}, timeoutMs = 120_000) => runCommand('sh', ['-c', line], { cwd: project, env: cleanEnv(env), timeoutMs }),
    jest: (args, env = {}, timeoutMs = 120_000) =>
      node(['node_modules/jest/bin/jest.js', ...args], fixture === 'esm' ? { NODE_OPTIONS: '--experimental-vm-modules', ...env } : env, timeoutMs),
  }
}

/** The fixture project `fixture` in `dir`, with the run's tarball and `packages` installed. */
async function installFixture(fixture: 'cjs' | 'esm', packages: string[], dir: string): Promise<void> {
  cpSync(join(JEST_FIXTURES, fixture), dir, { recursive: true })
  copyStore(join(dir, 'src/store.ts'))
  const env = cleanEnv()
  const args = ['install', inject('tarball'), ...packages, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']
  let install = await runCommand('npm', args, { cwd: dir, env, timeoutMs: 240_000 })
  if (install.code !== 0 && staleMetadata(install.stderr)) install = await runCommand('npm', preferOnline(args), { cwd: dir, env, timeoutMs: 240_000 })
  if (install.code !== 0) throw new Error(`npm install of the tarball with ${packages.join(' ')} failed: ${explain(install)}`)
}
