/**
 * McNemar's exact test of two stores on the same probes, and the family-wise
 * level of several such tests. Only the discordant probes (right in one run,
 * not in the other) carry evidence: if the two stores were alike, each
 * discordant probe would be fixed or broken with probability one half, so
 * the count of broken ones is Binomial(b + c, 1/2), and the two-sided p-value
 * is twice the smaller tail. Pure.
 */
import { binomialUpperTail } from './binomial.js'

/** A probe's right answers among the repetitions it was asked in, on each side. */
export interface ProbeShares {
  /** Right answers in run A, and the repetitions of A that asked it. */
  a: { right: number; asked: number }
  b: { right: number; asked: number }
}

/** The discordant probes of two runs: those B answered right more often (fixed) and less often (broken). */
export interface Discordance {
  /** B's share of right answers is higher than A's (with one repetition each: wrong in A, right in B). */
  fixed: number
  /** B's share is lower (right in A, wrong in B). */
  broken: number
  /** Probes with the same share on both sides. */
  concordant: number
}

/**
 * The discordant counts of paired probes. With one repetition a side this is
 * McNemar's b and c; with R repetitions on both sides, a probe is counted by
 * comparing its R answers of B with its R of A, which is again fair under the
 * null: if a probe is right with the same chance in both stores, B's count of
 * right answers is above A's as often as below it, so the same test holds.
 * Only for the same R on both sides: with 1 against 2 repetitions and a
 * chance of 0.9, B's share is below A's in 0.171 of probes and above it in
 * 0.099, so a caller with unequal repetitions compares the first R of each.
 */
export function discordance(probes: readonly ProbeShares[]): Discordance {
  let fixed = 0
  let broken = 0
  let concordant = 0
  for (const { a, b } of probes) {
    // a.right/a.asked against b.right/b.asked, in integers.
    const order = b.right * a.asked - a.right * b.asked
    if (order > 0) fixed++
    else if (order < 0) broken++
    else concordant++
  }
  return { fixed, broken, concordant }
}

/**
 * The two-sided exact McNemar p-value of `fixed` and `broken` discordant
 * probes: 2·P(X ≤ min(fixed, broken)) for X ~ Binomial(fixed + broken, 1/2),
 * at most 1; 1 when there is no discordant probe (nothing tells them apart).
 */
export function exactMcNemar(fixed: number, broken: number): number {
  for (const [name, count] of [
    ['fixed', fixed],
    ['broken', broken],
  ] as const) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`McNemar's \`${name}\` must be a whole number of probes, got ${count}.`)
  }
  const n = fixed + broken
  if (n === 0) return 1
  // P(X ≤ m) = P(X ≥ n − m) at one half, by symmetry.
  const lowerTail = binomialUpperTail(n - Math.min(fixed, broken), n, 0.5)
  return Math.min(1, 2 * lowerTail)
}

/**
 * The level each of `tests` tests is held to so that, together, chance makes
 * any of them pass `alpha` at most that often: alpha / tests (Bonferroni, the
 * gate's correction, suite/noise.ts). It assumes nothing about how the tests
 * depend on each other, which families of one run do.
 */
export function bonferroniLevel(alpha: number, tests: number): number {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`\`alpha\` must lie strictly between 0 and 1, got ${alpha}.`)
  if (!Number.isInteger(tests) || tests < 1) throw new RangeError(`\`tests\` must be a whole number of at least 1, got ${tests}.`)
  return alpha / tests
}
