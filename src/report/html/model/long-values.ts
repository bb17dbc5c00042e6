/**
 * Rows as the page shows them: every text longer than `PAGE_VALUE_CHARS` cut, with its length and a
 * fingerprint of the whole, before anything is worded from it. The fingerprint keeps two long values
 * that share their start apart, so every judgement the page words (right, wrong, a stale leak) is the
 * one the whole values give.
 */
import { createHash } from 'node:crypto'
import { PAGE_VALUE_CHARS } from '../../../limits.js'
import type { PredictionRow } from '../../../tivarq/results.js'
import type { AnswerValue } from '../../../tivarq/schema.js'

/** `text` when short; else its start, then how long it was and the start of its SHA-256. */
export function cutForPage(text: string): string {
  if (text.length <= PAGE_VALUE_CHARS) return text
  const fingerprint = createHash('sha256').update(text).digest('hex').slice(0, 12)
  return `${text.slice(0, PAGE_VALUE_CHARS)}… (cut for the page: ${text.length} characters in all, sha256 ${fingerprint}…)`
}

function cutValue(value: AnswerValue): AnswerValue {
  if (typeof value === 'string') return cutForPage(value)
  return Array.isArray(value) ? value.map(cutForPage) : value
}

function isLong(value: unknown): boolean {
  if (typeof value === 'string') return value.length > PAGE_VALUE_CHARS
  return Array.isArray(value) && value.some((each) => typeof each === 'string' && each.length > PAGE_VALUE_CHARS)
}

function rowIsLong(row: PredictionRow): boolean {
  if (isLong(row.expected.value) || isLong(row.old_value)) return true
  if (row.status === 'answered') return isLong(row.prediction.value) || isLong(row.prediction.raw_answer)
  return row.status === 'error' && isLong(row.error)
}

/** The row with its long texts cut (a copy), or the row itself when none is long. */
function cutRow(row: PredictionRow): PredictionRow {
  if (!rowIsLong(row)) return row
  const cut = { ...row, expected: { ...row.expected, value: cutValue(row.expected.value) }, old_value: cutValue(row.old_value) } as PredictionRow
  if (cut.status === 'answered') {
    const prediction = { ...cut.prediction, value: cutValue(cut.prediction.value) }
    if (typeof prediction.raw_answer === 'string') prediction.raw_answer = cutForPage(prediction.raw_answer)
    cut.prediction = prediction
  } else if (cut.status === 'error') cut.error = cutForPage(cut.error)
  return cut
}

/** Rows with every long text cut for the page; the same array when none is long. */
export function rowsForPage(rows: readonly PredictionRow[]): readonly PredictionRow[] {
  return rows.some(rowIsLong) ? rows.map(cutRow) : rows
}
