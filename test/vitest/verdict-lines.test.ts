// Issue 19 §5, through real Vitest on the `basic` fixture project: what the run prints agrees with
// its exit code. A run that fails never says "gate passed", and its last timegrounded line states
// its verdict; a mistake is said once, not once per probe; a cancelled run says it was not gated.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios } from './run-vitest.js'

const { env, run } = basicScenarios('vitest-verdict-lines')

/** The timegrounded lines of a run's output, in order. */
function timegroundedLines(output: string): string[] {
  return output.split('\n').filter((line) => line.startsWith('timegrounded'))
}

describe('what the run prints agrees with its exit code', () => {
  test('two test files declaring the same suite: one line for the conflict, never "gate passed", exit 1', async () => {
    const result = await run([], env('twins', { TG_INCLUDE: 'probes/{whole,twin}.probes.ts' }))
    const conflicts = timegroundedLines(result.output).filter((line) => line.includes('runs the same probes in two files'))
    expect(conflicts).toHaveLength(1)
    expect(conflicts[0]).toMatch(
      /^timegrounded \[tivarq\] suite "tivarq" runs the same probes in two files, \S+(whole|twin)\.probes\.ts and \S+(whole|twin)\.probes\.ts \(e\.g\. [a-z_]+-00-q\d\); spread one suite over files with `partition`, or give each suite its own `name`$/,
    )
    expect(result.output).not.toContain('gate passed')
    expect(timegroundedLines(result.output).at(-1)).toMatch(/^timegrounded \[tivarq\] gate failed \(.*\): 1 conflict between test files \(above\)$/)
    expect(result.code).toBe(1)
  })

  test('probe tests failing with no gate violation (no thresholds, no baseline): the closing line says the gate failed and why', async () => {
    const result = await run([], env('failing', { TG_BUG: 'stale', TG_OPTIONS: JSON.stringify({ baseline: false }) }))
    expect(result.output).toContain('Tests  12 failed | 48 passed (60)')
    expect(result.output).not.toContain('gate passed')
    expect(timegroundedLines(result.output).at(-1)).toBe('timegrounded [tivarq] gate failed (no thresholds set; no baseline): 12 probe tests failed')
    expect(result.code).toBe(1)
  })

  test('`--bail=1`: the run says it was cancelled and not gated, replaces the previous report.json with its incomplete one, exits 1', async () => {
    const variables = env('bail', { TG_BUG: 'stale' })
    mkdirSync(variables.TG_OUTPUT!, { recursive: true })
    const previous = join(variables.TG_OUTPUT!, 'report.json')
    writeFileSync(previous, '{"complete": true, "left": "by the previous run"}\n')
    const result = await run(['--bail=1'], variables)
    const last = timegroundedLines(result.output).at(-1)
    expect(last).toMatch(
      /^timegrounded \[tivarq\] run cancelled before the end \(`--bail`, or stopped\): \d+ of 60 probes ran; not gated; the incomplete results are in .+-out\/$/,
    )
    expect(result.output).not.toContain('gate passed')
    expect(result.code).toBe(1)
    const report = JSON.parse(readFileSync(previous, 'utf8'))
    expect(report.left).toBeUndefined()
    expect(report.complete).toBe(false)
    expect(existsSync(join(variables.TG_OUTPUT!, 'predictions.jsonl'))).toBe(true)
  })
})
