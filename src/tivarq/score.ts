/**
 * The TIVARQ v1 scorer (spec section 5): prediction rows in, `report.json` out.
 * One scorer for the CLI, the library and the Vitest reporter. Pure: no I/O.
 * This file holds the one pass over the rows and the report's assembly; what it
 * assembles is judged in row-verdicts.ts, grouped in transitions.ts, counted in
 * metrics-tally.ts and resampled in episode-bootstrap.ts.
 */
import { FAMILIES } from './vocabulary.js'
import type { PredictionRow } from './results.js'
import type { FamilyReport, ProbeCounts, ScoreOptions, TivarqReport } from './report-shape.js'
import { Verdicts } from './row-verdicts.js'
import { familyOf, outcomesOf } from './transitions.js'
import { MetricsTally } from './metrics-tally.js'
import { intervalOf, talliesOf } from './episode-bootstrap.js'

/** Families in the benchmark's order, then any others alphabetically. */
function familyOrder(families: Iterable<string>): string[] {
  const known: readonly string[] = FAMILIES
  return [...new Set(families)].sort((a, b) => {
    const ia = known.indexOf(a)
    const ib = known.indexOf(b)
    if (ia !== -1 || ib !== -1) return (ia === -1 ? Infinity : ia) - (ib === -1 ? Infinity : ib)
    return a < b ? -1 : a > b ? 1 : 0
  })
}

/** A family's rows, in row order, and their tally. */
interface FamilySet {
  rows: PredictionRow[]
  tally: MetricsTally
}

/**
 * The one pass of `scoreRows` over the rows: counted by status, each answered
 * row judged once and added to its family's tally and the whole's, and each
 * family's rows gathered in row order for its transitions.
 */
function readRows(rows: readonly PredictionRow[]) {
  const counts: ProbeCounts = { total: rows.length, answered: 0, unsupported: 0, error: 0 }
  const verdicts = new Verdicts()
  const all = new MetricsTally()
  const families = new Map<string, FamilySet>()
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at] as PredictionRow
    counts[row.status]++
    const family = familyOf(row)
    let set = families.get(family)
    if (set === undefined) {
      set = { rows: [], tally: new MetricsTally() }
      families.set(family, set)
    }
    set.rows.push(row)
    if (row.status !== 'answered') continue
    const verdict = verdicts.judge(row)
    set.tally.add(row, verdict)
    all.add(row, verdict)
  }
  return { counts, verdicts, all, families }
}

/** Score prediction rows into `report.json` (section 5), with a seeded episode-level bootstrap. */
export function scoreRows(rows: readonly PredictionRow[], options: ScoreOptions): TivarqReport {
  const expected = options.expectedProbes ?? rows.length
  // Each row is judged once; its family, the whole and the interval read the verdicts.
  const { counts, verdicts, all, families } = readRows(rows)
  // Made from entries, so a family named like an Object.prototype member (`__proto__`) is a key like any other.
  const byFamily: Record<string, FamilyReport> = Object.fromEntries(
    familyOrder(families.keys()).map((family) => {
      const set = families.get(family) as FamilySet
      const entry: FamilyReport = {
        probe_counts: { total: set.rows.length, answered: set.tally.answered },
        metrics: set.tally.metrics(outcomesOf(set.rows, verdicts)),
      }
      return [family, entry]
    }),
  )
  const transitions = outcomesOf(rows, verdicts)
  const interval = intervalOf(talliesOf(rows, transitions), options)
  const report: TivarqReport = {
    complete: counts.error === 0 && rows.length >= expected,
    probe_counts: counts,
    metrics: all.metrics(transitions),
    transition_success_95pct_bootstrap_ci: interval.low === null || interval.high === null ? null : [interval.low, interval.high],
    transition_success_bootstrap: interval,
    by_family: byFamily,
  }
  if (rows.length < expected) {
    if (options.missingRows === 'selected') report.selected = { expected_probes: expected, selected_probes: rows.length }
    else if (options.missingRows !== 'absent') report.interrupted = { expected_probes: expected, finished_probes: rows.length }
  }
  return report
}
