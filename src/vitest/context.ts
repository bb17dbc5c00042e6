/**
 * Vitest's typing of what the suite core records: `task.meta.timegrounded`
 * (a probe's or a time-grounded question's record) and
 * `inject('timegrounded')` (what the reporter gives the workers).
 */
import type { ProbeRecord, WorkerContext } from '../suite/records.js'
import type { TimeGroundedCaseRecord } from '../time-grounded/cases.js'

declare module '@vitest/runner' {
  interface TaskMeta {
    /** A TIVARQ probe's record, or a time-grounded question's (`kind: 'timegrounded-question'`). */
    timegrounded?: ProbeRecord | TimeGroundedCaseRecord
  }
}
declare module 'vitest' {
  interface ProvidedContext {
    timegrounded: WorkerContext
  }
}
