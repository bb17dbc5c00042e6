/**
 * The package as a user gets it: the built project packed once for the run
 * (test/support/e2e-setup.ts), the tarball installed into a fresh temp project (dependencies from the local npm cache
 * where possible), then import `timegrounded` and `timegrounded/vitest` from a
 * plain .mjs script, run the installed bin, and type-check a .ts file against
 * the installed types with the project's own tsc. Needs `dist/` (npm test builds it).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest'
import { preferOnline, staleMetadata } from './support/npm.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> }

// npm run from `npm test` passes its own settings down as npm_* variables; a fresh project should not inherit them.
const cleanEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')))

function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, encoding: 'utf8', env: cleanEnv, timeout: 240_000 })
}

function explain(result: SpawnSyncReturns<string>): string {
  return `exit ${result.status}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`
}

let work = ''
let project = ''
let packedFiles: string[] = []

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` (or `npm test`, which builds first)')
  work = mkdtempSync(join(tmpdir(), 'timegrounded-pack-'))
  const tarball = inject('tarball')
  packedFiles = inject('packedFiles')

  project = join(work, 'fresh-project')
  spawnSync('mkdir', [project])
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fresh-project', version: '1.0.0', private: true, type: 'module' }, null, 2))
  // vitest is the user's own (timegrounded/vitest runs inside it); same version as ours.
  // biome-ignore format lint/complexity/useLiteralKeys: test/readme.test.ts finds this install by its text, on one line.
  const args = ['install', tarball, `vitest@${packageJson.devDependencies['vitest']}`, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts']
  let install = run('npm', args, project)
  if (install.status !== 0 && staleMetadata(install.stderr)) install = run('npm', preferOnline(args), project)
  if (install.status !== 0) throw new Error(`npm install of the tarball failed: ${explain(install)}`)
}, 300_000)

afterAll(() => {
  if (work !== '') rmSync(work, { recursive: true, force: true })
})

describe('the packed tarball', () => {
  test('holds the build, the bin, the fixtures with their attribution, the sources its source maps name, and no tests', () => {
    for (const path of [
      'package.json',
      'dist/index.js',
      'dist/index.d.ts',
      'dist/vitest/index.js',
      'dist/vitest/index.d.ts',
      'dist/jest/index.js',
      'dist/jest/index.cjs',
      'dist/jest/config.cjs',
      'dist/jest/reporter.js',
      'dist/jest/watch-plugin.js',
      'dist/cjs-types/package.json',
      'dist/cjs-types/jest/index.d.ts',
      'dist/cli/main.js',
      'fixtures/tivarq-v1/manifest.json',
      'fixtures/tivarq-v1/probes_test.jsonl',
      'fixtures/tivarq-v1/ATTRIBUTION.md',
      'src/index.ts',
    ]) {
      expect(packedFiles).toContain(path)
    }
    expect(packedFiles.filter((path) => path.startsWith('test/') || path.endsWith('.test.ts'))).toEqual([])
    // Every source a shipped source map names ships too, so a stack frame (or a debugger) opens the TypeScript line.
    const installed = join(project, 'node_modules', 'timegrounded')
    const missing: string[] = []
    for (const map of packedFiles.filter((path) => path.endsWith('.js.map'))) {
      const { sources } = JSON.parse(readFileSync(join(installed, map), 'utf8')) as { sources: string[] }
      for (const source of sources) if (!existsSync(join(installed, dirname(map), source))) missing.push(`${map} → ${source}`)
    }
    expect(packedFiles.filter((path) => path.endsWith('.js.map')).length).toBeGreaterThan(50)
    expect(missing).toEqual([])
  })

  test('a stack frame through the installed package opens its TypeScript source, at the line that threw', () => {
    writeFileSync(
      join(project, 'frame.mjs'),
      "import { openPool } from 'timegrounded'\ntry { await openPool(42, { track: 'structured' }) } catch (error) { console.log(error.stack) }\n",
    )
    const result = run(process.execPath, ['--enable-source-maps', 'frame.mjs'], project)
    expect(result.status, explain(result)).toBe(0)
    const frame = /\((\S+\/node_modules\/timegrounded\/src\/harness\/pool\.ts):(\d+):\d+\)/.exec(result.stdout)
    expect(frame, result.stdout).not.toBeNull()
    const line = readFileSync(frame![1]!, 'utf8').split('\n')[Number(frame![2]) - 1]
    expect(line).toContain('throw new AdapterUsageError(')
  })

  test('imports from a plain .mjs script: the core and timegrounded/vitest', () => {
    writeFileSync(
      join(project, 'check.mjs'),
      `import { validateDataset, loadSplit, resolveGold, jsonSchemas, DatasetError } from 'timegrounded'
import { timegroundedSuite, timegrounded } from 'timegrounded/vitest'
const result = await validateDataset()
const smoke = await loadSplit(undefined, 'smoke')
console.log(JSON.stringify({
  status: result.status,
  fixturesInstalled: result.dir.includes('node_modules'),
  smoke: [smoke.episodes.length, smoke.probes.length],
  gold: resolveGold([], { slot: 's', scope: 'personal', asOf: '2025-01-01T00:00:00Z' }),
  schemas: Object.keys(jsonSchemas).sort(),
  datasetError: typeof DatasetError,
  vitest: [typeof timegroundedSuite, typeof timegrounded],
}))
`,
    )
    const result = run(process.execPath, ['check.mjs'], project)
    expect(result.status, explain(result)).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      status: 'valid',
      fixturesInstalled: true,
      smoke: [12, 60],
      gold: { state: 'unknown', value: null },
      schemas: ['answer', 'assertion', 'episode', 'event', 'manifest', 'probe'],
      datasetError: 'function',
      vitest: ['function', 'function'],
    })
  })

  test('requires from a CommonJS script: the Jest config helper, and the Jest test-side bundle, which reads the installed fixtures', () => {
    // Outside Jest, @jest/globals throws; a stand-in package records what the suite registers, as Jest's would.
    mkdirSync(join(project, 'node_modules', '@jest', 'globals'), { recursive: true })
    writeFileSync(join(project, 'node_modules', '@jest', 'globals', 'package.json'), '{ "name": "@jest/globals", "version": "0.0.0", "main": "index.js" }')
    writeFileSync(
      join(project, 'node_modules', '@jest', 'globals', 'index.js'),
      `const names = []
const path = []
exports.names = names
exports.describe = (name, body) => { path.push(name); body(); path.pop() }
exports.test = (name) => names.push([...path, name].join(' › '))
exports.beforeAll = () => {}
exports.afterAll = () => {}
exports.expect = { getState: () => ({ testPath: __filename }) }
`,
    )
    writeFileSync(
      join(project, 'check.cjs'),
      `const { withTimegrounded } = require('timegrounded/jest/config')
const { timegroundedSuite, commandAdapter } = require('timegrounded/jest')
const { names } = require('@jest/globals')
timegroundedSuite({ ingest() {}, query() { return { state: 'unknown', value: null } } }, { split: 'smoke' })
console.log(JSON.stringify({ reporters: withTimegrounded({}).reporters, tests: names.length, first: names[0], adapter: typeof commandAdapter }))
`,
    )
    const result = run(process.execPath, ['check.cjs'], project)
    expect(result.status, explain(result)).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      reporters: ['default', ['timegrounded/jest/reporter', {}]],
      tests: 60,
      first: 'tivarq (smoke, structured) › replacement-00 › replacement-00-q1 [target pre] notification_channel/personal',
      adapter: 'function',
    })
  })

  test('the installed bin validates the bundled dataset', () => {
    const result = run(join(project, 'node_modules', '.bin', 'timegrounded'), ['validate'], project)
    expect(result.status, explain(result)).toBe(0)
    expect(result.stdout).toContain(`${join(project, 'node_modules', 'timegrounded', 'fixtures', 'tivarq-v1')}: valid`)
    const version = run(join(project, 'node_modules', '.bin', 'timegrounded'), ['--version'], project)
    expect(version.stdout.trim()).toBe(packageJson.version)
  })

  test('type-checks a .ts file against the installed types', () => {
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: true, types: [] },
        include: ['usage.ts'],
      }),
    )
    writeFileSync(
      join(project, 'usage.ts'),
      `import { resolveGold, validateDataset, type Answer, type Probe, type ValidationResult, type DatasetIssue } from 'timegrounded'
import { timegroundedSuite, type TimegroundedSuiteOptions, type TimegroundedPluginOptions } from 'timegrounded/vitest'

const answer: Answer = resolveGold([], { slot: 'notification_channel', scope: 'personal', asOf: '2025-01-01T00:00:00Z' })
const state: 'known' | 'unknown' | 'withdrawn' | 'needs_clarification' | 'expired' = answer.state
// The types are real, not any: a wrong use must be refused.
// @ts-expect-error a state is a string union, not a number
const wrong: number = answer.state
const pending: Promise<ValidationResult> = validateDataset()
const firstIssue = (result: ValidationResult): DatasetIssue | undefined => (result.status === 'invalid' ? result.issues[0] : undefined)
const index = (probe: Probe): number => probe.after_event_index
const options: TimegroundedSuiteOptions | undefined = undefined
// familyThresholds is keyed by the family union: a misspelt family does not type-check.
const gated: TimegroundedPluginOptions = { familyThresholds: { withdrawal: { currentStateAccuracy: { min: 1 } } } }
// @ts-expect-error withdrawl is not a family
const misspelt: TimegroundedPluginOptions = { familyThresholds: { withdrawl: { currentStateAccuracy: { min: 1 } } } }
export { state, wrong, pending, firstIssue, index, options, gated, misspelt, timegroundedSuite }
`,
    )
    const result = run(process.execPath, [TSC, '-p', 'tsconfig.json'], project)
    expect(result.status, explain(result)).toBe(0)
  })
})
