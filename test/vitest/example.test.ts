// examples/in-memory is a user-style project: run it with the real Vitest CLI, as its README says.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, expect, test } from 'vitest'
import { assertBuilt, REPO, runVitest } from './run-vitest.js'

const EXAMPLE = join(REPO, 'examples/in-memory')

beforeAll(() => assertBuilt())

test('the in-memory example passes all 240 dev probes, its thresholds and its committed baseline', async () => {
  const result = await runVitest(['run', '--root', EXAMPLE], { cwd: REPO })
  expect(result.output).toContain('Tests  240 passed (240)')
  expect(result.output).toContain('240 of 240 probes ran: 240 passed, 0 failed, 0 known failures, 0 unsupported (skipped), 0 errors')
  expect(result.output).toContain('gate passed (thresholds; baseline examples/in-memory/timegrounded.baseline.json)')
  expect(result.code).toBe(0)
  const report = JSON.parse(readFileSync(join(EXAMPLE, '.timegrounded/report.json'), 'utf8'))
  expect(report.metrics.transition_success_rate).toEqual({ score: 1, cases: 52 }) // the dev split has 52 transitions with a pre and a post probe
  expect(report.metrics.stale_value_leakage_rate.score).toBe(0)
})
