/**
 * The page script ships: `npm pack` carries the bundle the build made and the
 * notices of the code it bundles, and the built renderer (dist/, laid out as
 * in the tarball) finds the bundle from its own location, whatever the
 * working directory. Needs dist/ (npm test builds first).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, inject, test } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

test('npm pack carries the page script and the third-party notices', () => {
  // What the run's one `npm pack` put in the tarball (test/support/e2e-setup.ts).
  const files = inject('packedFiles')
  expect(files).toEqual(expect.arrayContaining(['dist/report/html/page.bundle.js', 'dist/report/html/THIRD-PARTY-NOTICES.txt', 'dist/report/html/index.js']))
  const notices = readFileSync(join(ROOT, 'dist/report/html/THIRD-PARTY-NOTICES.txt'), 'utf8')
  expect(notices).toContain('@observablehq/plot@0.6.17 (ISC)')
  expect(notices).toMatch(/d3-scale@[\d.]+/)
})

test('the built renderer reads the page script from its package, run from another directory', () => {
  const elsewhere = mkdtempSync(join(tmpdir(), 'timegrounded-html-dist-'))
  try {
    const script = `
import { renderHtmlReport } from ${JSON.stringify(join(ROOT, 'dist/report/html/model/build.js'))}
import { HARNESS_VERSION } from ${JSON.stringify(join(ROOT, 'dist/version.js'))}
const suite = { suite: 's', agent: 'a', dataset_id: 'd', total: 1, control: { correct: 1, questions: 1, accuracy: 1, errors: 0 }, probe: { correct: 1, questions: 1, accuracy: 1, errors: 0 }, ceiling: null, delta: null, verdict: null, caveat: 'c' }
process.stdout.write(renderHtmlReport({ harnessVersion: HARNESS_VERSION, timeGrounded: [suite] }))
`
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: elsewhere, encoding: 'utf8', timeout: 60_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain(readFileSync(join(ROOT, 'dist/report/html/page.bundle.js'), 'utf8'))
  } finally {
    rmSync(elsewhere, { recursive: true, force: true })
  }
})
