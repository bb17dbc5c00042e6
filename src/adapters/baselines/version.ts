import { HARNESS_VERSION } from '../../version.js'

/** Baselines are versioned with the harness. */
export const BASELINE_VERSION = `timegrounded-${HARNESS_VERSION}`
