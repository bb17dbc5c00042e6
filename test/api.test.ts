/**
 * The public surface of each entry point is written down in api/ (an
 * api-extractor report per entry: every export with its signature, and the
 * rolled-up declarations), so a change to it is always deliberate: this test
 * fails naming the file that differs, and `npm run api` accepts the change.
 * Needs dist/ (npm test builds it first).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const ROOT = fileURLToPath(new URL('..', import.meta.url))

/** The value exports an API report lists (functions, classes, constants), sorted. */
function valuesInReport(file: string): string[] {
  const report = readFileSync(join(ROOT, 'api', file), 'utf8')
  const named = [...report.matchAll(/^export (?:abstract class|class|function|const) (\w+)/gm)].map((match) => match[1] as string)
  // A module Jest loads by path (reporter, watch plugin) exports its class as the default.
  return [...named, ...(/^export default \w+;$/m.test(report) ? ['default'] : [])].sort()
}

test('the declarations of every entry point match api/ (run `npm run api` to accept a deliberate change)', () => {
  if (!existsSync(join(ROOT, 'dist', 'index.d.ts'))) throw new Error('dist/ is missing: run `npm run build` (or `npm test`, which builds first)')
  const result = spawnSync(process.execPath, ['scripts/api-report.js'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })
  expect(
    result.stderr.split('\n').filter((line) => line.startsWith('api/')),
    result.stderr,
  ).toEqual([])
  expect(result.status, result.stderr).toBe(0)
})

test.each([
  ['timegrounded', '../dist/index.js', 'timegrounded.api.md'],
  ['timegrounded/vitest', '../dist/vitest/index.js', 'timegrounded-vitest.api.md'],
  ['timegrounded/jest/config', '../dist/jest/config.js', 'timegrounded-jest-config.api.md'],
  ['timegrounded/jest/reporter', '../dist/jest/reporter.js', 'timegrounded-jest-reporter.api.md'],
  ['timegrounded/jest/watch-plugin', '../dist/jest/watch-plugin.js', 'timegrounded-jest-watch-plugin.api.md'],
  ['timegrounded/ai-sdk', '../dist/ai-sdk/index.js', 'timegrounded-ai-sdk.api.md'],
])('%s exports at run time exactly the values its report lists; everything else it lists is a type', async (_entry, module, report) => {
  const loaded = (await import(module)) as Record<string, unknown>
  expect(Object.keys(loaded).sort()).toEqual(valuesInReport(report))
})

test('timegrounded/jest, loaded by real Jest (its @jest/globals only works inside a Jest test), exports at run time exactly the values its report lists', () => {
  const dir = mkdtempSync(join(tmpdir(), 'timegrounded-api-jest-'))
  try {
    // CommonJS, as most Jest projects load it (dist/jest/index.cjs); the test writes what the entry exports. Jest's defaults otherwise.
    writeFileSync(join(dir, 'jest.config.json'), '{}\n')
    writeFileSync(
      join(dir, 'keys.test.js'),
      `const loaded = require(${JSON.stringify(join(ROOT, 'dist/jest/index.cjs'))})\n` +
        `test('lists the exports', () => require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'keys.json'))}, JSON.stringify(Object.keys(loaded).sort())))\n`,
    )
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' }
    for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key.startsWith('JEST') || key === 'NODE_OPTIONS' || key === 'TEST') delete env[key]
    const jest = spawnSync(process.execPath, [join(ROOT, 'node_modules/jest/bin/jest.js'), '--rootDir', dir, '--ci', '--no-cache'], {
      cwd: dir,
      encoding: 'utf8',
      env,
      timeout: 120_000,
    })
    expect(jest.status, jest.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8'))).toEqual(valuesInReport('timegrounded-jest.api.md'))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('the entry points stay small: names a user needs, not internals', () => {
  const count = (file: string) => [...readFileSync(join(ROOT, 'api', file), 'utf8').matchAll(/^export /gm)].length
  // Reference figures: 289 and 53 names before issue 11; 113 core names after it. The core
  // since gained the variant and corpus generators and the event, assertion and manifest
  // schemas (issue 14); a budget, so that growth past it is a decision, not drift. The test-file
  // entries grew by two in issue 22: `timegroundedProperties` and its options type.
  // Issue 21 added pooledStores and its spec type, issue 25 checkCorpus, CorpusCheck and UnjudgeableEntriesError.
  // Issue 34 added compareRuns, renderComparison, CompareError and the three types a caller names (options, sides, result).
  // Issue 35 added checkIsolation, for a caller running several splits on one pool (its result type stays unexported).
  // Issue 34 then added compareProbeAgents, renderAgentComparison, AgentComparisonError and AgentComparison (two agents under the probe).
  // Issue 33 added ModelCallCounts, the type of report.json's model_calls, which TivarqReport names.
  expect(count('timegrounded.api.md')).toBeLessThanOrEqual(134)
  expect(count('timegrounded-vitest.api.md')).toBeLessThanOrEqual(24)
  // Issue 22 added timegroundedProperties and its options; issue 21 added pooledStores and its spec type (Jest also lists the store types).
  expect(count('timegrounded-jest.api.md')).toBeLessThanOrEqual(24)
})

test('timegrounded/jest (which imports @jest/globals, so only loads inside a Jest test) lists the same test-file names as timegrounded/vitest', () => {
  const testSide = ['timegroundedSuite', 'timeGroundedTests', 'commandAdapter', 'OptionError']
  expect(valuesInReport('timegrounded-jest.api.md')).toEqual(expect.arrayContaining(testSide))
  expect(valuesInReport('timegrounded-vitest.api.md')).toEqual(expect.arrayContaining(testSide))
})
