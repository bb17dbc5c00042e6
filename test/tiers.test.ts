/**
 * The two tiers of the project's own tests (vitest.config.ts): `npm run test:unit`
 * runs the unit tier from the sources alone, in under a minute; `npm test` builds
 * and runs both. Checked on what Vitest itself selects (`vitest list --project`),
 * so a new file that needs the build, the tarball, a fixture project or Chromium
 * cannot land in the unit tier unnoticed.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'

const REPO = fileURLToPath(new URL('..', import.meta.url))
const VITEST = join(REPO, 'node_modules/vitest/vitest.mjs')

/** The test files Vitest runs for `--project name`, relative to the repository. */
function listed(name: string): string[] {
  const env: Record<string, string | undefined> = { ...process.env }
  for (const key of Object.keys(env)) if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key]
  const run = spawnSync(process.execPath, [VITEST, 'list', '--project', name, '--filesOnly', '--json'], { cwd: REPO, encoding: 'utf8', env, timeout: 120_000 })
  expect(run.status, run.stderr).toBe(0)
  return (JSON.parse(run.stdout) as { file: string }[]).map(({ file }) => relative(REPO, file)).sort()
}

/** What only the e2e tier has: the build, the run's tarball, the fixture-project helpers, Chromium. */
const E2E_ONLY: [RegExp, string][] = [
  [/['"/]dist\//, 'the build (dist/)'],
  [/\binject\(/, "the e2e setup's tarball or installs"],
  [/run-vitest\.js|run-jest\.js/, 'a Vitest or Jest fixture project'],
  [/chromium/i, 'Chromium'],
  [/\bnpm['"]?, \[['"](pack|install|i)['"]/, 'npm pack or install'],
]

describe('the test tiers', () => {
  const unit = listed('unit')
  const e2e = listed('e2e')

  test('every test file is in exactly one tier', () => {
    expect(unit.length).toBeGreaterThan(30)
    expect(e2e.length).toBeGreaterThan(30)
    expect(unit.filter((file) => e2e.includes(file))).toEqual([])
    expect(unit).toContain('test/tiers.test.ts')
    expect(e2e).toEqual(
      expect.arrayContaining(['test/package.test.ts', 'test/jest/cjs.test.ts', 'test/report/html-browser.test.ts', 'test/vitest/e2e.test.ts']),
    )
  })

  test('no unit file needs the build, the tarball, a fixture project or Chromium (npm run test:unit runs without them)', () => {
    const offenders = unit.flatMap((file) => {
      const source = readFileSync(join(REPO, file), 'utf8')
      return E2E_ONLY.filter(([pattern]) => pattern.test(source) && file !== 'test/tiers.test.ts').map(([, what]) => `${file} needs ${what}`)
    })
    expect(offenders, 'move these to E2E_FILES in vitest.config.ts').toEqual([])
  })

  test('npm test runs both tiers; npm run test:unit runs the unit tier', () => {
    const { scripts } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(scripts.test).toMatch(/npm run build && .*vitest run$/)
    expect(scripts['test:unit']).toBe('vitest run --project unit')
  })
})
