// Summaries of timing samples shared by the benchmarks (not a benchmark itself: bench/run.js runs *.bench.js only).
import { quantileSorted, sortSamples } from '../dist/stats/quantile.js'

/** The middle sample, or the mean of the two middle ones. */
export function median(values) {
  const sorted = sortSamples(values)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** The p-th percentile by the project's nearest-rank-below rule (src/stats/quantile.ts). */
export function percentile(values, p) {
  return quantileSorted(sortSamples(values), p)
}
