// Issue 9, as its user met it: real Vitest on test/fixtures/vitest-projects/basic (the smoke
// split), each scenario one way a store could make the gate greener than it is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { basicScenarios, runVitest } from './run-vitest.js'

const { scratch, env, run } = basicScenarios('vitest-gate-honesty')
const LEAKAGE_CAP = JSON.stringify({ staleValueLeakageRate: { max: 0.05 } })
// The two smoke probes a store that applies changes in arrival order answers wrongly (a late correction loses).
const ARRIVAL_FAILURES = 'retro_correction-00-q6, delayed_arrival-00-q4'

describe('a store that errors never makes the gate greener', () => {
  test('recorded with its wrong answers, then throwing on exactly those probes: exit 1, the errored probes named, never "gate passed"; each rewrite says what it accepted', async () => {
    const variables = env('errors')
    // 1. The baseline of a store that applies changes in arrival order. `-u` writes it, says what it accepted,
    //    and still fails the leakage threshold it breaks (issue point 2).
    const recorded = await run(['-u'], { ...variables, TG_BUG: 'arrival', TG_THRESHOLDS: LEAKAGE_CAP })
    expect(recorded.output).toContain(`timegrounded [tivarq] baseline written to ${variables.TG_BASELINE}: 60 probes, 2 recorded as known failures`)
    expect(recorded.output).toContain(
      `timegrounded [tivarq] accepted: no earlier baseline of this suite to compare with; 2 probes recorded as failing (${ARRIVAL_FAILURES})`,
    )
    expect(recorded.output).toContain(
      'timegrounded [tivarq] gate violation: staleValueLeakageRate is 1 of 15 (0.066667), above the threshold (max 0.05); families outside the bound: delayed_arrival 1/1. Fix the store, or change the threshold in vitest.config.ts (`-u` never lifts a threshold).',
    )
    expect(recorded.output).toContain('timegrounded [tivarq] gate failed (thresholds; the baseline just written): 1 violation')
    expect(recorded.code).toBe(1)
    const baseline = JSON.parse(readFileSync(variables.TG_BASELINE!, 'utf8'))
    expect(
      Object.entries(baseline.suites.tivarq.probes)
        .filter(([, outcome]) => outcome === 'wrong')
        .map(([id]) => id),
    ).toEqual(ARRIVAL_FAILURES.split(', ').sort())

    // 2. The same store, now throwing where it would have answered wrongly: those errors are not known failures.
    const throwing = await run([], { ...variables, TG_BUG: 'arrival-throws', CI: 'true' })
    expect(throwing.output).toContain('Tests  2 failed | 58 passed (60)')
    expect(throwing.output).toContain(
      `timegrounded [tivarq] INCOMPLETE: 2 of 60 probes errored (${ARRIVAL_FAILURES}); every rate above leaves them out, so the run cannot pass (an error is never a known failure)`,
    )
    expect(throwing.output).toContain(
      `timegrounded [tivarq] gate failed (no thresholds set; baseline ${variables.TG_BASELINE}): 2 probes errored (an incomplete run never passes)`,
    )
    expect(throwing.output).not.toContain('gate passed')
    expect(throwing.output).not.toContain('known failures (failing in the baseline too')
    expect(throwing.code).toBe(1)
    // report.json keeps upstream's figures: errors are not scored (leakage over the 14 answered stale-risk cases).
    const report = JSON.parse(readFileSync(join(variables.TG_OUTPUT!, 'report.json'), 'utf8'))
    expect(report.complete).toBe(false)
    expect(report.probe_counts).toEqual({ total: 60, answered: 58, unsupported: 0, error: 2 })
    expect(report.metrics.stale_value_leakage_rate).toEqual({ score: 0, cases: 14 })

    // 3. Thresholds without a baseline: met by the rates, still no pass for an incomplete run.
    const unbaselined = await run([], { ...env('errors-no-baseline'), TG_BUG: 'arrival-throws', TG_THRESHOLDS: LEAKAGE_CAP })
    expect(unbaselined.output).toContain('timegrounded [tivarq] gate failed (thresholds; no baseline): 2 probes errored (an incomplete run never passes)')
    expect(unbaselined.code).toBe(1)
    // 4. `-u` refuses to record errors.
    const refused = await run(['-u'], { ...variables, TG_BUG: 'arrival-throws' })
    expect(refused.output).toContain('timegrounded [tivarq] baseline not written: 2 probes errored; a baseline records answers, never errors')
    expect(refused.code).toBe(1)
    for (const output of [recorded.output, throwing.output, unbaselined.output, refused.output]) expect(output).not.toContain('`vitest -u`')

    // 5. Each rewrite says what it accepted: the probes newly recorded as failing, the metrics that got worse, their families.
    const rewrite = await run(['-u'], { ...variables, TG_BUG: 'stale' })
    expect(rewrite.output).toMatch(/timegrounded \[tivarq\] accepted: 10 probes newly recorded as failing \(replacement-00-q3, reversal-00-q3, .*\)\n/)
    expect(rewrite.output).toContain(
      'timegrounded [tivarq] accepted: staleValueLeakageRate rose from 1 of 15 to 8 of 15 (0.066667 → 0.533333), worse; families: add_vs_replace 0/1 → 1/1,',
    )
    expect(rewrite.output).toContain(
      'timegrounded [tivarq] accepted: transitionSuccessRate fell from 12 of 13 to 5 of 13 (0.923077 → 0.384615), worse; families: ',
    )
    expect(rewrite.output).toContain('timegrounded [tivarq] gate passed (no thresholds set; the baseline just written)')
    expect(rewrite.code).toBe(0)
  })
})

