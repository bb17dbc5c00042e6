/**
 * The end of a suite that ran a reference store beside its own
 * (`timegroundedSuite(memory, { reference })`): the reference's result files,
 * the comparison `timegrounded compare` would print of the two run folders
 * (the reference A, the suite's store B), `compare.json`, its page, and the
 * `failIfWorse` gate. `finishRun` calls `compareWithReference` once per suite;
 * nothing here knows a test runner.
 *
 * Fail closed: the comparison is made only when every probe that ran carries
 * the reference's answers in every repetition (a test file of the suite
 * without the option, or a reference that never answered, is refused, and
 * with `failIfWorse` the run fails); a run of part of the suite (`-t`, files
 * left out) is compared on the probes both stores answered, says so on its
 * first line, and is never a `failIfWorse` pass.
 */
import { dirname, join } from 'node:path'
import { RunWriter, writeFileAtomic } from '../../harness/result-files.js'
import type { ReferenceRecord } from '../../suite/reference.js'
import type { ProbeRecord } from '../../suite/records.js'
import type { SuiteIdentity } from '../../suite/baseline.js'
import type { QualityMetricName } from '../../tivarq/metrics.js'
import type { PredictionRow } from '../../tivarq/results.js'
import { scoreRows } from '../../tivarq/score.js'
import { writeScoredRun } from '../scored-run.js'
import { writeComparisonPage } from '../html/write-page.js'
import { bundledComparisonTimelines } from '../html/model/run-comparison.js'
import { COMPARE_METRICS, compareRuns, type RunComparison } from './compare-runs.js'
import { comparisonRecord, verdictLine } from './render.js'
import { CompareError } from './sides.js'

/** Where the reference's result files go, inside the suite's own output folder. */
export const REFERENCE_DIR = 'reference'
/** The comparison's record (what `timegrounded compare --json` prints), beside the suite's report.json. */
export const COMPARE_FILE = 'compare.json'
/** The comparison's page, beside the suite's report.html. */
export const COMPARE_PAGE = 'compare.html'

/** One suite's run, as the end of a test run has it. */
export interface ReferenceRun {
  identity: SuiteIdentity
  probeTotal: number
  /** The probes that ran, in canonical order. */
  ran: readonly ProbeRecord[]
  /** The suite's store's rows, repetition by repetition, in the order of `ran`. */
  repetitions: readonly PredictionRow[][]
  /** The suite's output folder (absolute). */
  outputDir: string
  /** The suite's page (absolute), or null when pages are off: the comparison's goes beside it. */
  pagePath: string | null
  bootstrap: { seed: number; resamples: number }
  /** A path as messages show it. */
  shown: (path: string) => string
}

/** What the comparison came to: the comparison to print, the suite's lines, the page written, whether the run fails. */
export interface ReferenceOutcome {
  /** The two runs compared; null when they were not. */
  comparison: RunComparison | null
  lines: string[]
  htmlReport: string | null
  failed: boolean
}

/** The suite's reference as its records name it, or the reason they cannot be compared. */
function referenceOf(run: ReferenceRun): { reference: ReferenceRecord; rows: PredictionRow[][] } | { problem: string; failIfWorse: boolean } {
  const named = run.ran.flatMap((record) => (record.reference === undefined ? [] : [record.reference]))
  const first = named[0]!
  const failIfWorse = named.some((reference) => reference.failIfWorse.length > 0)
  const repeats = run.repetitions.length
  const missing = run.ran.filter((record) => (record.reference?.rows?.length ?? 0) !== repeats).map((record) => record.probeId)
  if (missing.length > 0) {
    const some = missing.slice(0, 3).join(', ') + (missing.length > 3 ? ', …' : '')
    return {
      failIfWorse,
      problem: `${missing.length} of the ${run.ran.length} probes that ran carry no answer of the reference store in every repetition (${some}): a test file of suite "${run.identity.name}" without \`reference\`, or a reference store that never answered; give every file of the suite the same \`reference\``,
    }
  }
  const other = named.find((reference) => JSON.stringify([reference.name, reference.failIfWorse]) !== JSON.stringify([first.name, first.failIfWorse]))
  if (other !== undefined)
    return {
      failIfWorse,
      problem: `the files of suite "${run.identity.name}" name two references ("${first.name}" and "${other.name}", or other \`failIfWorse\`); give every file of the suite the same \`reference\``,
    }
  const rows = Array.from({ length: repeats }, (_, repetition) => run.ran.map((record) => record.reference!.rows![repetition]!))
  return { reference: first, rows }
}

/** The reference's rows scored and written as a run of their own, in `REFERENCE_DIR` of the suite's folder; returns that folder. */
function writeReferenceRun(run: ReferenceRun, repetitions: PredictionRow[][]): string {
  const writer = new RunWriter(join(run.outputDir, REFERENCE_DIR))
  const reports = repetitions.map((rows) => scoreRows(rows, { ...run.bootstrap, expectedProbes: run.probeTotal, missingRows: 'selected' }))
  writeScoredRun(writer, { repetitions, reports, bootstrap: run.bootstrap }, { predictions: 'write' })
  return writer.dir
}

