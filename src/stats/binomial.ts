/**
 * The exact one-sided binomial test: how likely chance alone gives at least
 * `k` failures in `n` independent tries that each fail with probability `p`.
 * The per-probe rule under repeats uses it (suite/probe-evidence.ts). Pure.
 */

/** P(X ≥ k) for X ~ Binomial(n, p), summed exactly (n is a number of repetitions: small). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  if (k <= 0) return 1
  if (k > n) return 0
  if (p <= 0) return 0
  if (p >= 1) return 1
  let tail = 0
  for (let i = k; i <= n; i++) tail += choose(n, i) * p ** i * (1 - p) ** (n - i)
  return Math.min(1, tail)
}

function choose(n: number, k: number): number {
  let result = 1
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i
  return result
}
