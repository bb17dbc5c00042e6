/**
 * The shape of LongMemEval-shaped input: the zod schema of one entry, the problems a loader reports and
 * the errors it throws, and the check of one parsed entry against the schema, worded for the user.
 */
import { z } from 'zod'
import { TimegroundedError } from '../errors.js'
import { type Issue, IssueCollector, renderIssueLines } from '../tivarq/issues.js'
import { renderPath, valueAt, withArticle } from '../tivarq/row-issues.js'

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
export class LongMemEvalIssues extends IssueCollector<LongMemEvalIssueCode> {
  constructor(readonly file: string) {
    super(MAX_KEPT_ISSUES)
  }
}

/** Validates one parsed element; returns the entry or records issues naming it. */
export function checkEntry(value: unknown, index: number, seenIds: Set<string>, issues: LongMemEvalIssues): LongMemEvalEntry | null {
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
