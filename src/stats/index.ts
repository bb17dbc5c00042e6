/** Statistics: pure functions over plain arrays; every random draw is seeded. */
export { seededRandom } from './random.js'
export type { SeededRandom } from './random.js'
export { sortSamples, percentileIndex, quantileSorted, mean, sampleStddev, roundHalfEven } from './quantile.js'
export type { SortedSamples } from './quantile.js'
export {
  bootstrapPercentileInterval,
  pairedBootstrapDelta,
  BootstrapOptionError,
  MIN_RESAMPLES,
  DEFAULT_RESAMPLES,
} from './bootstrap.js'
export type { BootstrapOptions, BootstrapInterval, PairedDelta } from './bootstrap.js'
