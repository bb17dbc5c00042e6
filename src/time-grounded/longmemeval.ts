/**
 * LongMemEval-shaped input, loaded: a loader that
 * streams a file of any size (the real ones run to hundreds of MB) element by
 * element, validating each entry as it arrives and hashing the text with its
 * newlines normalised to \n on the way through. Only the validated entries are
 * kept, and only when the caller asks for them.
 */
import { createReadStream, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import streamArray from 'stream-json/streamers/stream-array.js'
import { TimegroundedError } from '../errors.js'
import { encodingIssue, fileIssue, NormalisedTextHash, normalisedTextSha256, RELOCATE_LIMIT_BYTES, syntaxErrorAt } from './longmemeval-bytes.js'
import { Utf8Check } from '../tivarq/utf8-check.js'
import {
  checkEntry,
  type LongMemEvalEntry,
  LongMemEvalDatasetError,
  type LongMemEvalIssue,
  LongMemEvalIssues,
  LongMemEvalReadError,
} from './longmemeval-schema.js'

export { NormalisedTextHash, normalisedTextSha256 } from './longmemeval-bytes.js'
export { Utf8Check } from '../tivarq/utf8-check.js'
export {
  type LongMemEvalDatasetErrorCodes,
  LongMemEvalDatasetError,
  type LongMemEvalEntry,
  longMemEvalEntrySchema,
  type LongMemEvalIssue,
  type LongMemEvalIssueCode,
  LongMemEvalReadError,
  type LongMemEvalReadErrorCodes,
  type LongMemEvalTurn,
  longMemEvalTurnSchema,
  MAX_KEPT_ISSUES,
  type MachineGold,
  machineGoldSchema,
} from './longmemeval-schema.js'

/** What a pass over a LongMemEval file found. */
export interface LongMemEvalSummary {
  /** Identifier of the dataset: the file name without `.json` unless given. */
  datasetId: string
  /** SHA-256 of the file text, newlines normalised to \n. */
  datasetSha256: string
  entries: number
  bytes: number
}

export interface ReadLongMemEvalOptions {
  /** Identifier recorded in results. @default the file name without `.json` */
  datasetId?: string
  /** Called with each valid entry as it is parsed, with the bytes read so far. An error it throws stops the read and is rethrown as is. @default none */
  onEntry?: (entry: LongMemEvalEntry, position: { index: number; bytesRead: number }) => void
}

/**
 * Streams a LongMemEval-shaped file element by element. Valid entries go to
 * `onEntry` as they arrive; nothing is retained here. Throws
 * `LongMemEvalDatasetError` at the end when any entry (or the JSON itself) is invalid.
 */
export async function readLongMemEval(file: string, options: ReadLongMemEvalOptions = {}): Promise<LongMemEvalSummary> {
  const datasetId = options.datasetId ?? datasetIdOf(file)
  const hash = new NormalisedTextHash()
  const issues = new LongMemEvalIssues(file)
  const seenIds = new Set<string>()
  let bytesRead = 0
  let index = 0
  const utf8 = new Utf8Check()
  let encoding: LongMemEvalIssue | null = null
  const hashing = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      // Checked before the parser sees them: a decoder would turn bad bytes into U+FFFD without a word.
      encoding = encodingIssue(file, bytesRead === 0 ? chunk : null, utf8.update(chunk))
      bytesRead += chunk.length
      if (encoding !== null) return callback(new Error('encoding'))
      hash.update(chunk)
      callback(null, chunk)
    },
    flush(callback: TransformCallback) {
      encoding = encodingIssue(file, null, utf8.end())
      callback(encoding === null ? null : new Error('encoding'))
    },
  })
  const elements = streamArray.withParserAsStream()
  // The pipeline reports a consumer's throw as an abort of its streams; keep the caller's own error to rethrow it.
  const stoppedBy: { error?: unknown } = {}
  const consume = async (source: AsyncIterable<{ key: number; value: unknown }>): Promise<void> => {
    for await (const item of source) {
      const entry = checkEntry(item.value, index, seenIds, issues)
      if (entry !== null && options.onEntry !== undefined) {
        try {
          options.onEntry(entry, { index, bytesRead })
        } catch (error) {
          stoppedBy.error = error
          throw error
        }
      }
      index++
    }
  }
  try {
    await pipeline(createReadStream(file), hashing, elements, consume)
  } catch (error) {
    if ('error' in stoppedBy) throw stoppedBy.error
    if (error instanceof TimegroundedError) throw error
    if (encoding !== null) throw new LongMemEvalDatasetError(file, [encoding], 0)
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') {
      throw new LongMemEvalReadError(`cannot read LongMemEval dataset ${file} (${code}); check the \`--dataset\` path.`, error)
    }
    const reason = error instanceof Error ? error.message : String(error)
    // The parser says "has expected …" only when the input ended while it still waited for more: a cut-off file.
    const truncated = /^Parser has expected/.test(reason)
    issues.push(
      bytesRead === 0
        ? fileIssue(file, 'empty_file', 'the file is empty; a LongMemEval dataset is a JSON array of entries')
        : truncated
          ? // Ordinal, not an index: entry-level issues count from 0, and "entry 6" would be ambiguous next to them.
            fileIssue(
              file,
              'truncated_file',
              `not a complete JSON array: it ends inside the ${ordinal(index + 1)} entry (byte ${bytesRead}), after ${index} complete ${index === 1 ? 'entry' : 'entries'}; the file looks truncated — download it again`,
            )
          : fileIssue(file, 'invalid_json', syntaxMessage(file, bytesRead, reason)),
    )
  }
  if (issues.count === 0 && index === 0)
    issues.push(fileIssue(file, 'no_entries', 'holds no entries; a LongMemEval dataset is a JSON array of at least one entry'))
  if (issues.count > 0) throw new LongMemEvalDatasetError(file, issues.issues, issues.omitted)
  return { datasetId, datasetSha256: hash.digest(), entries: index, bytes: bytesRead }
}