/**
 * Compare a suite's store with the reference its records carry, or null when the suite has none.
 * Throws only on a bug or an unwritable output folder.
 */
export function compareWithReference(run: ReferenceRun): ReferenceOutcome | null {
  if (!run.ran.some((record) => record.reference !== undefined)) return null
  const found = referenceOf(run)
  if ('problem' in found) return { comparison: null, lines: [`not compared with its reference: ${found.problem}`], htmlReport: null, failed: found.failIfWorse }
  const { reference, rows } = found
  const referenceDir = writeReferenceRun(run, rows)
  const identity = { datasetHash: run.identity.datasetHash, split: run.identity.split, track: run.identity.track, variant: run.identity.data }
  const metrics: QualityMetricName[] = [...new Set([...COMPARE_METRICS, ...reference.failIfWorse])]
  let comparison: RunComparison
  try {
    comparison = compareRuns(
      { name: `${reference.name} (the reference, ${run.shown(referenceDir)})`, rows: rows.flat(), identity },
      { name: `${run.identity.name} (${run.shown(run.outputDir)})`, rows: run.repetitions.flat(), identity },
      { metrics, seed: run.bootstrap.seed },
    )
  } catch (error) {
    if (!(error instanceof CompareError)) throw error
    return {
      comparison: null,
      lines: [`not compared with reference "${reference.name}": ${error.message}`],
      htmlReport: null,
      failed: reference.failIfWorse.length > 0,
    }
  }
  const compareFile = join(run.outputDir, COMPARE_FILE)
  writeFileAtomic(compareFile, `${JSON.stringify(comparisonRecord(comparison), null, 2)}\n`)
  const lines = [
    `compared with reference "${reference.name}" (A) on ${comparisonScope(run)}: the table above, in ${run.shown(compareFile)}; \`timegrounded compare ${run.shown(referenceDir)} ${run.shown(run.outputDir)}\` prints it again`,
  ]
  const page =
    run.pagePath === null
      ? null
      : writeComparisonPage(
          join(dirname(run.pagePath), COMPARE_PAGE),
          comparison,
          bundledComparisonTimelines(comparison, rows.flat()),
          `timegrounded — ${run.identity.name} against ${reference.name}`,
        )
  if (page !== null) lines.push(page.path === null ? `comparison page not written: ${page.problem}` : `comparison page in ${run.shown(page.path)}`)
  const gate = failIfWorseLine(run, reference, comparison)
  if (gate !== null) lines.push(gate.line)
  return { comparison, lines, htmlReport: page?.path ?? null, failed: gate?.failed ?? false }
}

/** Which probes the comparison holds: all of the suite's, or the part that ran, said as such. */
function comparisonScope(run: ReferenceRun): string {
  if (run.ran.length === run.probeTotal) return `all ${run.probeTotal} probes`
  return `a partial run, ${run.ran.length} of ${run.probeTotal} probes (\`-t\`, files left out): every verdict holds for these probes only, and says nothing of the ${run.probeTotal - run.ran.length} that did not run`
}

/** The `failIfWorse` gate's line: failed when a metric is shown worse; never a pass on part of the suite. */
function failIfWorseLine(run: ReferenceRun, reference: ReferenceRecord, comparison: RunComparison): { line: string; failed: boolean } | null {
  if (reference.failIfWorse.length === 0) return null
  const watched = comparison.metrics.filter((entry) => reference.failIfWorse.includes(entry.metric))
  const worse = watched.filter((entry) => entry.verdict === 'worse')
  if (worse.length > 0) {
    const count = worse.length === 1 ? '1 `failIfWorse` metric' : `${worse.length} \`failIfWorse\` metrics`
    return { line: `shown worse than reference "${reference.name}" on ${count}: ${worse.map(verdictLine).join('; ')}`, failed: true }
  }
  if (run.ran.length !== run.probeTotal)
    return {
      line: `partial run: \`failIfWorse\` is not judged (a chosen subset is never a pass); run the whole suite to compare it with "${reference.name}"`,
      failed: false,
    }
  return { line: `not shown worse than reference "${reference.name}" on ${reference.failIfWorse.join(', ')} (\`failIfWorse\`)`, failed: false }
}

/** A shard's line for a suite with a reference: the comparison waits for the merge, as the gate does. */
export function referenceShardLine(records: readonly ProbeRecord[], merge: string): string | null {
  const reference = records.find((record) => record.reference !== undefined)?.reference
  return reference === undefined ? null : `the comparison with reference "${reference.name}" is made after ${merge}, over every shard's probes`
}
