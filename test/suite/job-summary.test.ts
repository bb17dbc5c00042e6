/**
 * The CI job summary writer every caller uses (run, merge, both reporters): it
 * appends to the file GITHUB_STEP_SUMMARY names, and a file it cannot write is
 * a warning naming the file, never an exception that would change a verdict.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, test } from 'vitest'
import { appendJobSummary } from '../../src/suite/job-summary.js'

const dir = mkdtempSync(join(tmpdir(), 'timegrounded-summary-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('appends to the summary file, after what is already there', () => {
  const file = join(dir, 'summary.md')
  writeFileSync(file, '# earlier step\n')
  expect(appendJobSummary('| a | b |\n', file)).toBeNull()
  expect(readFileSync(file, 'utf8')).toBe('# earlier step\n| a | b |\n')
})

test('no summary file named: nothing written, no warning', () => {
  expect(appendJobSummary('| a |\n', undefined)).toBeNull()
  expect(appendJobSummary('| a |\n', '')).toBeNull()
})

test('a file that cannot be written: a warning naming it and why, not an exception', () => {
  const file = join(dir, 'no-such-folder', 'summary.md')
  const warning = appendJobSummary('| a |\n', file)
  expect(warning).toMatch(new RegExp(`^timegrounded: warning: could not write the job summary to ${file} \\(ENOENT: .*\\); the run's result stands$`))
})