describe("answers the package's own schema rejects are errors", () => {
  test('known without a value (missing or null) and withdrawn still carrying the old value fail their probes, naming the probe and the zod issue', async () => {
    const result = await run([], env('invalid', { TG_BUG: 'invalid' }))
    expect(result.output).toContain(
      'withdrawal-00-q3 (withdrawal, target post, as of 2026-04-10; asked "As of 2026-04-10, what is my meeting window for personal?"): the store failed: query: the answer {"state":"withdrawn","value":"morning"} fails answerSchema: value: state withdrawn must carry value null, not "morning"',
    )
    expect(result.output).toContain(
      'add_vs_replace-00-q1 (add_vs_replace, target pre, as of 2026-11-23; asked "As of 2026-11-23, what is my note format for personal?"): the store failed: query: the answer {"state":"known"} fails answerSchema: value: a known answer needs a value (a string or a list of strings)',
    )
    expect(result.output).toContain(
      'the store failed: query: the answer {"state":"known","value":null} fails answerSchema: value: a known answer needs a value',
    )
    expect(result.output).not.toContain('Expected withdrawn, returned withdrawn')
    expect(result.output).toContain('Tests  11 failed | 49 passed (60)')
    expect(result.code).toBe(1)
  })
})

describe('plugin, reporter and suite options are checked when the config loads', () => {
  test('misspelt metric and family names and out-of-range numbers stop the run before any test, naming option, value, choices and the close name', async () => {
    const options = {
      thresholds: { staleValueLeakage: { max: 0.05 }, transitionSucessRate: { min: 0.9 } },
      regression: { tolerance: -1 },
      familyThresholds: { withdrawl: { currentStateAccuracy: { min: 1 } } },
      html: '',
    }
    const result = await run([], env('options', { TG_OPTIONS: JSON.stringify(options) }))
    expect(result.output).toContain('timegrounded(options) in vitest.config: invalid options:')
    expect(result.output).toContain(
      '  `thresholds.staleValueLeakage`: not a metric; did you mean `staleValueLeakageRate`? Valid: `transitionSuccessRate`, `currentStateAccuracy`, `staleValueLeakageRate`,',
    )
    expect(result.output).toContain('  `thresholds.transitionSucessRate`: not a metric; did you mean `transitionSuccessRate`?')
    expect(result.output).toContain('  `familyThresholds.withdrawl`: not a family; did you mean `withdrawal`? Valid: `replacement`, `reversal`, `withdrawal`,')
    expect(result.output).toContain('  `regression.tolerance` is -1: a tolerance is an allowed worsening, from 0 to 1')
    expect(result.output).toContain(
      '  `html` is "": a file path relative to the project root, or false for no HTML report (leave it out for report.html in `outputDir`)',
    )
    expect(result.output).not.toContain('gate passed')
    expect(result.output).not.toContain('probes ran')
    expect(result.code).toBe(1)
  })

  test('options that cannot mean what the user wants stop the run as the config loads, each with its fix (issue 19 point 6)', async () => {
    const options = {
      thresholds: { staleValueLeakageRate: { min: 0.1 }, transitionSuccessRate: { max: 0.9 }, currentStateAccuracy: { min: 0 } },
      familyThresholds: { expiration: {} },
      regression: { metrics: [] },
    }
    const result = await run([], env('meaningless-options', { TG_OPTIONS: JSON.stringify(options) }))
    expect(result.output).toContain('timegrounded(options) in vitest.config: invalid options:')
    expect(result.output).toContain(
      '  `thresholds.staleValueLeakageRate` is {"min":0.1}: staleValueLeakageRate is lower-is-better, so `min` would fail a store for being better; bound it with `{ max: 0.05 }`',
    )
    expect(result.output).toContain('  `thresholds.transitionSuccessRate` is {"max":0.9}: transitionSuccessRate is higher-is-better')
    expect(result.output).toContain('  `thresholds.currentStateAccuracy` is {"min":0}: `{ min: 0 }` can never fail')
    expect(result.output).toContain('  `familyThresholds.expiration` is {}: no bound for this family')
    expect(result.output).toContain("  `regression.metrics` is []: an empty list gates nothing against the baseline; write 'none'")
    expect(result.output).not.toContain('probes ran')
    expect(result.code).toBe(1)
  })

  test('a plain JavaScript config is checked the same way', async () => {
    const project = join(scratch(), 'js-config')
    mkdirSync(project, { recursive: true })
    writeFileSync(
      join(project, 'vitest.config.mjs'),
      "import { defineConfig } from 'vitest/config'\nimport { timegrounded } from 'timegrounded/vitest'\nexport default defineConfig({ plugins: [timegrounded({ thresholds: { staleValueLeakageRate: { max: 5 } }, resamples: 10 })] })\n",
    )
    const result = await runVitest(['run', '--root', project], { cwd: project, env: { TG_CACHE_DIR: join(scratch(), 'cache') } })
    expect(result.output).toContain('  `thresholds.staleValueLeakageRate.max` is 5: staleValueLeakageRate is a rate between 0 and 1')
    expect(result.output).toContain('  `resamples` is 10: a whole number from 500 to 1000000 (OPTION_RANGES.resamples)')
    expect(result.code).toBe(1)
  })

  test('suite options too: the file fails at collection, naming each bad option', async () => {
    const suiteOptions = { spilt: 'smoke', families: ['withdrawl'], concurrency: 0 }
    const result = await run([], env('suite-options', { TG_SUITE_OPTIONS: JSON.stringify(suiteOptions) }))
    expect(result.output).toContain('SuiteOptionError: timegroundedSuite(memory, options): invalid options:')
    expect(result.output).toContain('  `families[0]` is "withdrawl": not a family; did you mean `withdrawal`?')
    expect(result.output).toContain('  `concurrency` is 0: a whole number from 1 to 64 (OPTION_RANGES.concurrency)')
    expect(result.output).toContain('  `spilt`: not an option of timegroundedSuite(); did you mean `split`?')
    expect(result.code).toBe(1)
  })
})

