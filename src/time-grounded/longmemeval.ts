/**
 * LongMemEval-shaped input: the zod schema of one entry, and a loader that
 * streams a file of any size (the real ones run to hundreds of MB) element by
 * element, validating each entry as it arrives and hashing the text with its
 * newlines normalised to \n on the way through. Only the validated entries are
 * kept, and only when the caller asks for them.
 */
import { createHash, type Hash } from 'node:crypto'
import { createReadStream, readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { Transform, type TransformCallback } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { z } from 'zod'
import streamArray from 'stream-json/streamers/stream-array.js'
import { TimegroundedError } from '../errors.js'
import { type Issue, IssueCollector, renderIssueLines } from '../tivarq/issues.js'
import { renderPath, valueAt, withArticle } from '../tivarq/row-issues.js'
import { jsonSyntaxError } from './json-syntax.js'

/** One turn of a haystack session. */
export const longMemEvalTurnSchema = z.object({
  role: z.string().min(1),
  content: z.string(),
  has_answer: z.boolean().optional(),
})

/**
 * A gold a program can grade without a model (the authored corpus carries one
 * per entry; LongMemEval files do not).
 */
export const machineGoldSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('yes_no'), value: z.boolean() }),
  z.object({ kind: z.literal('date'), value: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), tolerance_days: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('count'), value: z.number().int(), tolerance: z.number().int().nonnegative(), unit: z.string().min(1) }),
  z.object({ kind: z.literal('entity'), value: z.string().min(1), aliases: z.array(z.string().min(1)) }),
])

/** One LongMemEval entry: a question over a haystack of dated sessions. */
export const longMemEvalEntrySchema = z
  .object({
    question_id: z.string().min(1),
    question_type: z.string().min(1),
    question: z.string(),
    // Upstream answers are strings, numbers and occasionally other JSON; anything but a missing value is accepted.
    answer: z.unknown().refine((value) => value !== undefined, { message: 'Invalid input: expected an answer, received nothing' }),
    // How the answer follows from the sessions (the authored corpus writes one per entry; LongMemEval files do not).
    // Judges grade against the short `answer`; this is for people reading a result.
    answer_explanation: z.string().optional(),
    question_date: z.string(),
    haystack_session_ids: z.array(z.string()),
    haystack_dates: z.array(z.string()),
    haystack_sessions: z.array(z.array(longMemEvalTurnSchema)),
    answer_session_ids: z.array(z.string()),
    machine_gold: machineGoldSchema.optional(),
  })
  .superRefine((entry, ctx) => {
    const sessions = entry.haystack_sessions.length
    for (const field of ['haystack_session_ids', 'haystack_dates'] as const) {
      if (entry[field].length !== sessions) {
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: `has ${entry[field].length} items but haystack_sessions has ${sessions}; the three arrays must line up session by session`,
        })
      }
    }
  })

/** One turn of a LongMemEval session. */
export type LongMemEvalTurn = z.infer<typeof longMemEvalTurnSchema>
/** One LongMemEval question with its dated haystack sessions, as the file holds it (snake_case). */
export type LongMemEvalEntry = z.infer<typeof longMemEvalEntrySchema>
export type MachineGold = z.infer<typeof machineGoldSchema>

/** Stable identifiers of the problems the LongMemEval loader reports (the validator's names where the problem is the same). */
export type LongMemEvalIssueCode =
  | 'byte_order_mark'
  | 'invalid_utf8'
  | 'empty_file'
  | 'truncated_file'
  | 'invalid_json'
  | 'not_an_array'
  | 'no_entries'
  | 'missing_field'
  | 'invalid_field'
  | 'duplicate_id'

/**
 * One problem found in a LongMemEval file: an `Issue` with a
 * `LongMemEvalIssueCode`, keyed by `entryIndex` (and `questionId` when it
 * could be read), or by the file alone for a file-level problem.
 */
export type LongMemEvalIssue = Issue<LongMemEvalIssueCode>

