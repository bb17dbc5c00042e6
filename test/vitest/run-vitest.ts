// Runs the real Vitest CLI as a subprocess on a fixture project (e2e helper, not a test file).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

export const REPO = fileURLToPath(new URL('../../', import.meta.url))
export const VITEST_BIN = join(REPO, 'node_modules/vitest/vitest.mjs')
export const FIXTURES = join(REPO, 'test/fixtures/vitest-projects')

/** The fixture projects import `timegrounded/vitest`, which resolves to dist/: `npm test` builds it first. */
export function assertBuilt(): void {
  if (!existsSync(join(REPO, 'dist/vitest/index.js')))
    throw new Error('dist/vitest/index.js is missing: run `npm run build` before these tests (npm test does)')
}

/** A scratch directory inside the repo (gitignored `tmp/`), so fixture copies still resolve `timegrounded` by self-reference. */
export function scratchDir(prefix: string): string {
  const base = join(REPO, 'tmp')
  mkdirSync(base, { recursive: true })
  return mkdtempSync(join(base, `${prefix}-`))
}

export interface VitestRun {
  code: number | null
  output: string
}

// ANSI colour codes, dropped so assertions read plain text.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** `vitest <args>` in `cwd` with extra environment; bounded by `timeoutMs`. */
export function runVitest(args: string[], options: { cwd: string; env?: Record<string, string>; timeoutMs?: number }): Promise<VitestRun> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, ...options.env, FORCE_COLOR: '0', NO_COLOR: '1' }
    // The outer Vitest marks its own workers; the inner run must not inherit that.
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key]
    if (options.env?.CI === undefined) delete env.CI
    if (options.env?.GITHUB_STEP_SUMMARY === undefined) delete env.GITHUB_STEP_SUMMARY
    const child = spawn(process.execPath, [VITEST_BIN, ...args], { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`vitest ${args.join(' ')} did not finish within ${options.timeoutMs ?? 60_000} ms:\n${output.replace(ANSI, '')}`))
    }, options.timeoutMs ?? 60_000)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output: output.replace(ANSI, '') })
    })
    child.on('error', reject)
  })
}

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '')
}

/**
 * Scenarios on the `basic` fixture project for one test file: a scratch directory made
 * before its tests and removed after; `env(name)` gives a scenario its own baseline file
 * and output directory (and the file's shared Vite cache); `run(args, env)` is `vitest run`.
 */
export function basicScenarios(prefix: string): {
  scratch: () => string
  env: (name: string, extra?: Record<string, string>) => Record<string, string>
  run: (args: string[], env: Record<string, string>) => Promise<VitestRun>
} {
  const project = join(FIXTURES, 'basic')
  let scratch = ''
  beforeAll(() => {
    assertBuilt()
    scratch = scratchDir(prefix)
  })
  afterAll(() => rmSync(scratch, { recursive: true, force: true }))
  return {
    scratch: () => scratch,
    env: (name, extra = {}) => ({
      TG_BASELINE: join(scratch, `${name}.baseline.json`),
      TG_OUTPUT: join(scratch, `${name}-out`),
      TG_CACHE_DIR: join(scratch, 'cache'),
      ...extra,
    }),
    run: (args, env) => runVitest(['run', '--root', project, ...args], { cwd: project, env }),
  }
}