describe('an edited baseline never makes the gate greener (issue 19, point 3)', () => {
  test("the correct store's baseline, hand-edited so that the stale store's failures are known failures with its metrics: refused, exit 1, no probe passes by leniency", {
    timeout: 180_000,
  }, async () => {
    const variables = env('edited')
    const recorded = await run(['-u'], variables)
    expect(recorded.code).toBe(0)
    // The stale store's own baseline gives the figures a tamperer would copy in.
    const stale = env('edited-stale')
    expect((await run(['-u'], { ...stale, TG_BUG: 'stale' })).output).toContain('baseline written to')
    const correct = JSON.parse(readFileSync(variables.TG_BASELINE!, 'utf8'))
    const leaking = JSON.parse(readFileSync(stale.TG_BASELINE!, 'utf8'))
    const wrong = Object.entries(leaking.suites.tivarq.probes as Record<string, string>)
      .filter(([, outcome]) => outcome === 'wrong')
      .map(([id]) => id)
      .sort()
    expect(wrong.length).toBeGreaterThan(0)

    const untampered = await run([], { ...variables, TG_BUG: 'stale' })
    expect(untampered.output).toContain(`Tests  ${wrong.length} failed | ${60 - wrong.length} passed (60)`)
    expect(untampered.code).toBe(1)

    for (const id of wrong) correct.suites.tivarq.probes[id] = 'wrong'
    correct.suites.tivarq.metrics = leaking.suites.tivarq.metrics
    correct.suites.tivarq.by_family = leaking.suites.tivarq.by_family
    writeFileSync(variables.TG_BASELINE!, `${JSON.stringify(correct, null, 2)}\n`)
    const edited = await run([], { ...variables, TG_BUG: 'stale' })
    expect(edited.output).toContain(`Tests  ${wrong.length} failed | ${60 - wrong.length} passed (60)`)
    expect(edited.output).toContain(
      `timegrounded [tivarq] baseline refused: ${variables.TG_BASELINE}, suite "tivarq": probes.${wrong[0]}: stored "wrong", derived from the recorded answers "correct"`,
    )
    expect(edited.output).toContain('Re-record it with `npx vitest run -u`.')
    expect(edited.output).not.toContain('gate passed')
    expect(edited.code).toBe(1)
  })
})
