/**
 * What every reporter decides as a run starts, before any test: whether the
 * run rewrites the baseline, and where the baseline file is. Kept apart from
 * the end of a run so that a reporter can decide it without loading scoring,
 * rendering and the page (the Vitest reporter loads those lazily).
 */
import { isAbsolute, resolve } from 'node:path'
import type { ResolvedReporterOptions } from './options.js'
import type { UpdateRequest } from './outcome.js'

/** What a reporter knows of its run's update mode. */
export interface UpdateMode {
  /** The runner is in update mode for this run (`-u`, or a key that turned it on). */
  updating: boolean
  /** A watch session. */
  watching: boolean
  /** The first run of the process (or of the watch session). */
  firstRun: boolean
  /** The session was started with `-u`. */
  startedWithUpdate: boolean
  /** The user pressed the key that records the baseline for this run. */
  keyPressed: boolean
}

/**
 * Whether a run rewrites the baseline, for every runner: `-u` records in a single run and on the first
 * run of a watch session; the record key records; a re-run a saved file starts while `-u` stays on is
 * compared with the baseline instead (a regression must never be recorded by accident).
 */
export function updateRequestOf(mode: UpdateMode): UpdateRequest {
  if (mode.keyPressed) return { kind: 'update' }
  if (!mode.updating) return { kind: 'none' }
  if (!mode.watching || mode.firstRun || !mode.startedWithUpdate) return { kind: 'update' }
  return { kind: 'ignored-in-watch' }
}

/** The baseline file's absolute path (relative to the project root when given so), or null when baselines are off. */
export function baselinePathOf(options: ResolvedReporterOptions, root: string): string | null {
  const file = options.baseline
  if (file === false) return null
  return isAbsolute(file) ? file : resolve(root, file)
}