/** The codes of `LongMemEvalReadError`, each with what it means. */
export interface LongMemEvalReadErrorCodes {
  /** A LongMemEval-shaped file cannot be read at all (missing, a directory, no permission). */
  LONGMEMEVAL_UNREADABLE: 'LongMemEvalReadError'
}

/** A LongMemEval-shaped file cannot be read at all: missing, a directory, or not readable. */
export class LongMemEvalReadError extends TimegroundedError<keyof LongMemEvalReadErrorCodes> {
  constructor(message: string, cause: unknown) {
    super('LONGMEMEVAL_UNREADABLE', message, { cause })
  }
}

/** The codes of `LongMemEvalDatasetError`, each with what it means. */
export interface LongMemEvalDatasetErrorCodes {
  /** A LongMemEval-shaped file is invalid. */
  LONGMEMEVAL_INVALID: 'LongMemEvalDatasetError'
}

/** Thrown when a LongMemEval-shaped file is invalid (code `LONGMEMEVAL_INVALID`); `issues` lists what was found. */
export class LongMemEvalDatasetError extends TimegroundedError<keyof LongMemEvalDatasetErrorCodes> {
  readonly source: string
  readonly issues: readonly LongMemEvalIssue[]
  readonly omittedIssues: number

  constructor(source: string, issues: readonly LongMemEvalIssue[], omittedIssues: number) {
    const total = issues.length + omittedIssues
    super(
      'LONGMEMEVAL_INVALID',
      `LongMemEval dataset ${source} is invalid (${total} ${total === 1 ? 'issue' : 'issues'}); fix the entries named below:\n${renderIssueLines(issues, omittedIssues, { indent: '  ' })}`,
    )
    this.source = source
    this.issues = issues
    this.omittedIssues = omittedIssues
  }
}

/** Issues beyond this many are counted, not kept. @default 50 */
export const MAX_KEPT_ISSUES = 50

/** The issues of one LongMemEval file, bounded by MAX_KEPT_ISSUES. */
class LongMemEvalIssues extends IssueCollector<LongMemEvalIssueCode> {
  constructor(readonly file: string) {
    super(MAX_KEPT_ISSUES)
  }
}

/** Validates one parsed element; returns the entry or records issues naming it. */
function checkEntry(value: unknown, index: number, seenIds: Set<string>, issues: LongMemEvalIssues): LongMemEvalEntry | null {
  const questionId =
    typeof value === 'object' && value !== null && typeof (value as { question_id?: unknown }).question_id === 'string'
      ? (value as { question_id: string }).question_id
      : undefined
  const at = { file: issues.file, line: null, entryIndex: index, ...(questionId === undefined ? {} : { questionId }) }
  const parsed = longMemEvalEntrySchema.safeParse(value)
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      // zod words an absent field as "expected string, received undefined"; say "missing" instead.
      const absent = issue.code === 'invalid_type' && /received undefined$/.test(issue.message)
      const message = absent ? `missing; ${withArticle(issue.expected)} is required` : issue.message
      const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol')
      issues.push({
        code: absent ? 'missing_field' : 'invalid_field',
        ...at,
        path: path.length === 0 ? null : renderPath(path),
        value: valueAt(value, path),
        message,
      })
    }
    return null
  }
  if (seenIds.has(parsed.data.question_id)) {
    issues.push({
      code: 'duplicate_id',
      ...at,
      path: 'question_id',
      value: parsed.data.question_id,
      message: 'is used by an earlier entry; question ids must be unique',
    })
    return null
  }
  seenIds.add(parsed.data.question_id)
  return parsed.data
}

/** SHA-256 of text with CRLF and lone CR turned into LF, fed chunk by chunk. */
export class NormalisedTextHash {
  private readonly hash: Hash = createHash('sha256')
  private pendingCarriageReturn = false

