/**
 * Shard files: what one `--shard=i/n` run of a suite leaves for the merge
 * (`timegrounded merge`), for runners with no report merging of their own
 * (Jest) and for Vitest set-ups that do not pass blobs around. A shard file
 * holds every record the shard's tests left, the reporter options and
 * whether the shard ran with `-u`; the merge checks that the set is whole and
 * from one shard count, then finishes the run as one unsharded run would.
 * Nothing here imports a test framework.
 */
import { join } from 'node:path'
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { writeFileAtomic } from '../harness/result-files.js'
import type { GatheredRecord } from './gather.js'
import type { TimegroundedReporterOptions } from './options.js'
import { identityDifferences, type RunIdentity } from './run-identity.js'
import { isProbeRecord } from './records.js'
import { ShardEvidence } from './shard-evidence.js'
import type { SuiteIdentity } from './baseline.js'
import { type JsonDocument, jsonDocumentProblemAt, readJsonDocumentFile } from '../tivarq/json-document.js'

/** The format tag of a shard file (2: with the run's identity and its load errors). */
export const SHARD_FORMAT = 'timegrounded-shard/2'

/** One shard's file. */
export interface ShardFile {
  format: typeof SHARD_FORMAT
  /** The runner that wrote it: the merge's messages name its commands. */
  runner: 'jest' | 'vitest'
  shard: { index: number; count: number }
  /** Whether the shard ran with `-u` (its wrong answers were recorded, not failed). */
  update: boolean
  /** The reporter's options as configured: the merge scores and gates by them. */
  options: TimegroundedReporterOptions
  /** Which run the shard belongs to: a merge refuses shards of different runs. */
  run: RunIdentity
  /** Test files that failed to load (or errors outside any test), naming the file: the merge fails with them. */
  loadErrors: string[]
  records: GatheredRecord[]
}

/** Where a shard writes its file: `<outputDir>/shards/shard-<i>-of-<n>.json`. */
export function shardFilePath(outputDir: string, shard: { index: number; count: number }): string {
  return join(outputDir, 'shards', `shard-${shard.index}-of-${shard.count}.json`)
}

/** Write a shard's file (always, even with no records: the merge checks that every shard is there). */
export function writeShardFile(path: string, file: Omit<ShardFile, 'format'>): void {
  writeFileAtomic(path, `${JSON.stringify({ format: SHARD_FORMAT, ...file })}\n`)
}

const shardFileSchema = z.object({
  format: z.literal(SHARD_FORMAT),
  runner: z.enum(['jest', 'vitest']),
  shard: z.object({ index: z.number().int().min(1), count: z.number().int().min(1) }),
  update: z.boolean(),
  options: z.record(z.string(), z.unknown()),
  run: z.strictObject({ package: z.string(), commit: z.string().nullable(), runId: z.string().nullable() }),
  loadErrors: z.array(z.string()),
  records: z.array(
    z.object({
      file: z.string(),
      record: z.unknown(),
      blockErrors: z.array(z.string()),
      isolation: z.unknown().optional(),
      modelCalls: z.unknown().optional(),
    }),
  ),
})

/** The codes of `ShardSetError`, each with what it means. */
export interface ShardSetErrorCodes {
  /** Shard files that cannot be merged: unreadable, not shard files, or not one whole set. */
  SHARD_SET_INVALID: 'ShardSetError'
}

/** A shard file that cannot be merged: unreadable, not a shard file, or a set that is not whole. */
export class ShardSetError extends TimegroundedError<keyof ShardSetErrorCodes> {
  constructor(message: string) {
    super('SHARD_SET_INVALID', message)
  }
}

/** Read one shard file; throws ShardSetError naming the file and the field at fault. */
export function readShardFile(path: string): ShardFile {
  let document: JsonDocument
  try {
    document = readJsonDocumentFile(path)
  } catch (error) {
    throw new ShardSetError(`${path}: cannot be read as JSON (${(error as Error).message})`)
  }
  if (!document.ok) {
    throw new ShardSetError(
      `${jsonDocumentProblemAt(path, document.problem)}; run that shard again to write its file anew (shard runs write them to .timegrounded/shards/)`,
    )
  }
  const value = document.value
  const format = (value as { format?: unknown } | null)?.format
  if (typeof format === 'string' && format.startsWith('timegrounded-shard/') && format !== SHARD_FORMAT) {
    throw new ShardSetError(
      `${path}: a shard file of format ${format}, written by another timegrounded version than this one (${SHARD_FORMAT}); run every shard again with this version, then merge`,
    )
  }
  const parsed = shardFileSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ShardSetError(
      `${path}: not a timegrounded shard file (${issue.path.join('.') || 'top level'}: ${issue.message}); shard runs write them to .timegrounded/shards/`,
    )
  }
  return parsed.data as ShardFile
}

