// A suite with a reference store (`timegroundedSuite(memory, { reference })`) under real
// Vitest, on the basic fixture's dev split: the end of the run prints the comparison table,
// writes the reference's run folder and compare.json, and `failIfWorse` fails the run when
// the store is shown worse. compare.json is held to what the built CLI's `timegrounded compare
// --json` computes, in its own process, from the two run folders the run wrote.
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios, FIXTURES, REPO, runVitest, type VitestRun } from './run-vitest.js'

const CLI = join(REPO, 'dist/cli/main.js')
const scenarios = basicScenarios('vitest-reference')

/** A scenario's environment: the reference suite's file, the store's and the reference's bugs. */
function suiteEnv(name: string, bugs: { store: string; reference: string }, failIfWorse?: string[]): Record<string, string> {
  return {
    ...scenarios.env(name),
    TG_INCLUDE: 'probes/reference.probes.ts',
    TG_BUG: bugs.store,
    TG_REFERENCE_BUG: bugs.reference,
    ...(failIfWorse === undefined ? {} : { TG_FAIL_IF_WORSE: JSON.stringify(failIfWorse) }),
  }
}

function explain(run: VitestRun): string {
  return `exit ${run.code}\n${run.output.slice(-8000)}`
}

/** `timegrounded compare A B --json …` of the built CLI: its exit code, its record and its stderr. */
function cliCompare(a: string, b: string, ...more: string[]): { status: number | null; record: Record<string, unknown>; stderr: string } {
  const ran = spawnSync(process.execPath, [CLI, 'compare', a, b, '--json', ...more], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } })
  if (ran.stdout.trim() === '') throw new Error(`timegrounded compare ${a} ${b} printed nothing (exit ${ran.status}): ${ran.stderr}`)
  return { status: ran.status, record: JSON.parse(ran.stdout) as Record<string, unknown>, stderr: ran.stderr }
}

/** The figures of a comparison record: everything but the sides' names and the identity (the CLI reads folders without manifests). */
function figures(record: Record<string, unknown>): Record<string, unknown> {
  const { a, b, identity: _identity, ...rest } = record as { a: Record<string, unknown>; b: Record<string, unknown>; identity: unknown }
  const side = ({ name: _name, ...kept }: Record<string, unknown>) => kept
  return { ...rest, a: side(a), b: side(b) }
}

function compareFile(output: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(output, 'compare.json'), 'utf8')) as Record<string, unknown>
}

