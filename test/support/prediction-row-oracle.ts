/**
 * The reference a predictions row's hand-written check is held to: the zod
 * schema the reader used up to issue 24, with the sentences it made of zod's
 * issues and the reshaping of a parsed row, kept here unchanged (only the
 * imports moved). `oracleRow(value)` gives, for any value a JSON line may
 * parse to, the row the old reader accepted or the issues it reported, before
 * the duplicate check. Test-only: the reader itself no longer loads zod.
 */
import { z } from 'zod'
import { MAX_REPORTED_COST_USD, MAX_REPORTED_TOKENS, OPTION_RANGES } from '../../src/limits.js'
import type { Issue } from '../../src/tivarq/issues.js'
import type { PredictionRow } from '../../src/tivarq/results.js'
import { describeFound, issuePath, renderPath, valueAt, withArticle } from '../../src/tivarq/row-issues.js'
import { answerValueSchema, CAPABILITIES, PHASES, ROLES, STATES } from '../../src/tivarq/schema.js'
import { familyOf } from '../../src/tivarq/transitions.js'

type LineIssue = Omit<Issue, 'file' | 'line'>

const answerLike = z.looseObject({ state: z.enum(STATES), value: answerValueSchema.default(null) })
const checkedAnswer = answerLike.superRefine((answer, ctx) => {
  if (answer.state === 'known' && answer.value === null)
    ctx.addIssue({ code: 'custom', path: ['value'], message: 'a known answer needs a value (a string or a list of strings)' })
  if (answer.state !== 'known' && answer.value !== null)
    ctx.addIssue({ code: 'custom', path: ['value'], message: `state ${answer.state} must carry value null, not ${describeFound(answer.value)}` })
})
const elapsedMs = z.number().finite().min(0)
const rowBase = {
  probe_id: z.string().min(1),
  episode_id: z.string().min(1),
  family: z.string().optional(),
  expected: answerLike,
  role: z.enum(ROLES),
  transition_id: z.string(),
  phase: z.enum(PHASES),
  capability: z.enum(CAPABILITIES),
  old_value: answerValueSchema.default(null),
  // Issue 36.5: a repetition a run can make; one issue however far out of range.
  repetition: z
    .number()
    .int({ abort: true })
    .min(0)
    .max(OPTION_RANGES.repeat.max - 1)
    .default(0),
}
/** The old reader's row schema. */
export const predictionRowSchema = z.discriminatedUnion('status', [
  z.looseObject({
    ...rowBase,
    status: z.literal('answered'),
    prediction: checkedAnswer,
    latency_ms: elapsedMs,
    update_lag_ms: elapsedMs.nullish(),
    update_lag_polls: z.number().int().min(0).nullish(),
    update_lag_censored: z.boolean().nullish(),
  }),
  z.looseObject({ ...rowBase, status: z.literal('unsupported') }),
  z.looseObject({ ...rowBase, status: z.literal('error'), latency_ms: elapsedMs.nullish(), error: z.string().default('error') }),
])

const ANSWER_ONLY_FIELDS = ['prediction', 'latency_ms', 'error', 'update_lag_ms', 'update_lag_polls', 'update_lag_censored', 'usage', 'cost_usd'] as const

function normaliseRow(parsed: Record<string, unknown>): PredictionRow {
  const row = { ...parsed }
  if (row.family === undefined) row.family = familyOf({ episode_id: String(row.episode_id) })
  const drop = (keys: readonly string[]): void => {
    for (const key of keys) delete row[key]
  }
  switch (row.status) {
    case 'answered': {
      const prediction = { ...(row.prediction as Record<string, unknown>) }
      for (const key of ['usage', 'cost_usd'] as const) {
        if (row[key] !== undefined && row[key] !== null && prediction[key] === undefined) prediction[key] = row[key]
      }
      row.prediction = prediction
      drop(['usage', 'cost_usd', 'error'])
      if (row.update_lag_ms === null || row.update_lag_ms === undefined) drop(['update_lag_ms', 'update_lag_polls', 'update_lag_censored'])
      break
    }
    case 'unsupported':
      drop(ANSWER_ONLY_FIELDS)
      break
    default:
      drop(ANSWER_ONLY_FIELDS.filter((key) => key !== 'error' && key !== 'latency_ms'))
      if (row.latency_ms === null) delete row.latency_ms
  }
  return row as unknown as PredictionRow
}

const STATUSES = ['answered', 'unsupported', 'error'] as const

