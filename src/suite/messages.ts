/**
 * Failure sentences for one probe: what was expected, what came back, and
 * what it means in the domain's words ("stale value leaked: …"). Pure: the
 * diagnosis is data (`ProbeDiagnosis`), the sentence is rendered apart.
 */
import { canonical, resolveGold, sameValue } from '../tivarq/gold.js'
import type { Answer, AnswerValue, Probe, TivarqEvent } from '../tivarq/schema.js'
import type { PredictionRow } from '../tivarq/results.js'
import { printable } from '../tivarq/row-issues.js'

/** What a wrong answer means. Keyed on `kind`; each carries the facts its sentence needs. */
export type ProbeDiagnosis =
  | { kind: 'stale_value_leaked'; returned: AnswerValue; replacedBy: Answer; changedAt: string | null; arrivedLate: LateArrival | null }
  | { kind: 'withdrawal_forgotten'; withdrawnAt: string | null }
  | { kind: 'withdrawn_value_served'; returned: AnswerValue; withdrawnAt: string | null }
  | { kind: 'expired_value_served'; returned: AnswerValue; expiredAt: string | null }
  | { kind: 'clarification_missed'; returned: Answer }
  | { kind: 'needless_clarification'; expected: Answer }
  | { kind: 'scope_leaked'; returned: AnswerValue; fromScope: string }
  | { kind: 'future_value_applied_early'; returned: AnswerValue; effectiveAt: string }
  | { kind: 'addition_treated_as_replacement'; returned: AnswerValue; expected: AnswerValue }
  | { kind: 'replacement_treated_as_addition'; returned: AnswerValue; expected: AnswerValue }
  | { kind: 'known_value_forgotten'; returned: Answer }
  | { kind: 'outdated_value'; returned: AnswerValue; heldFrom: string }
  | { kind: 'history_misreported'; asOf: string }
  | { kind: 'wrong_answer' }

/** A statement that arrived after a newer one yet holds from earlier: it must not win by arriving last. */
export interface LateArrival {
  arrivedAt: string
  effectiveAt: string
}

/** The probe and the episode events ingested before it, to explain a wrong answer. */
export interface ProbeContext {
  probe: Pick<Probe, 'probe_id' | 'as_of' | 'slot' | 'scope' | 'question' | 'after_event_index'>
  /** The episode's events; only the first `after_event_index` were ingested. */
  events: readonly TivarqEvent[]
}

const ABSENT_STATES = new Set(['unknown', 'withdrawn', 'expired'])

