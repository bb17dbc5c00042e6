// Issue 19 point 8 under real Vitest (test/fixtures/vitest-projects/basic, the smoke split): a store
// that keeps state across episodes (one object whose reset() does nothing, or a factory whose stores
// share module-level facts) passes every TIVARQ v1 probe, since each episode sets its slots first; the
// runner's isolation check resets the store after each episode and asks again a probe it answered right
// there, and fails the run with "state carried over". The correct store, as a factory, one object and an
// adapter process, passes; report.json keeps upstream's figures (the check's answers are in no row).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios } from './run-vitest.js'

const { env, run } = basicScenarios('vitest-isolation')

function report(output: string): { probe_counts: { total: number }; metrics: { transition_success_rate: { score: number } } } {
  return JSON.parse(readFileSync(join(output, 'report.json'), 'utf8'))
}

describe('a store that keeps state across episodes is caught', () => {
  test('one store object whose reset() does nothing: every probe answers right, yet the run fails with "state carried over from episode …"', async () => {
    const variables = env('no-reset', { TG_BUG: 'no-reset', TG_INCLUDE: 'probes/single.probes.ts' })
    const result = await run([], variables)
    expect(result.output).toMatch(
      /timegrounded \[tivarq\] ISOLATION: state carried over from episode [a-z_]+-\d\d: slot [a-z_]+\/(personal|work) — reset after the episode, the store still answered [a-z_]+-\d\d-q\d+ \(as of [0-9TZ:-]+\) with .+, learnt in it; a reset store answers unknown, and the next episode would start with this state\. Make reset\(\) clear everything/,
    )
    expect(result.output).toMatch(
      /timegrounded \[tivarq\] gate failed \([^)]*\): [^\n]*state carried over between episodes in \d+ cases \(the store is not isolated\)/,
    )
    expect(result.output).not.toContain('gate passed')
    expect(result.code).toBe(1)
    // The scored figures are upstream's: every probe answered, the isolation answers in no row.
    const scored = report(variables.TG_OUTPUT!)
    expect(scored.probe_counts.total).toBe(60)
    expect(scored.metrics.transition_success_rate.score).toBe(1)
  })

  test('a factory whose stores share module-level facts fails the same way', async () => {
    const result = await run([], env('global', { TG_BUG: 'global' }))
    expect(result.output).toContain('timegrounded [tivarq] ISOLATION: state carried over from episode ')
    expect(result.output).toMatch(/FAIL .*state carried over from episode/s)
    expect(result.output).not.toContain('gate passed')
    expect(result.code).toBe(1)
  })

  test('the correct store passes as a factory, as one object reset between episodes, and as an adapter process', async () => {
    const factory = await run([], env('isolated-factory'))
    expect(factory.output).toContain('timegrounded [tivarq] gate passed')
    expect(factory.code).toBe(0)
    const single = await run([], env('isolated-single', { TG_INCLUDE: 'probes/single.probes.ts' }))
    expect(single.output).toContain('timegrounded [tivarq] gate passed')
    expect(single.output).not.toContain('ISOLATION')
    expect(single.code).toBe(0)
    const process = await run([], env('isolated-process', { TG_INCLUDE: 'probes/latest-process.probes.ts' }))
    expect(process.output).not.toContain('ISOLATION')
    expect(process.output).not.toContain('state carried over')
  })
})

describe('isolationCheck: false', () => {
  test('asks nothing after the episodes: the reset that does nothing passes, and the summary says the check was off', async () => {
    const variables = env('no-reset-unchecked', { TG_BUG: 'no-reset', TG_INCLUDE: 'probes/single.probes.ts', TG_ISOLATION_CHECK: 'off' })
    const result = await run([], variables)
    expect(result.output).not.toContain('ISOLATION')
    expect(result.output).toContain(
      'timegrounded [tivarq] isolation check off (`isolationCheck: false`): a store that keeps state across episodes is not caught',
    )
    expect(result.output).toContain('timegrounded [tivarq] gate passed')
    expect(result.code).toBe(0)
  })
})