/**
 * A syntax error in words, at its true byte: the streaming parser only knows
 * how far it had read, so a file small enough is parsed again whole to place it.
 */
function syntaxMessage(file: string, bytesRead: number, reason: string): string {
  if (bytesRead <= RELOCATE_LIMIT_BYTES) {
    try {
      const at = syntaxErrorAt(readFileSync(file, 'utf8'))
      if (at !== null) return `not a JSON array of entries: ${at.reason} at byte ${at.byte}`
    } catch {
      // Unreadable now: fall back on what the stream saw.
    }
  }
  return `not a JSON array of entries: ${reason} (within the first ${bytesRead} bytes)`
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st… */
function ordinal(n: number): string {
  const tens = n % 100
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')
  return `${n}${suffix}`
}

/** A LongMemEval dataset held in memory (one copy of the validated entries). */
export interface LongMemEvalDataset extends LongMemEvalSummary {
  items: LongMemEvalEntry[]
}

/** Loads and validates a whole file (streamed; the entries are the only copy kept). */
export async function loadLongMemEval(file: string, options: { datasetId?: string } = {}): Promise<LongMemEvalDataset> {
  const items: LongMemEvalEntry[] = []
  const summary = await readLongMemEval(file, { ...options, onEntry: (entry) => items.push(entry) })
  return { ...summary, items }
}

/**
 * loadLongMemEval, synchronously: the whole file is read and parsed at once
 * (the same checks and hash), for test runners that register tests
 * synchronously (Jest). Prefer the streaming loader for large files.
 */
export function loadLongMemEvalSync(file: string, options: { datasetId?: string } = {}): LongMemEvalDataset {
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new LongMemEvalReadError(`cannot read LongMemEval dataset ${file} (${code ?? String(error)}); check the \`--dataset\` path.`, error)
  }
  const check = new Utf8Check()
  const bad = check.update(bytes)
  const encoding = encodingIssue(file, bytes, bad >= 0 ? bad : check.end())
  if (encoding !== null) throw new LongMemEvalDatasetError(file, [encoding], 0)
  return parseLongMemEvalText(bytes.toString('utf8'), options.datasetId ?? datasetIdOf(file), file)
}

/** A file's dataset id when none is given: its name without `.json`. */
function datasetIdOf(file: string): string {
  return basename(file).replace(/\.json$/i, '')
}

/** Validates LongMemEval JSON text already in memory (e.g. the embedded corpus), pinned by the hash of that text. */
export function parseLongMemEvalText(text: string, datasetId: string, source = datasetId): LongMemEvalDataset {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const at = syntaxErrorAt(text)
    const message = at === null ? `not JSON: ${(error as Error).message}` : `not JSON: ${at.reason} at byte ${at.byte}`
    throw new LongMemEvalDatasetError(source, [fileIssue(source, 'invalid_json', message)], 0)
  }
  if (!Array.isArray(value)) {
    throw new LongMemEvalDatasetError(source, [fileIssue(source, 'not_an_array', 'the top level must be an array of entries')], 0)
  }
  const issues = new LongMemEvalIssues(source)
  const seenIds = new Set<string>()
  const items: LongMemEvalEntry[] = []
  value.forEach((element, index) => {
    const entry = checkEntry(element, index, seenIds, issues)
    if (entry !== null) items.push(entry)
  })
  if (issues.count === 0 && value.length === 0)
    issues.push(fileIssue(source, 'no_entries', 'holds no entries; a LongMemEval dataset is a JSON array of at least one entry'))
  if (issues.count > 0) throw new LongMemEvalDatasetError(source, issues.issues, issues.omitted)
  return { datasetId, datasetSha256: normalisedTextSha256(text), entries: value.length, bytes: Buffer.byteLength(text), items }
}
