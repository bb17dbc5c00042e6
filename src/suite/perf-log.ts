/**
 * An opt-in timing channel for the benchmarks: with `TIMEGROUNDED_PERF_LOG`
 * naming a file, a phase of a run (suite planning in a worker, the reporter's
 * end of run) appends one JSON line with its duration. Off, it costs one
 * environment read; it never changes what a run does or prints.
 */
import { appendFileSync } from 'node:fs'

/** Milliseconds since the process's time origin (the same clock in every phase). */
export function perfNow(): number {
  return performance.now()
}

/** Append `{ phase, ms, pid }` to the file `TIMEGROUNDED_PERF_LOG` names, when it names one. */
export function logPerf(phase: string, startedAt: number): void {
  const file = process.env.TIMEGROUNDED_PERF_LOG
  if (file === undefined || file === '') return
  const line = JSON.stringify({ phase, ms: performance.now() - startedAt, pid: process.pid })
  try {
    appendFileSync(file, `${line}\n`)
  } catch {
    // A benchmark's log that cannot be written must not fail the run it measures.
  }
}
