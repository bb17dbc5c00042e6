// The store under test; the watch bench rewrites the marker line below to trigger re-runs.
import { referenceStore } from '../../dist/adapters/reference/index.js'

export const EDIT_MARKER = 0
export const createStore = referenceStore('versioned')