function describeRowIssue(issue: z.core.$ZodIssue, value: unknown): { code: string; message: string } {
  const field = issue.path.length > 0 ? String(issue.path[issue.path.length - 1]) : 'row'
  const oneOf = (options: readonly unknown[]): string => options.map((option) => (typeof option === 'string' ? option : JSON.stringify(option))).join(', ')
  const missing = (message: string) => ({ code: 'missing_field' as const, message })
  const invalid = (message: string) => ({ code: 'invalid_field' as const, message })
  switch (issue.code) {
    case 'invalid_union':
      if (field === 'status' || issue.path.length === 0) {
        return value === undefined
          ? missing(`missing; expected one of ${oneOf(STATUSES)}`)
          : { code: 'unknown_value', message: `unknown status ${describeFound(value)}; expected one of ${oneOf(STATUSES)}` }
      }
      return invalid(`expected a string, a list of strings or null, got ${describeFound(value)}`)
    case 'invalid_value':
      if (value === undefined) return missing(`missing; expected one of ${oneOf(issue.values)}`)
      return { code: 'unknown_value', message: `unknown ${field} ${describeFound(value)}; expected one of ${oneOf(issue.values)}` }
    case 'too_small':
      // Counts are worded as counts since issue 36; times as before.
      if (field === 'repetition') return invalid(`${describeFound(value)} is negative; repetitions are numbered from 0`)
      if (field === 'update_lag_polls') return invalid(`${describeFound(value)} is negative; a count is 0 or more`)
      // Ids are told empty since issue 36 (they were told negative, as if a time).
      if (field === 'probe_id' || field === 'episode_id') return invalid(`${describeFound(value)} is empty; an id is one character or more`)
      return invalid(`${describeFound(value)} is negative; a measured time is 0 ms or more`)
    case 'too_big':
      if (field === 'repetition') {
        const { max } = OPTION_RANGES.repeat
        return invalid(`${describeFound(value)} is past the last repetition a run makes, ${max - 1} (OPTION_RANGES.repeat allows ${max})`)
      }
      return invalid(issue.message)
    case 'invalid_type': {
      if (value === undefined) return missing(`missing; ${issue.expected === 'object' ? 'an object' : `a ${issue.expected}`} is required`)
      return invalid(`expected ${withArticle(issue.expected)}, got ${describeFound(value)}`)
    }
    default:
      return invalid(issue.message)
  }
}

const reportedTokens = z.number().int().min(0).max(MAX_REPORTED_TOKENS)
const reportedCost = z.number().min(0).max(MAX_REPORTED_COST_USD)

/**
 * Issue 36's rule, added after the old reader's: on an answered row, the usage and cost reported (in
 * the prediction, and at the top as files before 0.2 kept them) within src/limits.ts's bounds.
 */
function reportedIssues(value: unknown): LineIssue[] {
  if (value === null || typeof value !== 'object' || (value as { status?: unknown }).status !== 'answered') return []
  const row = value as Record<string, unknown>
  const issues: LineIssue[] = []
  const place = (at: string, holder: unknown) => {
    if (holder === null || typeof holder !== 'object' || Array.isArray(holder)) return
    const { usage, cost_usd: cost } = holder as Record<string, unknown>
    if (usage !== null && typeof usage === 'object' && !Array.isArray(usage)) {
      for (const field of ['prompt_tokens', 'completion_tokens']) {
        const count = (usage as Record<string, unknown>)[field]
        if (count != null && !reportedTokens.safeParse(count).success) {
          const message = `${describeFound(count)} is not a whole number from 0 to ${MAX_REPORTED_TOKENS} (MAX_REPORTED_TOKENS)`
          issues.push({ code: 'invalid_field', message, path: `${at}usage.${field}`, value: count })
        }
      }
    }
    if (cost != null && !reportedCost.safeParse(cost).success) {
      const message = `${describeFound(cost)} is not a number of US dollars from 0 to ${MAX_REPORTED_COST_USD} (MAX_REPORTED_COST_USD)`
      issues.push({ code: 'invalid_field', message, path: `${at}cost_usd`, value: cost })
    }
  }
  place('prediction.', row.prediction)
  place('', row)
  return issues
}

/** What the reader makes of one parsed line: the row it keeps, or the issues it reports (before the duplicate check). */
export function oracleRow(value: unknown): { row: PredictionRow } | { issues: LineIssue[] } {
  const parsed = predictionRowSchema.safeParse(value)
  const reported = reportedIssues(value)
  if (!parsed.success) {
    return {
      issues: [
        ...parsed.error.issues.map((issue) => {
          const path = issuePath(issue)
          const found = valueAt(value, path)
          return { ...describeRowIssue(issue, found), path: path.length === 0 ? null : renderPath(path), value: found }
        }),
        ...reported,
      ],
    }
  }
  if (reported.length > 0) return { issues: reported }
  return { row: normaliseRow(parsed.data as Record<string, unknown>) }
}
