/**
 * The repetition loop of `run`: each repetition's rows appended as they arrive,
 * scored and written as it ends, the isolation check after the last, and
 * Ctrl-C turning the rows so far into a report marked incomplete. Its own
 * file because the interrupt handling shares the loop's state and nothing else.
 */
import type { CloseProblem } from '../../../harness/store-lease.js'
import { closeOnInterrupt } from '../../../interrupt.js'
import type { RunAggregate } from '../../../tivarq/aggregate.js'
import type { RunManifest } from '../../../harness/manifest.js'
import { runFileNames } from '../../../tivarq/results.js'
import { ResultWriteError, type PredictionsFile } from '../../../harness/result-files.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import { checkIsolation, type IsolationCheck, type IsolationFailure } from '../../../harness/isolation-check.js'
import { runSplit } from '../../../harness/runner.js'
import { type RunScoring, scoreRepetitions } from '../../../report/run-scoring.js'
import type { TivarqReport } from '../../../tivarq/report-shape.js'
import { type WrittenRun, writeScoredRun } from '../../../report/scored-run.js'
import { modelCallCounts } from '../../../cassette/cassette.js'
import { totalModelCalls } from '../../../suite/model-calls.js'
import { EXIT } from '../../exit-codes.js'
import { startProgress } from '../../progress.js'
import { failedWrite, type OpenRun, reportCloseProblems } from './open-run.js'
import type { PageWriter } from './page.js'

/** The repetitions a run finished (or was interrupted in), and what was written and seen on the way. */
export interface RanRepetitions {
  reports: TivarqReport[]
  repetitions: (readonly PredictionRow[])[]
  repeated: RunAggregate | null
  written: string[]
  /** Episodes whose reset store still knew an earlier episode's answer: outside the rows and report.json, but the run fails. */
  carried: IsolationFailure[]
  /** What the isolation check asked and spent, once it ran after the last repetition; null until then, or when it is off. */
  check: IsolationCheck | null
  interruptedWhileClosing: boolean
}

/**
 * Every repetition, each row on disk as it arrives and each report written as its repetition ends.
 * Ctrl-C keeps what finished: the rows so far are scored into a report marked incomplete, then the
 * process leaves (adapter processes get EOF). Null after a result file could not be written.
 */
export async function runRepetitions(run: OpenRun, writePage: PageWriter): Promise<RanRepetitions | null> {
  const { settings, split, pool, writer } = run
  const expected = split.probes.length
  const ran: RanRepetitions = {
    reports: [],
    repetitions: [],
    repeated: null,
    written: ['run_manifest.json'],
    carried: [],
    check: null,
    interruptedWhileClosing: false,
  }
  const { reports, repetitions } = ran
  const progress = startProgress(expected * settings.repeat, process.stderr, { label: 'run', unit: 'probes' })
  let current: { file: PredictionsFile; repetition: number } | null = null
  let writeFailure: unknown = null
  let closing: Promise<CloseProblem[]> | null = null
  const onInterruptWhileClosing = (): void => {
    ran.interruptedWhileClosing = true
  }
  const onInterrupt = (): Promise<void> => {
    progress.stop()
    try {
      if (current !== null) writeInterrupted(run, ran, current, writePage)
    } catch (error) {
      process.stderr.write(`\ntimegrounded run: interrupted, and ${error instanceof Error ? error.message : String(error)}\n`)
    }
    // Within the interrupt's grace period (the adapters are killed meanwhile); then the process exits.
    return pool.close().then((problems) => reportCloseProblems(problems, writer, run.manifest))
  }
  // Interrupted means incomplete: the same code a run with error rows gets.
  const stopInterrupt = closeOnInterrupt(onInterrupt, { exitCode: EXIT.problems })
  let stopClosingInterrupt = (): void => undefined
  try {
    // Repetitions are numbered from 0 in the rows, as upstream numbers them (files from 1).
    for (let repetition = 0; repetition < settings.repeat; repetition++) {
      const file = writer.openPredictions(repetition, settings.repeat)
      current = { file, repetition }
      const rows = await runRepetition(run, file, repetition, progress)
      file.close(rows)
      repetitions.push(rows)
      current = null
      // After the last measured call of every repetition: each one saw upstream's call sequence.
      if (repetition === settings.repeat - 1 && settings.isolationCheck) await runIsolationCheck(run, ran)
      // The stores are done with: they shut down (an adapter process exits) while the last rows are scored and written.
      if (repetition === settings.repeat - 1) closing = pool.close()
      reports.push(...scoreRepetitions([rows], runScoring(run)))
      const files = writeScoredSoFar(run, ran, false)
      ran.written.splice(1, ran.written.length - 1, ...files.written)
      ran.repeated = files.aggregate
    }
  } catch (error) {
    if (!(error instanceof ResultWriteError)) throw error
    writeFailure = error
  } finally {
    progress.stop()
    stopInterrupt()
    // Every row is on disk: an interrupt now only cuts the adapters' shutdown short (they are killed);
    // the page and the summary are still written.
    stopClosingInterrupt = closeOnInterrupt(onInterruptWhileClosing, { carryOn: true })
    reportCloseProblems(await (closing ?? pool.close()), writeFailure === null ? writer : null, run.manifest)
  }
  // What is left is synchronous (the page, the summary): an interrupt now is only seen once they are written.
  stopClosingInterrupt()
  if (writeFailure instanceof ResultWriteError) {
    failedWrite(writeFailure, settings.output, EXIT.io)
    return null
  }
  return ran
}

