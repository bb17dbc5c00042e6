/**
 * Shard files: what one `--shard=i/n` run of a suite leaves for the merge
 * (`timegrounded merge`), for runners with no report merging of their own
 * (Jest) and for Vitest set-ups that do not pass blobs around. A shard file
 * holds every record the shard's tests left, the reporter options and
 * whether the shard ran with `-u`; the merge checks that the set is whole and
 * from one shard count, then finishes the run as one unsharded run would.
 * Nothing here imports a test framework.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { type CodeOf, TimegroundedError } from '../errors.js'
import { writeFileAtomic } from '../harness/result-files.js'
import type { GatheredRecord } from './finish.js'
import type { TimegroundedReporterOptions } from './options.js'

/** The format tag of a shard file. */
export const SHARD_FORMAT = 'timegrounded-shard/1'

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
  records: z.array(z.object({ file: z.string(), record: z.unknown(), blockErrors: z.array(z.string()) })),
})

/** A shard file that cannot be merged: unreadable, not a shard file, or a set that is not whole. */
export class ShardSetError extends TimegroundedError<CodeOf<'ShardSetError'>> {
  constructor(message: string) {
    super('SHARD_SET_INVALID', message)
  }
}

/** Read one shard file; throws ShardSetError naming the file and the field at fault. */
export function readShardFile(path: string): ShardFile {
  let value: unknown
  try {
    value = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new ShardSetError(`${path}: cannot be read as JSON (${(error as Error).message})`)
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

/** The records of a whole shard set, in shard order, with what the shards agree on; throws ShardSetError when the set is not whole. */
export function combineShards(files: readonly { path: string; shard: ShardFile }[]): {
  runner: ShardFile['runner']
  count: number
  /** Shards that ran with `-u`. */
  updated: number[]
  options: TimegroundedReporterOptions
  records: GatheredRecord[]
} {
  if (files.length === 0) throw new ShardSetError('no shard files given; pass every .timegrounded/shards/shard-*-of-*.json of the run')
  const counts = [...new Set(files.map(({ shard }) => shard.shard.count))]
  if (counts.length > 1) {
    throw new ShardSetError(
      `the shard files come from runs with different shard counts (${files.map(({ path, shard }) => `${path}: ${shard.shard.index}/${shard.shard.count}`).join(', ')}); merge the files of one run`,
    )
  }
  const count = counts[0]!
  const seen = new Map<number, string>()
  for (const { path, shard } of files) {
    const other = seen.get(shard.shard.index)
    if (other !== undefined) throw new ShardSetError(`shard ${shard.shard.index}/${count} given twice (${other} and ${path})`)
    seen.set(shard.shard.index, path)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !seen.has(index))
  if (missing.length > 0) {
    throw new ShardSetError(
      `incomplete shard set for --shard=?/${count}: missing ${missing.join(', ')} (given ${[...seen.keys()].sort((a, b) => a - b).join(', ')}); merge every shard of the run`,
    )
  }
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
    count,
    updated: ordered.filter(({ shard }) => shard.update).map(({ shard }) => shard.shard.index),
    options: ordered[0]!.shard.options,
    records: ordered.flatMap(({ shard }) => shard.records),
  }
}
