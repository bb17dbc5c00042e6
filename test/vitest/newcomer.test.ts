// What a newcomer following the README runs into: -u with shards, probes fixed since
// the baseline, the time-grounded probe for an agent alone, and an unmeasured precision.
// Real Vitest on test/fixtures/vitest-projects/basic, checked by output, files and exit code.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios, FIXTURES, runVitest } from './run-vitest.js'
import { renderViolation } from '../../src/suite/gate-lines.js'
import { VITEST_COMMANDS } from '../../src/vitest/commands.js'

const PROJECT = join(FIXTURES, 'basic')
const { scratch, env, run } = basicScenarios('vitest-newcomer')
const merge = (blobs: string, args: string[], variables: Record<string, string>) =>
  runVitest(['--root', PROJECT, `--merge-reports=${blobs}`, ...args], { cwd: PROJECT, env: variables })

describe('a newcomer following the README', () => {
  test('shards run with -u say nothing is written yet; --merge-reports -u writes the baseline; a merge without -u does not let those probes pass', async () => {
    const variables = env('shard-u', { TG_BUG: 'stale', TG_INCLUDE: 'probes/part*.probes.ts' })
    const blobs = join(scratch(), 'shard-u-blobs')
    for (const shard of ['1/2', '2/2']) {
      const result = await run([`--shard=${shard}`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${shard.replace('/', '-')}.json`)}`, '-u'], variables)
      expect(result.output).toContain(
        `shard ${shard}: \`-u\` recorded this shard's wrong answers as known failures; nothing is written until \`vitest --merge-reports -u\``,
      )
      expect(result.code).toBe(0)
    }
    const plain = await merge(blobs, [], variables)
    expect(plain.output).toMatch(/12 probes passed only because their shard ran with `-u` and are not known failures in the baseline \(.*replacement-00-q3.*\)/)
    expect(plain.code).toBe(1)
    expect(existsSync(variables.TG_BASELINE!)).toBe(false)

    const recorded = await merge(blobs, ['-u'], variables)
    expect(recorded.output).toContain('baseline written to')
    expect(recorded.output).toContain('60 probes, 12 recorded as known failures')
    expect(recorded.code).toBe(0)
    const baseline = JSON.parse(readFileSync(variables.TG_BASELINE!, 'utf8'))
    expect(Object.values(baseline.suites.tivarq.probes).filter((outcome) => outcome === 'wrong')).toHaveLength(12)
  })

  test('probes failing in the baseline that now pass are named, with the command that locks them in', async () => {
    const variables = env('fixed')
    expect((await run(['-u'], { ...variables, TG_BUG: 'stale' })).code).toBe(0)
    const fixed = await run([], variables)
    expect(fixed.output).toMatch(
      /timegrounded \[tivarq\] 12 probes failing in the baseline now pass \(.*replacement-00-q3.*\); record them with `npx vitest run -u` so that a relapse fails CI/,
    )
    expect(fixed.code).toBe(0)
  })

  test('an agent alone runs the time-grounded probe with timeGroundedTests, reported by the plugin; handed to timegroundedSuite it is refused once, naming the fix', async () => {
    const include = { TG_INCLUDE: 'probes/agent-only.probes.ts' }
    const alone = await run([], env('agent-alone', include))
    expect(alone.output).toContain('Tests  24 passed (24)')
    expect(alone.output).toMatch(/delta\s+\(probe − control\)\s+±0\.0 pts/)
    expect(alone.code).toBe(0)
    expect(existsSync(join(scratch(), 'agent-alone-out', 'time-grounded.json'))).toBe(true)

    for (const as of ['object', 'factory']) {
      const mixedUp = await run([], env(`agent-${as}`, { ...include, TG_AGENT_AS: as }))
      expect(mixedUp.output).toContain(
        'is a time-grounded agent (it has answer() but no ingest()), not a memory store. To run only the time-grounded probe, call `timeGroundedTests(agent)`',
      )
      expect(mixedUp.output).not.toContain('store.ingest is not a function')
      expect(mixedUp.code).toBe(1)
    }
  })

  test("with several suites, the GitHub step summary heads each suite's report with its name", async () => {
    const summary = join(scratch(), 'several-suites-summary.md')
    const result = await run([], env('several', { TG_INCLUDE: 'probes/sources.probes.ts', GITHUB_STEP_SUMMARY: summary }))
    expect(result.output).toContain('timegrounded [latest-process] 60 of 60 probes ran')
    const markdown = readFileSync(summary, 'utf8')
    const single = markdown.indexOf('### Suite `single-store`')
    const latest = markdown.indexOf('### Suite `latest-process`')
    expect(single).toBeGreaterThan(-1)
    expect(latest).toBeGreaterThan(single)
    // Each suite's lines come under its own heading.
    expect(markdown.slice(single, latest)).toContain('- 60 of 60 probes ran: 60 passed')
    expect(markdown.slice(latest)).toContain('- 60 of 60 probes ran: 51 passed, 3 failed')
  })

  test('a precision that lost all its cases says the store stopped giving that answer, not that a capability was dropped', () => {
    const line = renderViolation(
      {
        kind: 'unmeasured',
        suite: 'tivarq',
        metric: 'abstentionPrecision',
        family: null,
        cause: 'baseline',
        baseline: { value: 1, cases: 4 },
      },
      VITEST_COMMANDS,
    )
    expect(line).toBe(
      '[tivarq] abstentionPrecision was 4 of 4 (1) in the baseline but is not measured in this run (no cases: the store never answered unknown, withdrawn or expired in this run). Declare the capability again, or accept with `npx vitest run -u`.',
    )
    const recall = renderViolation(
      {
        kind: 'unmeasured',
        suite: 'tivarq',
        metric: 'historicalAccuracy',
        family: null,
        cause: 'baseline',
        baseline: { value: 1, cases: 4 },
      },
      VITEST_COMMANDS,
    )
    expect(recall).toContain('(no cases: was a capability dropped?)')
  })
})
