/**
 * A shard file is evidence, not a verdict to trust: what the merge scores and
 * gates must follow from each probe's rows and the gold of the dataset the
 * suite names, never from what the shard says its rows came to. Each probe
 * record is held to that before anything is scored: its rows are read as a
 * predictions file's rows are, the gold fields of every row must be the
 * dataset's, and the stored outcome and decision must be what the rows give.
 * A contradiction is an edited shard, refused naming the shard, the probe and
 * the field. Suites run on given `episodes` name no dataset the merge can
 * read: their rows are still held to each other and to their outcome.
 */
import { rowBaseFor } from '../harness/row-builders.js'
import { checkPredictionRow } from '../harness/predictions.js'
import type { LoadedSplit } from '../tivarq/loaded-split.js'
import { loadSplitSync, loadVariantSplitSync } from '../tivarq/dataset-sync.js'
import { datasetHashOf } from '../tivarq/dataset-files.js'
import { PREDICTION_KEY_ORDER, type PredictionBase, type PredictionRow } from '../tivarq/results.js'
import type { Probe } from '../tivarq/schema.js'
import type { Split } from '../tivarq/vocabulary.js'
import { isProbeRecord, type ProbeDecision, type ProbeRecord, type ProbeResult, outcomeOfResult, resultOf } from './records.js'

/** The gold of one suite's data: each probe with its episode's family, or null when the suite ran given episodes. */
type Gold = ReadonlyMap<string, { probe: Probe; family: string }> | null

/** The data a record names, as the merge reads it: generated again, read from its folder, or the bundled set. */
function loadNamedSplit(record: ProbeRecord): LoadedSplit {
  const split = record.suite.split as Split
  if (record.variant !== undefined) return loadVariantSplitSync(record.variant, split)
  return loadSplitSync(record.datasetDir, split)
}

function goldOf(loaded: LoadedSplit): Map<string, { probe: Probe; family: string }> {
  const families = new Map(loaded.episodes.map((episode) => [episode.episode_id, episode.family]))
  const gold = new Map<string, { probe: Probe; family: string }>()
  for (const probe of loaded.probes) gold.set(probe.probe_id, { probe, family: families.get(probe.episode_id) ?? '' })
  return gold
}

/** Which decisions each result allows a probe's test (`fail` is always allowed: it never lets anything through). */
const ALLOWED_DECISIONS: Readonly<Record<ProbeResult, readonly ProbeDecision[]>> = {
  correct: ['pass', 'fail'],
  unsupported: ['skip', 'fail'],
  wrong: ['fail', 'known_failure', 'suspect'],
  flaky: ['flaky', 'fail', 'known_failure'],
  error: ['fail'],
}

/** The fields a row takes from its probe (the gold), the keys upstream writes before `status`. */
const BASE_FIELDS = PREDICTION_KEY_ORDER.slice(0, PREDICTION_KEY_ORDER.indexOf('status')) as readonly (keyof PredictionBase)[]

/** Refusals of one shard's records, each `probe …: field: why`; gold is read once per suite's data. */
export class ShardEvidence {
  private readonly golds = new Map<string, Gold>()

  /** Why the probe records of one shard are not the evidence they claim to be; empty when they are. */
  problems(records: readonly unknown[]): string[] {
    const found: string[] = []
    for (const record of records) {
      if (!isProbeRecord(record) || record.rows === undefined) continue
      const problem = this.recordProblem(record)
      if (problem !== null) found.push(`suite "${record.suite.name}", probe ${record.probeId}: ${problem}`)
    }
    return found
  }

  private gold(record: ProbeRecord): Gold {
    const key = JSON.stringify([record.variant ?? null, record.datasetDir ?? null, record.suite.split])
    if (this.golds.has(key)) return this.golds.get(key)!
    const loaded = loadNamedSplit(record)
    const matches = datasetHashOf(loaded.fileHashes) === record.suite.datasetHash
    if (!matches && (record.variant !== undefined || record.datasetDir !== undefined)) {
      throw new Error(
        `the ${record.suite.split} split of ${record.variant === undefined ? record.datasetDir : `variant ${record.variant}`} has changed since the shard ran (dataset hash ${record.suite.datasetHash.slice(0, 19)}…, now ${datasetHashOf(loaded.fileHashes).slice(0, 19)}…)`,
      )
    }
    // A suite on given episodes records neither folder nor variant, and a hash of its own rows.
    const gold = matches ? goldOf(loaded) : null
    this.golds.set(key, gold)
    return gold
  }

  private recordProblem(record: ProbeRecord): string | null {
    const rows = record.rows!
    if (!Array.isArray(rows) || rows.length !== record.repeats)
      return `rows: ${Array.isArray(rows) ? rows.length : 'not a list of'} rows, but the suite runs ${record.repeats} repetitions`
    const checked: PredictionRow[] = []
    for (const [index, given] of rows.entries()) {
      const result = checkPredictionRow(given)
      if ('issues' in result) return `rows[${index}].${result.issues[0]!.path}: ${result.issues[0]!.message}`
      checked.push(result.row)
    }
    let gold: Gold
    try {
      gold = this.gold(record)
    } catch (error) {
      return `its data cannot be read to check it against the gold: ${(error as Error).message}`
    }
    const entry = gold?.get(record.probeId)
    if (gold !== null && entry === undefined) return `not a probe of the ${record.suite.split} split of ${record.suite.data}`
    for (const [index, row] of checked.entries()) {
      const base = entry === undefined ? { ...checked[0]!, probe_id: record.probeId, repetition: index } : rowBaseFor(entry.probe, entry.family, index)
      for (const field of BASE_FIELDS) {
        if (JSON.stringify(row[field]) !== JSON.stringify(base[field])) {
          const source = entry === undefined ? `its first row's (and the probe's)` : "the dataset's gold"
          return `rows[${index}].${field}: ${JSON.stringify(row[field])} in the shard, ${JSON.stringify(base[field])} in ${source}`
        }
      }
    }
    const result = resultOf(checked)
    const outcome = outcomeOfResult(result)
    if (record.outcome !== outcome) return `outcome: ${JSON.stringify(record.outcome)} in the shard, but its rows make it ${JSON.stringify(outcome)}`
    // The isolation check's failures travel beside the records (the suite's, in its shard), not in a probe's decision.
    const allowed: readonly ProbeDecision[] = ALLOWED_DECISIONS[result]
    if (!allowed.includes(record.decision!)) {
      return `decision: ${JSON.stringify(record.decision)} in the shard, but a probe whose rows are ${result} can only be ${allowed.map((each) => JSON.stringify(each)).join(' or ')}`
    }
    return null
  }
}