/**
 * One shard of a merge, whichever way it arrived: a shard file
 * (`timegrounded merge`) or the test modules of one blob (`vitest
 * --merge-reports`), with what its run recorded about itself.
 */
export interface ShardPart {
  /** What names the shard in messages: its file, or its blob's test files. */
  source: string
  shard: { index: number; count: number }
  /** The run it belongs to; null when it recorded none (a shard run without the timegrounded reporter). */
  run: RunIdentity | null
  loadErrors: readonly string[]
  records: readonly GatheredRecord[]
}

/**
 * The one rule of every merge: the set must be whole (each shard of one count
 * once), from one run (same timegrounded version, commit and CI run id) and
 * run the same suites; anything else throws ShardSetError naming the shard or
 * the file and the field. What passes the check can still fail the run: a
 * shard whose test files failed to load, or a set with no timegrounded result
 * at all, is returned as `failures`, never gated as a pass.
 */
export function checkShardSet(parts: readonly ShardPart[]): { failures: string[] } {
  if (parts.length === 0) throw new ShardSetError('no shard files given; pass every .timegrounded/shards/shard-*-of-*.json of the run')
  const name = (part: ShardPart) => `${part.source} (shard ${part.shard.index}/${part.shard.count})`
  const unidentified = parts.filter((part) => part.run === null)
  if (unidentified.length > 0) {
    throw new ShardSetError(
      `${unidentified.map((part) => part.source).join(', ')} recorded no run identity (run without the timegrounded reporter, or by an older version); run every shard with it, then merge`,
    )
  }
  const counts = [...new Set(parts.map((part) => part.shard.count))]
  if (counts.length > 1) {
    throw new ShardSetError(
      `the shard files come from runs with different shard counts (${parts.map((part) => `${part.source}: ${part.shard.index}/${part.shard.count}`).join(', ')}); merge the files of one run`,
    )
  }
  const count = counts[0]!
  const seen = new Map<number, string>()
  for (const part of parts) {
    const other = seen.get(part.shard.index)
    if (other !== undefined) throw new ShardSetError(`shard ${part.shard.index}/${count} given twice (${other} and ${part.source})`)
    seen.set(part.shard.index, part.source)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index))
  if (missing.length > 0) {
    throw new ShardSetError(
      `incomplete shard set for --shard=?/${count}: missing ${missing.join(', ')} (given ${[...seen.keys()].sort((a, b) => a - b).join(', ')}); merge every shard of the run`,
    )
  }
  const first = parts[0]!
  for (const part of parts.slice(1)) {
    const differences = identityDifferences(first.run!, part.run!)
    if (differences.length > 0) {
      throw new ShardSetError(
        `${name(first)} and ${name(part)} come from different runs (${differences.join('; ')}); a merge joins the shards of one run only: run every shard again, then merge`,
      )
    }
  }
  checkSuitesAgree(parts, name)
  checkEvidence(parts, name)
  const failures = parts.flatMap((part) => part.loadErrors.map((error) => `shard ${part.shard.index}/${count} (${part.source}) failed to load: ${error}`))
  if (parts.every((part) => part.records.length === 0)) {
    failures.push(
      `no timegrounded results in the ${count} shards (${parts.map((part) => part.source).join(', ')}): no suite ran, so nothing was gated; check that the test files load and declare a suite`,
    )
  }
  return { failures }
}

/** How many of a shard's contradictions its refusal lists: one is proof enough, a few show whether it is one edit or many. */
const SHOWN_CONTRADICTIONS = 5

/** Every shard's probe records must follow from their rows and the gold (shard-evidence.ts): a shard that contradicts them was edited. */
function checkEvidence(parts: readonly ShardPart[], name: (part: ShardPart) => string): void {
  const evidence = new ShardEvidence()
  for (const part of parts) {
    const problems = evidence.problems(part.records.map(({ record }) => record))
    if (problems.length === 0) continue
    const more = problems.length > SHOWN_CONTRADICTIONS ? `\n  … and ${problems.length - SHOWN_CONTRADICTIONS} more` : ''
    throw new ShardSetError(
      `${name(part)} contradicts its own rows or the dataset's gold (edited since its run?), so it is not merged:\n${problems
        .slice(0, SHOWN_CONTRADICTIONS)
        .map((problem) => `  ${problem}`)
        .join('\n')}${more}\nrun that shard again, then merge`,
    )
  }
}

/** What a suite's probes depend on, field by field: every shard that ran a suite must have run the same. */
const SUITE_FIELDS: readonly (keyof SuiteIdentity)[] = ['datasetHash', 'data', 'split', 'track', 'families']

