/**
 * The records a run's tests left, gathered by suite: what every runner's
 * reporter hands to the end of a run (and a shard file carries), and the
 * mistakes that make a suite's records untrustworthy (two files declaring
 * one suite differently, a probe run twice), named. Pure.
 */
import type { SuiteIdentity } from './baseline.js'
import { type IsolationOutcome, isIsolationOutcome, isProbeRecord, type ProbeRecord } from './records.js'
import { isModelCalls } from './model-calls.js'
import type { ModelCallCounts } from '../tivarq/report-shape.js'

/** One test's record as the runner's reporter found it. */
export interface GatheredRecord {
  /** The test file it came from (named in conflict messages). */
  file: string
  /** The record the test left: a probe's or a time-grounded question's (anything else is ignored). */
  record: unknown
  /** Errors of the blocks around the test (their hooks: the store's start, its close), as messages. */
  blockErrors: readonly string[]
  /** What the isolation check of the test's suite, in its file, came to (absent when it never ran: no store opened). */
  isolation?: IsolationOutcome
  /** The model calls the test's suite made in its file (absent when none was counted). */
  modelCalls?: ModelCallCounts
}

/** One suite's records gathered from the test files. */
export interface SuiteRecords {
  identity: SuiteIdentity
  probeTotal: number
  /** Repetitions each probe ran (the same in every file of the suite). */
  repeats: number
  records: ProbeRecord[]
  /** Files declaring a different identity under the same name, and probes run twice (mistakes worth a clear line). */
  conflicts: string[]
  /** Which file ran each probe. */
  probeFiles: Map<string, string>
  /** Errors of the blocks around the probes, once each. */
  blockErrors: Set<string>
  /** The isolation check's outcome in each file that ran the suite, by file. */
  isolation: Map<string, IsolationOutcome>
  /** The model calls the suite made in each file, by file. */
  modelCalls: Map<string, ModelCallCounts>
}

/** The probe records by suite, with the mistakes that make a suite's records untrustworthy named. */
export function gatherSuites(gathered: readonly GatheredRecord[]): Map<string, SuiteRecords> {
  const suites = new Map<string, SuiteRecords>()
  for (const { file, record: candidate, blockErrors, isolation, modelCalls } of gathered) {
    const record = isProbeRecord(candidate) ? candidate : null
    if (record === null) continue
    let suite = suites.get(record.suite.name)
    if (!suite) {
      suite = {
        identity: record.suite,
        probeTotal: record.probeTotal,
        repeats: record.repeats,
        records: [],
        conflicts: [],
        probeFiles: new Map(),
        blockErrors: new Set(),
        isolation: new Map(),
        modelCalls: new Map(),
      }
      suites.set(record.suite.name, suite)
    }
    if (JSON.stringify(record.suite) !== JSON.stringify(suite.identity)) {
      const conflict = `${file} declares suite "${record.suite.name}" with other settings (${describeIdentity(record.suite)}) than another file (${describeIdentity(suite.identity)}); give each suite its own \`name\``
      if (!suite.conflicts.includes(conflict)) suite.conflicts.push(conflict)
      continue
    }
    if (record.repeats !== suite.repeats) {
      const conflict = `${file} runs suite "${record.suite.name}" with \`repeats: ${record.repeats}\` but another file with \`repeats: ${suite.repeats}\`; give every file of a suite the same \`repeats\``
      if (!suite.conflicts.includes(conflict)) suite.conflicts.push(conflict)
      continue
    }
    const seenIn = suite.probeFiles.get(record.probeId)
    if (seenIn !== undefined) {
      // One line per pair of files, not per probe (a whole split run twice would give hundreds).
      const pair = `suite "${record.suite.name}" runs the same probes in two files, ${seenIn} and ${file}`
      if (!suite.conflicts.some((line) => line.startsWith(pair)))
        suite.conflicts.push(`${pair} (e.g. ${record.probeId}); spread one suite over files with \`partition\`, or give each suite its own \`name\``)
      continue
    }
    suite.probeFiles.set(record.probeId, file)
    suite.records.push(record)
    for (const error of blockErrors) suite.blockErrors.add(error)
    // A shard file is read back from disk: only a well-formed outcome counts.
    if (isIsolationOutcome(isolation)) suite.isolation.set(file, isolation)
    if (isModelCalls(modelCalls)) suite.modelCalls.set(file, modelCalls)
  }
  return suites
}

function describeIdentity(identity: SuiteIdentity): string {
  return `split ${identity.split}, track ${identity.track}, families ${identity.families?.join(',') ?? 'all'}, dataset ${identity.datasetHash.slice(0, 19)}…`
}
