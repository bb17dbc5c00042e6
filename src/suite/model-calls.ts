/**
 * A suite's model calls, counted per file and summed for its report. Apart from
 * records.ts, whose checks pull in the baseline's schemas: a CLI run, which
 * sums its own process's calls, loads neither them nor zod.
 */
import type { ModelCallCounts } from '../tivarq/report-shape.js'

/** Key of the model calls a suite made in its file, in a Vitest suite's metadata. */
export const MODEL_CALLS_KEY = 'timegrounded:model-calls'

/** Whether `value` (read back from a runner's metadata or a shard file) is a count of model calls. */
export function isModelCalls(value: unknown): value is ModelCallCounts {
  if (typeof value !== 'object' || value === null) return false
  const calls = value as Record<string, unknown>
  return (['replayed', 'recorded', 'live'] as const).every((name) => Number.isSafeInteger(calls[name]) && (calls[name] as number) >= 0)
}

/** The calls of a suite's files together; null when none was made (a store with no model: report.json stays as upstream's). */
export function totalModelCalls(files: Iterable<ModelCallCounts>): ModelCallCounts | null {
  const total: ModelCallCounts = { replayed: 0, recorded: 0, live: 0 }
  for (const calls of files) {
    total.replayed += calls.replayed
    total.recorded += calls.recorded
    total.live += calls.live
  }
  return total.replayed + total.recorded + total.live === 0 ? null : total
}