  update(chunk: Buffer): void {
    let start = 0
    let i = 0
    if (this.pendingCarriageReturn) {
      this.hash.update('\n')
      this.pendingCarriageReturn = false
      if (chunk[0] === 0x0a) start = i = 1
    }
    for (; i < chunk.length; i++) {
      if (chunk[i] !== 0x0d) continue
      this.hash.update(chunk.subarray(start, i))
      if (i + 1 === chunk.length) {
        this.pendingCarriageReturn = true // the LF, if any, is in the next chunk
      } else {
        this.hash.update('\n')
        if (chunk[i + 1] === 0x0a) i++
      }
      start = i + 1
    }
    if (start < chunk.length) this.hash.update(chunk.subarray(start))
  }

  /** Hex digest; the hash cannot be updated afterwards. */
  digest(): string {
    if (this.pendingCarriageReturn) this.hash.update('\n')
    this.pendingCarriageReturn = false
    return this.hash.digest('hex')
  }
}

/** SHA-256 (hex) of a text with its newlines normalised to \n. */
export function normalisedTextSha256(text: string): string {
  const hash = new NormalisedTextHash()
  hash.update(Buffer.from(text, 'utf8'))
  return hash.digest()
}

/**
 * Checks bytes are UTF-8 as they stream past (the rules of a strict decoder:
 * no overlong forms, no surrogates, nothing past U+10FFFF), and says where the
 * first bad sequence starts, as a byte offset into the whole file.
 */
export class Utf8Check {
  private need = 0
  private lower = 0x80
  private upper = 0xbf
  private sequenceStart = 0
  private offset = 0

  /** The file offset of the first invalid sequence in `chunk`, or -1 when all is well so far. */
  update(chunk: Uint8Array): number {
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const byte = chunk[i]!
      if (this.need === 0) {
        if (byte <= 0x7f) continue
        this.sequenceStart = this.offset
        if (byte >= 0xc2 && byte <= 0xdf) this.need = 1
        else if (byte >= 0xe0 && byte <= 0xef) {
          this.need = 2
          if (byte === 0xe0) this.lower = 0xa0
          if (byte === 0xed) this.upper = 0x9f
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          this.need = 3
          if (byte === 0xf0) this.lower = 0x90
          if (byte === 0xf4) this.upper = 0x8f
        } else return this.offset
        continue
      }
      if (byte < this.lower || byte > this.upper) return this.sequenceStart
      this.lower = 0x80
      this.upper = 0xbf
      this.need--
    }
    return -1
  }

  /** At the end of the file: the offset of a sequence it cut off, or -1. */
  end(): number {
    return this.need > 0 ? this.sequenceStart : -1
  }
}

/** The issue of bytes that are not UTF-8 text, or that start with a byte order mark; null when they are fine. */
function encodingIssue(file: string, firstBytes: Uint8Array | null, badOffset: number): LongMemEvalIssue | null {
  if (firstBytes !== null && firstBytes[0] === 0xef && firstBytes[1] === 0xbb && firstBytes[2] === 0xbf)
    return fileIssue(
      file,
      'byte_order_mark',
      'starts with a byte order mark (bytes 0–2, EF BB BF); a LongMemEval file is UTF-8 JSON without one — save it without the BOM',
    )
  if (badOffset >= 0)
    return fileIssue(file, 'invalid_utf8', `not valid UTF-8 at byte ${badOffset}; a LongMemEval file is UTF-8 JSON — re-encode or download it again`)
  return null
}

function fileIssue(file: string, code: LongMemEvalIssueCode, message: string): LongMemEvalIssue {
  return { code, file, line: null, path: null, value: undefined, message }
}

/** Files up to this size are parsed again whole after a syntax error, to place it at its true byte. @default 64 MiB */
const RELOCATE_LIMIT_BYTES = 64 * 1024 * 1024

/** The first syntax error of `text` as a byte offset, with its words; null when it is well-formed JSON. */
function syntaxErrorAt(text: string): { byte: number; reason: string } | null {
  const error = jsonSyntaxError(text)
  return error === null ? null : { byte: Buffer.byteLength(text.slice(0, error.index), 'utf8'), reason: error.reason }
}

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