describe('a suite compared with a reference store under real Vitest', () => {
  test('a leaking store against a correct reference: the table is printed, compare.json holds what `timegrounded compare` computes of the two folders, and `failIfWorse` fails a run whose probe tests all pass', async () => {
    const bugs = { store: 'stale', reference: 'none' }
    const output = scenarios.env('leaking').TG_OUTPUT!
    // A baseline that knows the leaking store's wrong answers: its probe tests then pass, and only the comparison can fail the run.
    const recorded = await scenarios.run(['-u'], suiteEnv('leaking', bugs))
    expect(recorded.code, explain(recorded)).toBe(0)

    const ungated = await scenarios.run([], suiteEnv('leaking', bugs))
    expect(ungated.code, explain(ungated)).toBe(0)
    expect(ungated.output).toContain('timegrounded compare: is B better than A?')
    expect(ungated.output).toMatch(/A: previous-release \(the reference, [^\n]*leaking-out\/reference\) \(1 repetition\)/)
    expect(ungated.output).toMatch(/│ Transition success +│ +1 \(52 of 52\) │ +0\.384615 \(20 of 52\) │ +−0\.615 │ [^│]+│ B worse +│/)
    expect(ungated.output).toContain('Probes: B fixed 0 and broke 48 of 240 compared.')
    expect(ungated.output).toMatch(
      /timegrounded \[tivarq\] compared with reference "previous-release" \(A\) on all 240 probes: the table above, in [^\n]*leaking-out\/compare\.json/,
    )

    const gated = await scenarios.run([], suiteEnv('leaking', bugs, ['transitionSuccessRate']))
    expect(gated.code, explain(gated)).toBe(1)
    expect(gated.output).toContain('Tests  240 passed (240)')
    const shown =
      /timegrounded \[tivarq\] shown worse than reference "previous-release" on 1 `failIfWorse` metric: (Transition success: B worse \(B − A = −0\.615, interval −0\.\d{3} to −0\.\d{3}\))/.exec(
        gated.output,
      )
    expect(shown, explain(gated)).not.toBeNull()

    expect(existsSync(join(output, 'reference', 'predictions.jsonl'))).toBe(true)
    expect(existsSync(join(output, 'compare.html'))).toBe(true)
    const cli = cliCompare(join(output, 'reference'), output, '--fail-if-worse', 'transitionSuccessRate')
    expect(cli.status).toBe(1)
    // The CLI's own verdict line is the one the run printed, interval and all.
    expect(cli.stderr).toContain(`  ${shown![1]}`)
    expect(figures(compareFile(output))).toEqual(figures(cli.record))
  })

  test('two equal stores: no difference shown on any metric, `failIfWorse` not shown worse, and the run passes', async () => {
    const output = scenarios.env('equal').TG_OUTPUT!
    const run = await scenarios.run([], suiteEnv('equal', { store: 'none', reference: 'none' }, ['transitionSuccessRate', 'staleValueLeakageRate']))
    expect(run.code, explain(run)).toBe(0)
    for (const label of ['Transition success', 'Current-state accuracy', 'Stale-value leakage', 'Unaffected-fact retention'])
      expect(run.output).toContain(`${label}: no difference shown (interval 0.000 to 0.000)`)
    expect(run.output).toContain('Probes: B fixed 0 and broke 0 of 240 compared.')
    expect(run.output).toContain(
      'timegrounded [tivarq] not shown worse than reference "previous-release" on transitionSuccessRate, staleValueLeakageRate (`failIfWorse`)',
    )
    expect(run.output).toContain('timegrounded [tivarq] gate passed')
    const cli = cliCompare(join(output, 'reference'), output, '--fail-if-worse', 'transitionSuccessRate', 'staleValueLeakageRate')
    expect(cli.status).toBe(0)
    expect(figures(compareFile(output))).toEqual(figures(cli.record))
  })

  test('with `repeats`, both stores run every repetition: the reference folder holds one predictions file per repetition, and compare.json is what `timegrounded compare` computes of them', async () => {
    const output = scenarios.env('repeated').TG_OUTPUT!
    const run = await scenarios.run([], { ...suiteEnv('repeated', { store: 'none', reference: 'none' }), TG_SUITE_OPTIONS: JSON.stringify({ repeats: 2 }) })
    expect(run.code, explain(run)).toBe(0)
    expect(run.output).toMatch(/A: previous-release \(the reference, [^\n]*repeated-out\/reference\) \(2 repetitions\)/)
    expect(run.output).toContain('each by its right answers over the first 2 repetitions of each side')
    for (const name of ['predictions-1.jsonl', 'predictions-2.jsonl', 'aggregate.json']) expect(existsSync(join(output, 'reference', name)), name).toBe(true)
    const record = compareFile(output) as { a: { repetitions: number }; b: { repetitions: number } }
    expect([record.a.repetitions, record.b.repetitions]).toEqual([2, 2])
    expect(figures(record)).toEqual(figures(cliCompare(join(output, 'reference'), output).record))
  })

  test('-t compares only the probes both stores answered, says the comparison is partial, and never passes `failIfWorse` on it', async () => {
    const output = scenarios.env('filtered').TG_OUTPUT!
    const run = await scenarios.run(['-t', 'replacement'], suiteEnv('filtered', { store: 'none', reference: 'none' }, ['transitionSuccessRate']))
    expect(run.code, explain(run)).toBe(0)
    expect(run.output).toMatch(
      /timegrounded \[tivarq\] compared with reference "previous-release" \(A\) on a partial run, 16 of 240 probes \(`-t`, files left out\): every verdict holds for these probes only, and says nothing of the 224 that did not run/,
    )
    expect(run.output).toContain('timegrounded [tivarq] partial run: `failIfWorse` is not judged (a chosen subset is never a pass)')
    expect(run.output).not.toContain('not shown worse than reference')
    const record = compareFile(output) as { probes: { mcnemar: { concordant: number } } }
    expect(record.probes.mcnemar.concordant).toBe(16)
    expect(figures(record)).toEqual(figures(cliCompare(join(output, 'reference'), output).record))
  })

  test('sharded over two partition files: a shard only says the comparison waits for the merge; the merge compares exactly as the unsharded run did', async () => {
    const bugs = { TG_BUG: 'stale', TG_REFERENCE_BUG: 'none', TG_INCLUDE: 'probes/reference-part*.probes.ts' }
    const whole = scenarios.env('shards-whole').TG_OUTPUT!
    const unsharded = await scenarios.run([], { ...scenarios.env('shards-whole'), ...bugs })
    expect(unsharded.output).toContain('compared with reference "previous-release" (A) on all 240 probes')

    const env: Record<string, string> = { ...scenarios.env('shards'), ...bugs }
    const output = env.TG_OUTPUT!
    const blobs = join(scenarios.scratch(), 'reference-blobs')
    for (const shard of ['1/2', '2/2']) {
      const part = await scenarios.run([`--shard=${shard}`, '--reporter=blob', `--outputFile=${join(blobs, `blob-${shard.replace('/', '-')}.json`)}`], env)
      expect(part.output).toContain(`shard ${shard}: the comparison with reference "previous-release" is made after`)
      expect(part.output).not.toContain('timegrounded compare: is B better than A?')
      expect(existsSync(join(output, 'compare.json'))).toBe(false)
    }
    const project = join(FIXTURES, 'basic')
    const merged = await runVitest(['--root', project, `--merge-reports=${blobs}`], { cwd: project, env })
    expect(merged.output).toContain('timegrounded compare: is B better than A?')
    expect(merged.output).toContain('compared with reference "previous-release" (A) on all 240 probes')
    expect(figures(compareFile(output))).toEqual(figures(compareFile(whole)))

    // Each shard also left its file: `timegrounded merge` of them compares the same way, without blobs.
    rmSync(join(output, 'compare.json'))
    const shardFiles = ['1', '2'].map((index) => join(output, 'shards', `shard-${index}-of-2.json`))
    const cli = spawnSync(process.execPath, [CLI, 'merge', '--root', project, ...shardFiles], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    })
    expect(cli.stdout).toContain('compared with reference "previous-release" (A) on all 240 probes')
    expect(figures(compareFile(output))).toEqual(figures(compareFile(whole)))
  })
})
