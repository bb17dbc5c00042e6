// The supported-runner check (src/suite/runner-version.ts) with the ranges the
// shells state, against package.json files laid out as npm installs them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, test } from 'vitest'
import { SUPPORTED_JEST } from '../../src/jest/versions.js'
import { checkRunnerVersion, RunnerVersionError, versionInRange } from '../../src/suite/runner-version.js'
import { SUPPORTED_VITEST } from '../../src/vitest/versions.js'

const scratch = mkdtempSync(join(tmpdir(), 'timegrounded-runner-version-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** A project with `<name>@<version>` installed and timegrounded's dist/ module beside it; returns that module's URL. */
function projectWith(name: string, version: string): string {
  const root = mkdtempSync(join(scratch, 'project-'))
  mkdirSync(join(root, 'node_modules', name), { recursive: true })
  writeFileSync(join(root, 'node_modules', name, 'package.json'), JSON.stringify({ name, version }))
  const module = join(root, 'node_modules', 'timegrounded', 'dist', 'vitest', 'versions.js')
  mkdirSync(join(module, '..'), { recursive: true })
  return pathToFileURL(module).href
}

describe('the Vitest range, ^4.1.12 || ^5', () => {
  test.each([
    ['4.1.12', true],
    ['4.1.13', true],
    ['4.2.0', true],
    ['5.0.0', true],
    ['5.0.0-beta.5', true],
    ['5.1.2', true],
    ['4.1.11', false],
    ['4.0.18', false],
    ['3.2.4', false],
    ['6.0.0', false],
  ])('%s supported: %s', (version, supported) => {
    expect(versionInRange(version, SUPPORTED_VITEST.range)).toBe(supported)
  })

  test('matches the peer range package.json states', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(manifest.peerDependencies.vitest).toBe(SUPPORTED_VITEST.range.words)
  })
})

describe('the Jest range, >=29.7', () => {
  test.each([
    ['29.7.0', true],
    ['30.5.2', true],
    ['31.0.0', true],
    ['29.6.4', false],
    ['28.1.3', false],
  ])('%s supported: %s', (version, supported) => {
    expect(versionInRange(version, SUPPORTED_JEST.range)).toBe(supported)
  })

  test('matches the peer range package.json states', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    expect(manifest.peerDependencies.jest).toBe(SUPPORTED_JEST.range.words)
  })
})

describe('checkRunnerVersion reads the version installed where the package resolves it', () => {
  test('Vitest 3 is refused in one line naming the range, the version, its package.json and the fix', () => {
    const from = projectWith('vitest', '3.2.4')
    let thrown: unknown
    try {
      checkRunnerVersion(SUPPORTED_VITEST, from)
    } catch (error) {
      thrown = error
    }
    expect(thrown).toBeInstanceOf(RunnerVersionError)
    const error = thrown as RunnerVersionError
    expect(error.code).toBe('RUNNER_VERSION_UNSUPPORTED')
    expect(error.message).toMatch(
      /^timegrounded supports Vitest \^4\.1\.12 \|\| \^5; the installed Vitest is 3\.2\.4 \(.*\/node_modules\/vitest\/package\.json\)\. Install a supported one, e\.g\. `npm i -D vitest@5`\.$/,
    )
    expect(error.stack).toBe(`RunnerVersionError [RUNNER_VERSION_UNSUPPORTED]: ${error.message}`)
    expect(Object.keys(error)).not.toContain('code')
  })

  test('Jest 28 is refused the same way', () => {
    expect(() => checkRunnerVersion(SUPPORTED_JEST, projectWith('jest', '28.1.3'))).toThrow(
      /^timegrounded supports Jest >=29\.7; the installed Jest is 28\.1\.3 \(.*\)\. Install a supported one, e\.g\. `npm i -D jest@30`\.$/,
    )
  })

  test('Vitest 5 on a Node its engines exclude is refused in one line naming both versions, the range and the fix', () => {
    const from = projectWith('vitest', '5.1.2')
    expect(() => checkRunnerVersion(SUPPORTED_VITEST, from, '20.20.2')).toThrow(
      /^timegrounded: the installed Vitest 5\.1\.2 \(.*\/node_modules\/vitest\/package\.json\) needs Node \^22\.12\.0 \|\| \^24\.0\.0 \|\| >=26\.0\.0; this is Node 20\.20\.2\. Run it on a Node in that range, or install Vitest 4, which runs on Node 20: `npm i -D vitest@4`\.$/,
    )
    for (const node of ['22.11.0', '23.11.1', '18.20.8']) expect(() => checkRunnerVersion(SUPPORTED_VITEST, from, node)).toThrow(RunnerVersionError)
    for (const node of ['22.12.0', '22.23.5', '24.0.0', '24.22.3', '26.12.1', '27.0.0'])
      expect(() => checkRunnerVersion(SUPPORTED_VITEST, from, node)).not.toThrow()
  })

  test('Vitest 4.1 runs on Node 20, and Jest asks nothing of Node beyond this package', () => {
    expect(() => checkRunnerVersion(SUPPORTED_VITEST, projectWith('vitest', '4.1.12'), '20.20.2')).not.toThrow()
    expect(() => checkRunnerVersion(SUPPORTED_JEST, projectWith('jest', '30.5.2'), '20.20.2')).not.toThrow()
  })

  test('Vitest 4.1.12 and 5.1.2 pass, and so does a project where none is installed (its import fails in its own words)', () => {
    expect(() => checkRunnerVersion(SUPPORTED_VITEST, projectWith('vitest', '4.1.12'))).not.toThrow()
    expect(() => checkRunnerVersion(SUPPORTED_VITEST, projectWith('vitest', '5.1.2'), '24.22.3')).not.toThrow()
    expect(() => checkRunnerVersion(SUPPORTED_VITEST, projectWith('something-else', '1.0.0'))).not.toThrow()
  })
})
