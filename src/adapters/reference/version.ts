import { HARNESS_VERSION } from '../../version.js'

/** Reference stores are versioned with the harness (their `adapterVersion`). */
export const REFERENCE_STORE_VERSION = `timegrounded-${HARNESS_VERSION}`