/** Explain why `prediction` differs from `expected` (call only for a wrong answer). */
export function diagnose(row: Pick<PredictionRow, 'expected' | 'old_value' | 'capability'>, prediction: Answer, context: ProbeContext): ProbeDiagnosis {
  const { expected } = row
  const { probe } = context
  const ingested = context.events.slice(0, probe.after_event_index)
  const slotEvents = ingested.filter((event) => event.assertion?.slot === probe.slot && event.assertion.scope === probe.scope && event.assertion.op !== 'noop')
  const asOf = Date.parse(probe.as_of)

  if (prediction.state === 'known') {
    if (expected.state === 'known' && row.old_value !== null && sameValue(prediction.value, row.old_value) && !sameValue(expected.value, row.old_value)) {
      return {
        kind: 'stale_value_leaked',
        returned: prediction.value,
        replacedBy: expected,
        changedAt: lastEffective(slotEvents, asOf, null),
        arrivedLate: lateArrival(slotEvents, prediction.value, expected.value),
      }
    }
    if (expected.state === 'withdrawn')
      return { kind: 'withdrawn_value_served', returned: prediction.value, withdrawnAt: lastEffective(slotEvents, asOf, 'withdraw') }
    if (expected.state === 'expired') return { kind: 'expired_value_served', returned: prediction.value, expiredAt: expiryOf(slotEvents, asOf) }
    if (expected.state === 'needs_clarification') return { kind: 'clarification_missed', returned: prediction }
    const future = slotEvents.find(
      (event) => Date.parse(event.assertion!.effective_at) > asOf && event.assertion!.value !== null && valueMentions(prediction.value, event.assertion!.value),
    )
    if (future && !(expected.state === 'known' && sameValue(expected.value, prediction.value))) {
      return { kind: 'future_value_applied_early', returned: prediction.value, effectiveAt: future.assertion!.effective_at }
    }
    const otherScope = probe.scope === 'personal' ? 'work' : 'personal'
    const other = resolveGold(ingested, { slot: probe.slot, scope: otherScope, asOf: probe.as_of })
    if (other.state === 'known' && sameValue(other.value, prediction.value)) return { kind: 'scope_leaked', returned: prediction.value, fromScope: otherScope }
    const earlier = [...slotEvents]
      .reverse()
      .find(
        (event) => Date.parse(event.assertion!.effective_at) <= asOf && event.assertion!.value !== null && sameValue(prediction.value, event.assertion!.value),
      )
    if (earlier && !(Array.isArray(expected.value) && !Array.isArray(prediction.value))) {
      return { kind: 'outdated_value', returned: prediction.value, heldFrom: earlier.assertion!.effective_at }
    }
    if (expected.state === 'known') {
      if (Array.isArray(expected.value) && !Array.isArray(prediction.value))
        return { kind: 'addition_treated_as_replacement', returned: prediction.value, expected: expected.value }
      if (!Array.isArray(expected.value) && Array.isArray(prediction.value))
        return { kind: 'replacement_treated_as_addition', returned: prediction.value, expected: expected.value }
    }
  } else {
    if (expected.state === 'needs_clarification') return { kind: 'clarification_missed', returned: prediction }
    if (prediction.state === 'needs_clarification') return { kind: 'needless_clarification', expected }
    if (expected.state === 'withdrawn' && prediction.state === 'unknown')
      return { kind: 'withdrawal_forgotten', withdrawnAt: lastEffective(slotEvents, asOf, 'withdraw') }
    if (expected.state === 'known' && ABSENT_STATES.has(prediction.state)) return { kind: 'known_value_forgotten', returned: prediction }
  }
  if (row.capability === 'history') return { kind: 'history_misreported', asOf: probe.as_of }
  return { kind: 'wrong_answer' }
}

/** Effective time of the latest change (of `op`, or any op) to the slot at or before `asOf`. */
function lastEffective(events: readonly TivarqEvent[], asOf: number, op: string | null): string | null {
  let latest: string | null = null
  for (const event of events) {
    const assertion = event.assertion!
    if (op !== null && assertion.op !== op) continue
    if (Date.parse(assertion.effective_at) > asOf) continue
    if (latest === null || Date.parse(assertion.effective_at) >= Date.parse(latest)) latest = assertion.effective_at
  }
  return latest
}

/** The statement of `returned` when it arrived after the statement of `expected` but holds from earlier. */
function lateArrival(events: readonly TivarqEvent[], returned: AnswerValue, expected: AnswerValue): LateArrival | null {
  const stating = (value: AnswerValue) => events.filter((event) => event.assertion!.value !== null && sameValue(value, event.assertion!.value)).at(-1)
  const stale = stating(returned)
  const newer = stating(expected)
  if (stale === undefined || newer === undefined || events.indexOf(stale) < events.indexOf(newer)) return null
  if (Date.parse(stale.assertion!.effective_at) >= Date.parse(newer.assertion!.effective_at)) return null
  return { arrivedAt: stale.arrived_at, effectiveAt: stale.assertion!.effective_at }
}

function expiryOf(events: readonly TivarqEvent[], asOf: number): string | null {
  let expiry: string | null = null
  for (const event of events) {
    const at = event.assertion!.expires_at
    if (at !== undefined && Date.parse(at) <= asOf) expiry = at
  }
  return expiry
}

function valueMentions(returned: AnswerValue, value: string): boolean {
  return Array.isArray(returned) ? returned.includes(value) : returned === value
}

/** An answer as a reader sees it: `known "sms"`, `known ["a", "b"]`, `withdrawn`. */
export function formatAnswer(answer: Answer | null): string {
  if (answer === null) return 'nothing'
  if (answer.state !== 'known') return answer.state
  return `known ${formatValue(answer.value)}`
}

function formatValue(value: AnswerValue): string {
  const shown = canonical(value)
  // JSON escapes C0 controls but not C1 (a one-byte CSI) nor bidi marks: printable does.
  if (Array.isArray(shown)) return printable(`[${shown.map((item) => JSON.stringify(item)).join(', ')}]`, Number.POSITIVE_INFINITY)
  return printable(JSON.stringify(shown), Number.POSITIVE_INFINITY)
}

