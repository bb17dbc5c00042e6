/**
 * The per-probe rule under repeats (suite/probe-evidence.ts, through
 * `judgeProbe` and `settleProbe`, which the Vitest and Jest tests call): a
 * probe wrong in every repetition fails on its own only when an exact
 * binomial test against the baseline's error rate rejects chance at 1% over
 * the suite's probes; otherwise it is suspect and its test passes with its
 * counts and the baseline's. A deterministic baseline keeps the exact rule.
 */
import { describe, expect, test } from 'vitest'
import type { BaselineMatch, BaselineSuite } from '../../src/suite/baseline.js'
import { baselineNoise } from '../../src/suite/probe-evidence.js'
import { settleProbe } from '../../src/suite/probes.js'
import { judgeProbe } from '../../src/suite/records.js'
import { binomialUpperTail } from '../../src/stats/binomial.js'
import { loadSplit } from '../../src/tivarq/dataset.js'
import type { PredictionRow } from '../../src/tivarq/results.js'

const split = await loadSplit(undefined, 'dev')
const probe = split.probes.find((candidate) => candidate.expected.state === 'known')!
const episode = split.episodes.find((candidate) => candidate.episode_id === probe.episode_id)!

/** The probe answered `misheard` (wrong) in each of `repetitions` repetitions. */
function wrongRows(repetitions: number): PredictionRow[] {
  return Array.from({ length: repetitions }, (_, repetition) => ({
    probe_id: probe.probe_id,
    episode_id: probe.episode_id,
    expected: probe.expected,
    role: probe.role,
    transition_id: probe.transition_id,
    phase: probe.phase,
    capability: probe.capability,
    old_value: probe.old_value,
    family: episode.family,
    repetition,
    status: 'answered',
    prediction: { state: 'known', value: 'misheard' },
    latency_ms: 1,
  })) as PredictionRow[]
}

/**
 * A baseline over `repetitions` of 240 probes: `flakyProbes` of them right in all but one repetition (so
 * `flakyProbes` wrong answers of 240·repetitions), the probe under test right every time.
 */
function baseline(repetitions: number, flakyProbes: number): BaselineMatch {
  const probes: Record<string, 'correct' | 'wrong'> = { [probe.probe_id]: 'correct' }
  const flaky: Record<string, number> = {}
  for (let i = 0; i < 239; i++) {
    probes[`other-${i}`] = i < flakyProbes ? 'wrong' : 'correct'
    if (i < flakyProbes) flaky[`other-${i}`] = repetitions - 1
  }
  const entry = { probes, repeats: { repetitions, identical: flakyProbes === 0, flaky, spread: {}, episodes: {} } } as unknown as BaselineSuite
  return { status: 'ok', entry }
}

describe('a probe wrong in every repetition', () => {
  test('the binomial tail is exact: P(X ≥ k) for small n', () => {
    expect(binomialUpperTail(3, 3, 0.1)).toBeCloseTo(0.001, 12)
    expect(binomialUpperTail(2, 3, 0.5)).toBeCloseTo(0.5, 12)
    expect(binomialUpperTail(1, 5, 0.2)).toBeCloseTo(1 - 0.8 ** 5, 12)
    expect(binomialUpperTail(0, 5, 0.2)).toBe(1)
    expect(binomialUpperTail(3, 3, 0)).toBe(0)
  })

  test("the baseline's error rate counts the flaky probes' wrong answers over every probe it did not get wrong every time", () => {
    expect(baselineNoise(baseline(3, 72))).toEqual({ wrong: 72, answered: 720, rate: 0.1, repetitions: 3 })
    expect(baselineNoise({ status: 'missing' })).toBeNull()
  })

  test('3 of 3 wrong against a 10% noisy baseline is suspect (p = 0.001, above 1%/240): the test passes, with the counts', () => {
    const settled = settleProbe(wrongRows(3), episode, probe, baseline(3, 72), false, 'report', true, 240)
    expect(settled.decision).toBe('suspect')
    expect(settled.message()).toContain(
      "suspect, not failing CI on its own (at the baseline's error rate (72 wrong of 720 answers over 3 repetitions, 10.00%), chance gives 3 of 3 wrong with p = 1.0e-3, not below 1%/240 = 4.2e-5",
    )
    expect(settled.message()).toContain('right in 3/3 repetitions of the baseline')
  })

  test('5 of 5 wrong against a 1% noisy baseline fails (p = 1e-10, below 1%/240)', () => {
    const settled = settleProbe(wrongRows(5), episode, probe, baseline(5, 12), false, 'report', true, 240)
    expect(settled.decision).toBe('fail')
    expect(settled.message()).toMatch(
      /^wrong in all 5 repetitions, beyond chance \(at the baseline's error rate \(12 wrong of 1200 answers over 5 repetitions, 1\.00%\).*p = 1\.0e-10, below 1%\/240/,
    )
  })

  test('a deterministic baseline (every repetition alike: error rate 0) keeps the exact rule: wrong in every repetition fails', () => {
    expect(judgeProbe(wrongRows(3), baseline(3, 0), false, 'report', true, 240).decision).toBe('fail')
  })

  test('without a baseline recorded with repeats, and without repeats, nothing changes: the probe fails', () => {
    expect(judgeProbe(wrongRows(3), { status: 'missing' }, false, 'report', true, 240).decision).toBe('fail')
    expect(judgeProbe(wrongRows(1), baseline(3, 72), false, 'report', true, 240).decision).toBe('fail')
  })

  test('a known failure and `-u` are unchanged', () => {
    const known = baseline(3, 72)
    if (known.status === 'ok') known.entry.probes[probe.probe_id] = 'wrong'
    expect(judgeProbe(wrongRows(3), known, false, 'report', true, 240).decision).toBe('known_failure')
    expect(judgeProbe(wrongRows(3), baseline(3, 72), true, 'report', true, 240).decision).toBe('known_failure')
  })
})
