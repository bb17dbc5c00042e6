/**
 * A suite's reference store (`timegroundedSuite(memory, { reference })`): a
 * second store asked the very probes the suite asks, in the same episodes,
 * repetitions and order, so that the end of the run can compare the two as
 * `timegrounded compare` compares two run folders. Its answers travel in the
 * probe's own record beside the suite's, so a probe the run left out (`-t`,
 * a shard) is left out on both sides alike. They fail no test: the reference
 * is the yardstick, not the store under test.
 */
import { z } from 'zod'
import type { MemorySource } from '../adapters/source.js'
import type { Track } from '../adapters/types.js'
import { openPool } from '../harness/pool.js'
import type { StorePool } from '../harness/store-lease.js'
import { namedChoices } from '../option-checks.js'
import { QUALITY_METRICS, type QualityMetricName } from '../tivarq/metrics.js'
import type { PredictionRow } from '../tivarq/results.js'

/** The `reference` option of `timegroundedSuite`. */
export interface ReferenceOption {
  /** How the reference is named in the comparison and its result folder's lines (`previous-release`). */
  name: string
  /** The reference memory: a store, a factory of stores, or `commandAdapter([...])`, as the suite's own memory. */
  store: MemorySource
  /** Fail the run when the suite's store is shown worse than the reference on one of these metrics (camelCase). @default none: the comparison is printed, never gated */
  failIfWorse?: QualityMetricName[]
}

/** What a probe's record carries of the reference: set when the suite is planned; `rows` once the probe ran. */
export interface ReferenceRecord {
  name: string
  failIfWorse: QualityMetricName[]
  /** The reference store's row of the probe in each repetition, in order. */
  rows?: PredictionRow[]
}

const REFERENCE_FIELDS = ['name', 'store', 'failIfWorse'] as const

/** The schema of the `reference` option (checked with the suite's other options). */
export const REFERENCE_OPTION_SCHEMA = z.strictObject(
  {
    name: z.string('a name for the reference store, e.g. `previous-release`').min(1, 'a name for the reference store, e.g. `previous-release`'),
    store: z.custom<MemorySource>(
      (value) => typeof value === 'function' || (typeof value === 'object' && value !== null),
      'a memory store, a factory of stores, or `commandAdapter([...])`',
    ),
    failIfWorse: z
      .array(
        z.enum(QUALITY_METRICS as [QualityMetricName, ...QualityMetricName[]], { error: namedChoices('a quality metric', QUALITY_METRICS) }),
        'a list of metrics',
      )
      .optional(),
  },
  { error: namedChoices('a field of `reference`', REFERENCE_FIELDS) },
)

/** The part of a probe's record that names its reference, or nothing when the suite has none. */
export function referenceRecordOf(reference: ReferenceOption | undefined): { reference?: ReferenceRecord } {
  return reference === undefined ? {} : { reference: { name: reference.name, failIfWorse: [...new Set(reference.failIfWorse ?? [])] } }
}

/** A finished probe's record with the reference store's rows (plain-JSON copies) beside its own. */
export function withReferenceRows<T extends { reference?: ReferenceRecord }>(record: T, rows: readonly PredictionRow[] | undefined): T {
  if (record.reference === undefined || rows === undefined) return record
  return { ...record, reference: { ...record.reference, rows: JSON.parse(JSON.stringify(rows)) as PredictionRow[] } }
}

/**
 * Open the reference store's pool with the suite's settings (null without a reference). The pool is
 * named `<suite> reference <name>`, so an error of its start or close names the reference.
 */
export async function openReferencePool(
  reference: ReferenceOption | undefined,
  settings: { name: string; track: Track; concurrency: number; timeoutMs: number },
): Promise<StorePool | null> {
  if (reference === undefined) return null
  const { name, track, concurrency, timeoutMs } = settings
  return openPool(reference.store, { track, concurrency, timeoutMs, name: `${name} reference ${reference.name}` })
}
