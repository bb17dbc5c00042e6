/**
 * A dataset row or manifest against its zod schema, each zod issue reworded as a dataset issue: its
 * code, the field's path as users read it (`events[1].assertion.op`), what was found there and what is
 * allowed.
 */
import type { z } from 'zod'
import type { DatasetIssueCode, DatasetIssues } from './dataset-issues.js'
import { describeFound, issuePath, preview, renderPath, valueAt, withArticle } from './row-issues.js'

export function parseRow<T>(schema: z.ZodType<T>, raw: unknown, file: string, line: number, issues: DatasetIssues): T | undefined {
  const parsed = schema.safeParse(raw)
  if (parsed.success) return parsed.data
  for (const issue of parsed.error.issues) addZodIssue(issue, raw, file, line, issues)
  return undefined
}

type ZodIssue = z.core.$ZodIssue

export function addZodIssue(issue: ZodIssue, raw: unknown, file: string, line: number | null, issues: DatasetIssues, codeOverride?: DatasetIssueCode): void {
  const path = issuePath(issue)
  const value = valueAt(raw, path)
  const field = path.length > 0 ? String(path[path.length - 1]) : 'row'
  const add = (code: DatasetIssueCode, at: (string | number)[], found: unknown, message: string): void =>
    issues.add(codeOverride ?? code, file, line, at.length > 0 ? renderPath(at) : null, found, message)

  switch (issue.code) {
    case 'unrecognized_keys':
      for (const key of issue.keys) add('unknown_field', [...path, key], valueAt(value, [key]), 'unknown field; tivarq.v1 rows have no such field (a typo?)')
      return
    case 'invalid_value': {
      const allowed = issue.values.map((option) => (typeof option === 'string' ? option : JSON.stringify(option)))
      // zod reports an absent enum field as invalid_value, not invalid_type; JSON has no undefined, so absent it is.
      if (value === undefined)
        add(
          'missing_field',
          path,
          undefined,
          `missing; expected ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${allowed.join(', ')}`}`,
        )
      else if (issue.values.length === 1) add('invalid_field', path, value, `expected ${JSON.stringify(issue.values[0])}, got ${describe(value)}`)
      else add('unknown_value', path, value, `unknown ${field} ${describe(value)}; expected one of ${allowed.join(', ')}`)
      return
    }
    case 'invalid_type':
      if (value === undefined) add('missing_field', path, undefined, `missing; a ${issue.expected} is required`)
      else if (path.length === 0) add('invalid_field', path, value, `expected a JSON object, got ${describe(value)}`)
      else add('invalid_field', path, value, `expected ${withArticle(issue.expected)}, got ${describe(value)}`)
      return
    case 'invalid_format':
      if (issue.format === 'datetime')
        add(
          'invalid_field',
          path,
          value,
          `expected an ISO-8601 instant such as 2025-01-01T00:00:00Z (or with a UTC offset, 2025-01-01T05:30:00+05:30), got ${describe(value)}`,
        )
      else add('invalid_field', path, value, `expected ${issue.format} format, got ${describe(value)}`)
      return
    case 'invalid_union':
      add('invalid_field', path, value, `expected a string, a list of strings or null, got ${describe(value)}`)
      return
    case 'too_small':
      if (issue.origin === 'string') add('invalid_field', path, value, 'must not be empty')
      else add('invalid_field', path, value, `must be at least ${String(issue.minimum)}, got ${describe(value)}`)
      return
    default:
      add('invalid_field', path, value, issue.message)
  }
}

/** As describeFound, but a list shows its first items: a dataset row is small enough to quote. */
function describe(value: unknown): string {
  return Array.isArray(value) ? `array ${preview(JSON.stringify(value)).slice(1, -1)}` : describeFound(value)
}