/** Every report so far (and `aggregate.json` once the last repetition, or an interrupt, ends the run), through the one writer of a scored run. */
function writeScoredSoFar(run: OpenRun, ran: RanRepetitions, partial: boolean): WrittenRun {
  const { repetitions, reports } = ran
  const bootstrap = { seed: run.seed, resamples: run.settings.resamples }
  // This process is the run: its counts so far go in every report (and so on the page, made from them).
  const calls = totalModelCalls([modelCallCounts()])
  if (calls !== null) for (const report of reports) report.model_calls = calls
  return writeScoredRun(run.writer, { repetitions, reports, repeats: run.settings.repeat, bootstrap }, { predictions: 'written', partial })
}

/** Ctrl-C during a repetition: its rows so far scored into a report marked incomplete (with the page), and a line saying so. */
function writeInterrupted(run: OpenRun, ran: RanRepetitions, current: { file: PredictionsFile; repetition: number }, writePage: PageWriter): void {
  const { settings, writer } = run
  const expected = run.split.probes.length
  current.file.close()
  const [partial] = scoreRepetitions([current.file.rows()], runScoring(run)) as [TivarqReport]
  ran.reports.push(partial)
  ran.repetitions.push(current.file.rows())
  writeScoredSoFar(run, ran, true)
  const names = runFileNames(current.repetition, settings.repeat)
  const page = writePage(current.file.rows(), partial, ran.reports)
  process.stderr.write(
    `\ntimegrounded run: interrupted after ${partial.probe_counts.total} of ${expected} probes of repetition ${current.repetition + 1}; ` +
      `wrote ${names.predictions} and ${names.report} (marked incomplete) to ${writer.dir}\n${page === null ? '' : `${page}\n`}`,
  )
}

/** How `run` scores a repetition: a whole one has every probe of the split, and one with fewer was interrupted. */
function runScoring(run: OpenRun): RunScoring {
  return { seed: run.seed, resamples: run.settings.resamples, expectedProbes: run.split.probes.length, missingRows: 'interrupted' }
}

/** The isolation check of every repetition's episodes, kept in `ran` and in run_manifest.json (`isolation_check`). */
async function runIsolationCheck(run: OpenRun, ran: RanRepetitions): Promise<void> {
  const check = await checkIsolation(run.pool)
  ran.check = check
  ran.carried.push(...check.failures)
  run.manifest = { ...run.manifest, isolation_check: isolationCheckRecord(check) }
  run.writer.writeManifest(run.manifest)
}

/** The isolation check as run_manifest.json records it (ours, snake_case like upstream's keys); `{ enabled: false }` when off. */
function isolationCheckRecord(check: IsolationCheck | null): NonNullable<RunManifest['isolation_check']> {
  if (check === null) return { enabled: false }
  const record: NonNullable<RunManifest['isolation_check']> = {
    enabled: true,
    episodes_asked: check.asked,
    unanswered: check.unanswered,
    failures: check.failures.length,
  }
  if (check.usage.promptTokens !== undefined || check.usage.completionTokens !== undefined)
    record.usage = { prompt_tokens: check.usage.promptTokens ?? 0, completion_tokens: check.usage.completionTokens ?? 0 }
  if (check.costUsd !== undefined) record.cost_usd = Math.round(check.costUsd * 1e8) / 1e8
  return record
}

/** One repetition's rows, each appended to its predictions file as it arrives; throws the first write failure once the split returns. */
async function runRepetition(run: OpenRun, file: PredictionsFile, repetition: number, progress: ReturnType<typeof startProgress>): Promise<PredictionRow[]> {
  const { settings, split, pool } = run
  let writeFailure: unknown = null
  const rows = await runSplit({
    episodes: split.episodes,
    probes: split.probes,
    pool,
    options: {
      track: settings.track,
      repetition,
      updatePolls: settings.updatePolls,
      pollIntervalMs: settings.pollIntervalMs,
      isolationCheck: settings.isolationCheck,
    },
    // Checked once every repetition is done (`runIsolationCheck`): no check's call comes between measured ones.
    deferIsolationCheck: true,
    concurrency: settings.concurrency,
    onRow: (row) => {
      progress.tick(row.status === 'error')
      if (writeFailure !== null) return
      try {
        file.append(row)
      } catch (error) {
        // The file keeps its whole rows; the run is stopped once the split returns.
        writeFailure = error
      }
    },
  })
  if (writeFailure !== null) throw writeFailure
  return rows
}
