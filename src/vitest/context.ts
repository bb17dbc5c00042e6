/**
 * Vitest's typing of what the suite core records: the record a test carries
 * in `task.meta.timegrounded` (a probe's or a time-grounded question's), and
 * `inject('timegrounded')` (what the reporter gives the workers).
 *
 * `TaskMeta` is not augmented: Vitest 4 declares it in `@vitest/runner` (which
 * Vitest 5 no longer publishes) and Vitest 5 in a chunk of its own, and an
 * augmentation of `vitest` does not reach an interface `vitest` re-exports. So
 * the record goes in and out of the meta through the two functions below,
 * typed against `vitest`'s own `TaskMeta`, which both majors export.
 */
import type { TaskMeta } from 'vitest'
import { CHANNEL_KEY, type ProbeRecord, type WorkerContext } from '../suite/records.js'
import type { TimeGroundedCaseRecord } from '../time-grounded/cases.js'

declare module 'vitest' {
  interface ProvidedContext {
    timegrounded: WorkerContext
  }
}

/** A TIVARQ probe's record, or a time-grounded question's (`kind: 'timegrounded-question'`). */
export type TestRecord = ProbeRecord | TimeGroundedCaseRecord

/** The `meta` option of a test that starts out carrying `record`. */
export function metaCarrying(record: TestRecord): Partial<TaskMeta> {
  return { [CHANNEL_KEY]: record } as Partial<TaskMeta>
}

/** Put a finished record in a running test's meta, where the reporter reads it. */
export function putRecord(meta: TaskMeta, record: TestRecord): void {
  ;(meta as Record<string, unknown>)[CHANNEL_KEY] = record
}
