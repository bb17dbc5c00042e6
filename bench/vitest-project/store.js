// The store under test; the watch bench rewrites the marker line below to trigger re-runs.
import { builtinAdapter } from '../../dist/adapters/baselines/index.js'

export const EDIT_MARKER = 0
export const createStore = builtinAdapter('versioned')