function day(iso: string | null): string {
  return iso === null ? 'an earlier turn' : iso.replace(/T00:00:00(\.000)?Z$/, '').replace(/\.000Z$/, 'Z')
}

/** The meaning of a diagnosis, as one clause ("stale value leaked: returned "email", which was replaced on 2025-01-03"). */
export function renderDiagnosis(diagnosis: ProbeDiagnosis): string {
  switch (diagnosis.kind) {
    case 'stale_value_leaked': {
      const leaked = `stale value leaked: returned ${formatValue(diagnosis.returned)}, which was replaced by ${formatAnswer(diagnosis.replacedBy)} on ${day(diagnosis.changedAt)}`
      const late = diagnosis.arrivedLate
      if (late === null) return leaked
      return `${leaked}; ${formatValue(diagnosis.returned)} arrived late (on ${day(late.arrivedAt)}, about ${day(late.effectiveAt)}), after the newer statement: a statement must not win by arriving last`
    }
    case 'withdrawal_forgotten':
      return `withdrawal forgotten: the value was withdrawn on ${day(diagnosis.withdrawnAt)}, but the store answered unknown, as if nothing had been said: it kept no trace of the withdrawal itself`
    case 'withdrawn_value_served':
      return `withdrawn value still served: returned ${formatValue(diagnosis.returned)}, which was withdrawn on ${day(diagnosis.withdrawnAt)}`
    case 'expired_value_served':
      return `expired value still served: returned ${formatValue(diagnosis.returned)}, which expired on ${day(diagnosis.expiredAt)}`
    case 'clarification_missed':
      return `clarification missed: the latest statement was uncertain, yet the store answered ${formatAnswer(diagnosis.returned)}`
    case 'needless_clarification':
      return `needless clarification: the facts were settled (${formatAnswer(diagnosis.expected)}), yet the store asked for clarification`
    case 'scope_leaked':
      return `scope leaked: returned ${formatValue(diagnosis.returned)}, which holds in the ${diagnosis.fromScope} scope, not this one`
    case 'future_value_applied_early':
      return `future value applied early: returned ${formatValue(diagnosis.returned)}, which takes effect only on ${day(diagnosis.effectiveAt)}`
    case 'addition_treated_as_replacement':
      return `addition treated as a replacement: returned ${formatValue(diagnosis.returned)} where the values accumulate to ${formatValue(diagnosis.expected)}`
    case 'replacement_treated_as_addition':
      return `replacement treated as an addition: returned ${formatValue(diagnosis.returned)} where the new value replaces the old one`
    case 'known_value_forgotten':
      return `known value forgotten: the store answered ${diagnosis.returned.state} for a fact it was told`
    case 'outdated_value':
      return `outdated value returned: ${formatValue(diagnosis.returned)} was stated for ${day(diagnosis.heldFrom)} but a later-effective statement supersedes it`
    case 'history_misreported':
      return `past state misreported: the answer as of ${day(diagnosis.asOf)} is not what held then`
    case 'wrong_answer':
      return 'wrong answer'
  }
}

/** The full failure message of one probe: which probe, the question, expected, returned, and the meaning. */
export function probeFailureMessage(row: PredictionRow, context: ProbeContext): string {
  const { probe } = context
  // The store's error and the rows' strings are untrusted: escaped before any runner prints them.
  const head = `${printable(row.probe_id, Number.POSITIVE_INFINITY)} (${row.family}, ${row.role} ${row.phase}, as of ${day(probe.as_of)}; asked "${printable(probe.question, Number.POSITIVE_INFINITY)}")`
  if (row.status === 'error') return `${head}: the store failed: ${printable(row.error, Number.POSITIVE_INFINITY)}`
  if (row.status === 'unsupported') return `${head}: unsupported: the probe needs the \`${row.capability}\` capability, which the store does not declare`
  const meaning = renderDiagnosis(diagnose(row, row.prediction, context))
  return `${head}: ${meaning}. Expected ${formatAnswer(row.expected)}, returned ${formatAnswer(row.prediction)}.`
}
