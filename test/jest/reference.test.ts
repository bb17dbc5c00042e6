// A suite with a reference store under real Jest 30 (ES module mode, the esm fixture's
// reference/compare.ref.ts on the dev split): the reporter prints the comparison table,
// writes the reference's run folder and compare.json, and `failIfWorse` fails the run when
// the store is shown worse. compare.json is held to what the installed package's own
// `timegrounded compare --json` computes, in its own process, from the two folders.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { explain, installedProject, JEST_30, JEST_TEST_TIMEOUT, pinned } from './run-jest.js'

// The esm fixture's package list, so this file shares that fixture's one install.
const project = installedProject('esm', [...JEST_30, pinned('vitest'), pinned('vite')])
const ONLY = ['--testMatch', '**/reference/*.ref.ts']

/** `npx timegrounded compare A B --json …` in the project: its exit code, its record and its stderr. */
async function cliCompare(a: string, b: string, ...more: string[]): Promise<{ code: number | null; record: Record<string, unknown>; stderr: string }> {
  const ran = await project.node(['node_modules/timegrounded/dist/cli/main.js', 'compare', a, b, '--json', ...more])
  if (ran.stdout.trim() === '') throw new Error(`timegrounded compare ${a} ${b} printed nothing: ${explain(ran)}`)
  return { code: ran.code, record: JSON.parse(ran.stdout) as Record<string, unknown>, stderr: ran.stderr }
}

/** The figures of a comparison record: everything but the sides' names and the identity (the CLI reads folders without manifests). */
function figures(record: Record<string, unknown>): Record<string, unknown> {
  const { a, b, identity: _identity, ...rest } = record as { a: Record<string, unknown>; b: Record<string, unknown>; identity: unknown }
  const side = ({ name: _name, ...kept }: Record<string, unknown>) => kept
  return { ...rest, a: side(a), b: side(b) }
}

function compareFile(output: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(project.dir(), output, 'compare.json'), 'utf8')) as Record<string, unknown>
}

describe('a suite compared with a reference store under real Jest 30', { timeout: JEST_TEST_TIMEOUT }, () => {
  test('a leaking store against a correct reference: the table is printed, compare.json is what `timegrounded compare` computes, and `failIfWorse` fails a run whose tests pass', async () => {
    const env = { TG_BUG: 'stale', TG_REFERENCE_BUG: 'none', TG_THRESHOLDS: '{}', TG_BASELINE: 'reference.baseline.json', TG_OUTPUT: 'reference-out' }
    // The leaking store's wrong answers recorded as known failures: its tests then pass, and only the comparison can fail the run.
    const recorded = await project.jest([...ONLY, '-u'], env)
    expect(recorded.code, explain(recorded)).toBe(0)
    const gated = await project.jest(ONLY, { ...env, TG_FAIL_IF_WORSE: '["transitionSuccessRate"]' })
    expect(gated.code, explain(gated)).toBe(1)
    expect(gated.stderr).toContain('Tests:       240 passed, 240 total')
    expect(gated.stderr).toContain('timegrounded compare: is B better than A?')
    expect(gated.stderr).toMatch(/│ Transition success +│ +1 \(52 of 52\) │ +0\.384615 \(20 of 52\) │ +−0\.615 │ [^│]+│ B worse +│/)
    const shown =
      /timegrounded \[tivarq\] shown worse than reference "previous-release" on 1 `failIfWorse` metric: (Transition success: B worse \([^)]*\))/.exec(
        gated.stderr,
      )
    expect(shown, explain(gated)).not.toBeNull()

    const cli = await cliCompare('reference-out/reference', 'reference-out', '--fail-if-worse', 'transitionSuccessRate')
    expect(cli.code).toBe(1)
    expect(cli.stderr).toContain(`  ${shown![1]}`)
    expect(figures(compareFile('reference-out'))).toEqual(figures(cli.record))
  })

  test('two equal stores: no difference shown, and the run passes', async () => {
    const env = { TG_BUG: 'none', TG_REFERENCE_BUG: 'none', TG_THRESHOLDS: '{}', TG_BASELINE: 'equal.baseline.json', TG_OUTPUT: 'equal-out' }
    const run = await project.jest(ONLY, { ...env, TG_FAIL_IF_WORSE: '["transitionSuccessRate"]' })
    expect(run.code, explain(run)).toBe(0)
    for (const label of ['Transition success', 'Current-state accuracy', 'Stale-value leakage', 'Unaffected-fact retention'])
      expect(run.stderr).toContain(`${label}: no difference shown (interval 0.000 to 0.000)`)
    expect(run.stderr).toContain('timegrounded [tivarq] not shown worse than reference "previous-release" on transitionSuccessRate (`failIfWorse`)')
    expect(run.stderr).toContain('timegrounded [tivarq] gate passed')
    expect(figures(compareFile('equal-out'))).toEqual(figures((await cliCompare('equal-out/reference', 'equal-out')).record))
  })
})