function checkSuitesAgree(parts: readonly ShardPart[], name: (part: ShardPart) => string): void {
  const firstSeen = new Map<string, { part: ShardPart; identity: SuiteIdentity; probeTotal: number; repeats: number }>()
  for (const part of parts) {
    for (const { record } of part.records) {
      if (!isProbeRecord(record)) continue
      const before = firstSeen.get(record.suite.name)
      if (before === undefined) {
        firstSeen.set(record.suite.name, { part, identity: record.suite, probeTotal: record.probeTotal, repeats: record.repeats })
        continue
      }
      if (before.part === part) continue
      const differing = SUITE_FIELDS.filter((field) => JSON.stringify(before.identity[field]) !== JSON.stringify(record.suite[field])).map(
        (field) => `${field} ${JSON.stringify(before.identity[field])} vs ${JSON.stringify(record.suite[field])}`,
      )
      if (record.repeats !== before.repeats) differing.push(`repeats ${before.repeats} vs ${record.repeats}`)
      if (differing.length > 0) {
        throw new ShardSetError(
          `${name(before.part)} and ${name(part)} ran suite "${record.suite.name}" differently (${differing.join('; ')}); a merge joins the shards of one run only: run every shard again, then merge`,
        )
      }
    }
  }
}

/** The records of a whole shard set of files, in shard order, with what the shards agree on; throws ShardSetError when the set is not whole or not of one run. */
export function combineShards(files: readonly { path: string; shard: ShardFile }[]): {
  runner: ShardFile['runner']
  count: number
  /** Shards that ran with `-u`. */
  updated: number[]
  options: TimegroundedReporterOptions
  records: GatheredRecord[]
  /** Why the merged run fails whatever its gate says (a shard that failed to load, no results at all). */
  failures: string[]
} {
  const { failures } = checkShardSet(
    files.map(({ path, shard }) => ({ source: path, shard: shard.shard, run: shard.run, loadErrors: shard.loadErrors, records: shard.records })),
  )
  const options = JSON.stringify(files[0]!.shard.options)
  const differing = files.filter(({ shard }) => JSON.stringify(shard.options) !== options)
  if (differing.length > 0) {
    throw new ShardSetError(
      `the shards ran with different timegrounded options (${differing.map(({ path }) => path).join(', ')} differ from ${files[0]!.path}); run every shard with one config`,
    )
  }
  const ordered = [...files].sort((a, b) => a.shard.shard.index - b.shard.shard.index)
  return {
    runner: ordered[0]!.shard.runner,
    count: ordered[0]!.shard.shard.count,
    updated: ordered.filter(({ shard }) => shard.update).map(({ shard }) => shard.shard.index),
    options: ordered[0]!.shard.options,
    records: ordered.flatMap(({ shard }) => shard.records),
    failures,
  }
}

/** Key of the stamp a shard leaves on each of its test modules (Vitest: in the module's `meta`, so it travels in the blob). */
export const SHARD_STAMP_KEY = 'timegrounded_shard'

/** What a shard stamps on each of its test modules: which shard of how many, and of which run. */
export interface ShardStamp {
  shard: { index: number; count: number }
  run: RunIdentity
}

const stampSchema = z.strictObject({
  shard: z.strictObject({ index: z.number().int().min(1), count: z.number().int().min(1) }),
  run: shardFileSchema.shape.run,
})

/** One test module of a merged report, as the runner's reporter found it. */
export interface MergedModule {
  /** The test file. */
  file: string
  /** What its shard stamped on it (undefined when nothing did). */
  stamp: unknown
  /** Errors of the module itself (it failed to load), as messages. */
  errors: readonly string[]
  records: readonly GatheredRecord[]
}

/**
 * The shards of a merged report, from its test modules' stamps (one part per
 * shard). A module without a stamp belongs to no known shard: it makes a part
 * without a run identity, which `checkShardSet` refuses. Two stamps claiming
 * one shard are the same shard given twice.
 */
export function shardPartsOfModules(modules: readonly MergedModule[]): ShardPart[] {
  const parts = new Map<string, ShardPart & { files: string[]; key: string }>()
  for (const module of modules) {
    const parsed = stampSchema.safeParse(module.stamp)
    const stamp = parsed.success ? parsed.data : null
    const index = stamp === null ? 'unstamped' : String(stamp.shard.index)
    const key = JSON.stringify(stamp)
    let part = parts.get(index)
    if (part === undefined) {
      part = { source: '', files: [], key, shard: stamp?.shard ?? { index: 1, count: 1 }, run: stamp?.run ?? null, loadErrors: [], records: [] }
      parts.set(index, part)
    } else if (part.key !== key) {
      throw new ShardSetError(
        `shard ${index}/${stamp!.shard.count} given twice, by two runs (${part.files[0]} and ${module.file} carry different stamps); merge the blobs of one run only`,
      )
    }
    part.files.push(module.file)
    part.loadErrors = [...part.loadErrors, ...module.errors.map((error) => `${module.file}: ${error}`)]
    part.records = [...part.records, ...module.records]
  }
  return [...parts.values()].map(({ files, key: _key, ...part }) => ({
    ...part,
    source: files.length <= 2 ? files.join(', ') : `${files.slice(0, 2).join(', ')} and ${files.length - 2} more test files`,
  }))
}
