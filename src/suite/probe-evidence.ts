/**
 * The per-probe rule under repeats: a probe wrong in every repetition of a
 * noisy store fails its test on its own only when chance cannot explain it.
 * The test is an exact one-sided binomial test of the probe's wrong count
 * against the baseline's per-answer error rate (its flaky probes' wrong
 * answers over the answers of every probe it did not get wrong every time),
 * at 1% for the run: each of the suite's probes is tested at 1%/P
 * (Bonferroni), the per-probe share of the same 99% the metric gate holds. A
 * probe that fails the test is suspect: its test passes with a note giving
 * its counts and the baseline's. A deterministic baseline has an error rate
 * of 0, so every probe wrong in all repetitions fails, as without repeats.
 * Pure.
 */
import { binomialUpperTail } from '../stats/binomial.js'
import type { BaselineMatch } from './baseline.js'
import { NOISE_CONFIDENCE } from './noise.js'

/** The chance a correct but noisy store's run fails by the per-probe rule, over all its probes (Bonferroni). */
export const PROBE_RULE_ERROR = 1 - NOISE_CONFIDENCE

/** The baseline's noise per answer, from its recorded repetitions. */
export interface BaselineNoise {
  /** Wrong answers of the probes the baseline got right in some repetition. */
  wrong: number
  /** Answers of those probes and of the probes right in every repetition. */
  answered: number
  /** wrong / answered (0 when nothing was answered). */
  rate: number
  repetitions: number
}

/** The baseline's noise, when it was recorded with repeats (else null: no noise measured, the exact rule). */
export function baselineNoise(match: BaselineMatch): BaselineNoise | null {
  if (match.status !== 'ok' || match.entry.repeats === undefined) return null
  const { repetitions, flaky } = match.entry.repeats
  let wrong = 0
  let answered = 0
  for (const [probeId, outcome] of Object.entries(match.entry.probes)) {
    // A probe wrong in every repetition is a systematic failure, not noise: it stays out of the rate.
    if (outcome === 'correct') answered += repetitions
    else if (outcome === 'wrong' && flaky[probeId] !== undefined) {
      answered += repetitions
      wrong += repetitions - flaky[probeId]
    }
  }
  return { wrong, answered, rate: answered === 0 ? 0 : wrong / answered, repetitions }
}

/** How often the baseline got a probe right, as `right/repetitions`, or null when it has no repeats or no such probe. */
export function baselineRight(match: BaselineMatch, probeId: string): string | null {
  if (match.status !== 'ok' || match.entry.repeats === undefined) return null
  const outcome = match.entry.probes[probeId]
  const { repetitions, flaky } = match.entry.repeats
  if (outcome === 'correct') return `${repetitions}/${repetitions}`
  if (outcome === 'wrong') return `${flaky[probeId] ?? 0}/${repetitions}`
  return null
}

/** The binomial test of one probe. */
export interface ProbeEvidence {
  wrong: number
  answered: number
  noise: BaselineNoise
  /** P(at least `wrong` of `answered` wrong | the baseline's rate). */
  pValue: number
  /** 1% / probes. */
  level: number
  probes: number
  /** pValue < level: chance does not explain it, the probe fails. */
  strong: boolean
}

/** Test a probe wrong `wrong` times in `answered` repetitions against the baseline's noise, among `probes` probes. */
export function probeEvidence(wrong: number, answered: number, noise: BaselineNoise, probes: number): ProbeEvidence {
  const count = Math.max(1, probes)
  const level = PROBE_RULE_ERROR / count
  const pValue = binomialUpperTail(wrong, answered, noise.rate)
  return { wrong, answered, noise, pValue, level, probes: count, strong: pValue < level }
}

/** The test in words: `at the baseline's error rate (12 wrong of 720 answers, 1.67%), chance gives 3 of 3 wrong with p = 4.6e-6, below 1%/240 = 4.2e-5 (Bonferroni)`. */
export function renderEvidence(evidence: ProbeEvidence): string {
  const { noise } = evidence
  const share = `${(noise.rate * 100).toFixed(2)}%`
  const compare = evidence.strong ? 'below' : 'not below'
  return `at the baseline's error rate (${noise.wrong} wrong of ${noise.answered} answers over ${noise.repetitions} repetitions, ${share}), chance gives ${evidence.wrong} of ${evidence.answered} wrong with p = ${evidence.pValue.toExponential(1)}, ${compare} ${Math.round(PROBE_RULE_ERROR * 100)}%/${evidence.probes} = ${evidence.level.toExponential(1)} (exact one-sided binomial test, Bonferroni over the suite's probes)`
}
