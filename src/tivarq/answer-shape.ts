/**
 * The check `answerSchema` makes of an answer, written out by hand: every
 * answer a store gives passes it, and loading zod to make it cost the CLI's
 * `run` about a tenth of its start-up. test/tivarq/answer-shape.test.ts holds
 * it to `answerSchema` itself, accepted answers and every message.
 */
import { STATES } from './vocabulary.js'

const STATE_MESSAGE = `Invalid option: expected one of ${STATES.map((state) => JSON.stringify(state)).join('|')}`
const VALUE_MESSAGE = 'expected a string, a list of strings or null'

/** A string, an array whose every element is a string (no holes), or null: what an answer's value may be. */
export function isAnswerValue(value: unknown): boolean {
  if (value === null || typeof value === 'string') return true
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false
  return true
}

/**
 * What is wrong with `{state, value}` as an answer, as `answerSchema` words it (`path: message`, in
 * its order); empty when it is an answer. The state-and-value rule is judged only once both are
 * well formed, as the schema's refinement is.
 */
export function answerShapeIssues(state: unknown, value: unknown): string[] {
  const issues: string[] = []
  if (typeof state !== 'string' || !(STATES as readonly string[]).includes(state)) issues.push(`state: ${STATE_MESSAGE}`)
  if (!isAnswerValue(value)) issues.push(`value: ${VALUE_MESSAGE}`)
  if (issues.length > 0) return issues
  if (state === 'known' && value === null) issues.push('value: a known answer needs a value (a string or a list of strings)')
  if (state !== 'known' && value !== null) issues.push(`value: state ${state} must carry value null, not ${JSON.stringify(value)}`)
  return issues
}
