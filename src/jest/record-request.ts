/**
 * The one-shot request to record the baseline, from the watch-mode key to
 * the reporter of the run it starts. Both live in Jest's main process but
 * may be loaded as separate module copies, so the flag sits on the global
 * object under a registered symbol.
 */
const RECORD_REQUEST = Symbol.for('timegrounded.jest.recordBaseline')

/** What a key that records the baseline must be: one character, and not `u`, which Jest keeps for itself. */
export const WATCH_KEY_RULE = 'one character other than u (Jest keeps u)'

/** Whether `key` can be the watch-mode key that records the baseline (see WATCH_KEY_RULE). */
export function isWatchKey(key: unknown): key is string {
  return typeof key === 'string' && [...key].length === 1 && key !== 'u'
}

/** Ask the next run to record the baseline. */
export function requestRecord(): void {
  ;(globalThis as Record<symbol, unknown>)[RECORD_REQUEST] = true
}

/** Whether the run starting now was asked to record; the request is used up. */
export function takeRecordRequest(): boolean {
  const store = globalThis as Record<symbol, unknown>
  const requested = store[RECORD_REQUEST] === true
  delete store[RECORD_REQUEST]
  return requested
}
