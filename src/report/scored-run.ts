/**
 * The one writer of a scored run's files, for every caller (`run`, `score`,
 * the end of a test run and `merge`): each repetition's report (and, when the
 * caller has not written them, its predictions), `aggregate.json` for a
 * repeated run, and the removal of result files an earlier run of another
 * layout left, so the directory holds one run and `report-1.json` is never
 * read beside a new `report.json`.
 */
import type { RunWriter } from '../harness/result-files.js'
import { aggregateRepetitions, type RunAggregate } from '../tivarq/aggregate.js'
import { type PredictionRow, runFileNames } from '../tivarq/results.js'
import type { TivarqReport } from '../tivarq/report-shape.js'

/** A run's scored repetitions, in order. */
export interface ScoredRun {
  /** The rows of each repetition scored so far. */
  repetitions: readonly (readonly PredictionRow[])[]
  /** Each repetition's report (`scoreRows` of its rows). */
  reports: readonly TivarqReport[]
  /** The repetitions the run has, which fixes the file names; more than `reports` while a `run` is under way. @default reports.length */
  repeats?: number
  /** The bootstrap of `aggregate.json`. */
  bootstrap: { seed: number; resamples: number }
}

/** How a caller's run meets its directory. */
export interface ScoredRunFiles {
  /**
   * The predictions files: `write` them here (the end of a test run), or they are `written` by the caller
   * (`run` streams them) and listed, or `read` (`score`'s input: never touched, never listed).
   */
  predictions: 'write' | 'written' | 'read'
  /** Write `aggregate.json` though not every repetition ran (an interrupted run's). @default false */
  partial?: boolean
  /** Result files of another layout to keep all the same (the files `score` reads). @default none */
  keep?: (name: string) => boolean
}

/** What was written and removed, by file name. */
export interface WrittenRun {
  /** The aggregate of a repeated run, or null. */
  aggregate: RunAggregate | null
  /** The run's result files, in order: each repetition's predictions (unless `read`) and report, then `aggregate.json`. */
  written: string[]
  /** Result files of an earlier run that were removed, sorted. */
  removed: string[]
}

/** Write a scored run into `writer`'s directory; throws ResultWriteError when a file cannot be written or removed. */
export function writeScoredRun(writer: RunWriter, run: ScoredRun, files: ScoredRunFiles): WrittenRun {
  const repeats = run.repeats ?? run.reports.length
  const layout = Array.from({ length: repeats }, (_, repetition) => runFileNames(repetition, repeats))
  const ours = new Set(layout.flatMap((names) => (files.predictions === 'read' ? [names.report] : [names.predictions, names.report])))
  if (repeats > 1) ours.add('aggregate.json')
  const removed = writer.removeEarlierResults((name) => ours.has(name) || (files.keep?.(name) ?? false))
  const written: string[] = []
  run.reports.forEach((report, repetition) => {
    const names = layout[repetition]!
    if (files.predictions === 'write') writer.writePredictions(run.repetitions[repetition]!, repetition, repeats)
    if (files.predictions !== 'read') written.push(names.predictions)
    writer.writeReport(report, repetition, repeats)
    written.push(names.report)
  })
  const whole = run.reports.length === repeats || files.partial === true
  const aggregate = repeats > 1 && whole ? aggregateRepetitions(run.repetitions, run.reports, run.bootstrap) : null
  if (aggregate !== null) {
    writer.writeAggregate(aggregate)
    written.push('aggregate.json')
  }
  return { aggregate, written, removed }
}

/**
 * Before a run that writes its files as it goes (`run`): remove every result file an earlier run left,
 * whatever its layout, so an interrupted run never leaves another run's repetition beside its own.
 */
export function clearEarlierRun(writer: RunWriter): string[] {
  return writer.removeEarlierResults()
}
