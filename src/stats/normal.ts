/**
 * The standard normal distribution's upper tail and its inverse, for the
 * noise-aware gate's one-sided bound. The tail uses the Abramowitz–Stegun
 * erfc approximation 7.1.26 (absolute error below 1.5·10⁻⁷, far below the
 * levels the gate reads); the inverse bisects it, so both agree exactly.
 */

/** P(Z > z) for a standard normal Z. */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2
  const t = 1 / (1 + 0.3275911 * x)
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
  const erfc = poly * Math.exp(-x * x)
  return z >= 0 ? erfc / 2 : 1 - erfc / 2
}

/** The z with P(Z ≤ z) = `probability` (strictly between 0 and 1). */
export function normalQuantile(probability: number): number {
  let low = -40
  let high = 40
  // 100 halvings of a width-80 bracket reach double precision.
  for (let step = 0; step < 100; step++) {
    const middle = (low + high) / 2
    if (1 - normalUpperTail(middle) < probability) low = middle
    else high = middle
  }
  return (low + high) / 2
}
