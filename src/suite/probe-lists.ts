/**
 * Lists of probe ids as the verdict lines and the reports name them: a few
 * ids in a line, the rest counted, and the sentence an incomplete run owes
 * its reader. The suite's verdicts, the CLI and the HTML report all word
 * them from here. Pure.
 */
import type { PredictionRow } from '../tivarq/results.js'

/** Probe ids named one by one in a line, up to this many. @default 20 */
export const PROBES_LISTED = 20

/** Probe ids for one line: the first `PROBES_LISTED`, then how many more (they are all in predictions.jsonl). */
export function listProbes(ids: readonly string[], rest = 'predictions.jsonl'): string {
  return ids.length > PROBES_LISTED ? `${ids.slice(0, PROBES_LISTED).join(', ')}, … (${ids.length - PROBES_LISTED} more in ${rest})` : ids.join(', ')
}

/**
 * The sentence an incomplete run owes its reader, the same in the CLI and the
 * Vitest reporter: how many probes errored, which, and that every rate leaves
 * them out (so the rates of an incomplete run look better than they are).
 * Null when no row is an error.
 */
export function renderErroredProbes(rows: readonly PredictionRow[], repetitions = 1): string | null {
  const errored = rows.filter((row) => row.status === 'error').map((row) => row.probe_id)
  if (errored.length === 0) return null
  const what =
    repetitions > 1
      ? `${errored.length} of ${rows.length} answers (${rows.length / repetitions} probes × ${repetitions} repetitions) errored`
      : `${errored.length} of ${rows.length} probes errored`
  return `INCOMPLETE: ${what} (${listProbes([...new Set(errored)])}); every rate above leaves them out, so the run cannot pass`
}
