/**
 * The exact one-sided binomial test: how likely chance alone gives at least
 * `k` failures in `n` independent tries that each fail with probability `p`.
 * The per-probe rule under repeats uses it (suite/probe-evidence.ts), and so
 * does McNemar's exact test of two runs' discordant probes (mcnemar.ts). Pure.
 */

/**
 * P(X ≥ k) for X ~ Binomial(n, p), summed exactly term by term. Each term is
 * built in logarithms: C(n, i)·p^i·(1−p)^(n−i) overflows and underflows
 * doubles past about a thousand tries (C(1100, 550) is beyond 1.8e308, 0.5^1100
 * below 5e-324), and McNemar's n is a number of probes, 900 on the test split
 * and more on a generated one.
 */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1
  if (k > n) return 0
  if (p <= 0) return 0
  if (p >= 1) return 1
  const logP = Math.log(p)
  const logQ = Math.log1p(-p)
  let logChoose = logChooseOf(n, k)
  let tail = 0
  for (let i = k; i <= n; i++) {
    tail += Math.exp(logChoose + i * logP + (n - i) * logQ)
    logChoose += Math.log((n - i) / (i + 1))
  }
  return Math.min(1, tail)
}

/** ln C(n, k), as a sum of logarithms of the product's factors. */
function logChooseOf(n: number, k: number): number {
  let result = 0
  for (let i = 1; i <= k; i++) result += Math.log((n - k + i) / i)
  return result
}
