/**
 * The gold resolver (the oracle): what a perfect bitemporal memory answers for
 * a slot and scope, as of an instant, after ingesting a prefix of an episode.
 * Pure functions; spec section 2.
 */
import type { Answer, AnswerValue, Assertion, TivarqEvent } from './schema.js'

const ASCII_ONLY = /^[\x00-\x7f]*$/

/**
 * Python's `str.casefold` (full case folding), as the key canonical lists are
 * sorted by. Upper-then-lower casing reproduces full folding for nearly every
 * character (ß → ss, ſ → s, µ → μ, ligatures, Greek symbol forms); the
 * exceptions are patched: dotless ı folds to itself, final ς to σ, ẞ to ss.
 * Known gap: Python folds Cherokee to upper case, we to lower (same classes).
 */
export function casefold(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase()
  return text
    .split('\u0131')
    .map((part) => part.toUpperCase().toLowerCase())
    .join('\u0131')
    .replace(/\u00df/g, 'ss')
    .replace(/\u03c2/g, '\u03c3')
}

/**
 * Order two strings by Unicode code point, as Python compares str. JavaScript's
 * `<` compares UTF-16 code units, which puts astral characters (emoji, say)
 * before U+E000..U+FFFF; remapping the units fixes that without allocating.
 */
function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length)
  for (let i = 0; i < length; i++) {
    const ua = a.charCodeAt(i)
    const ub = b.charCodeAt(i)
    if (ua === ub) continue
    return codePointRank(ua) - codePointRank(ub)
  }
  return a.length - b.length
}

function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000
  if (unit >= 0xe000) return unit - 0x800
  return unit
}

/**
 * canonical(list) = unique values sorted case-insensitively (casefold key,
 * compared by code point as Python does; ties broken by the values themselves
 * so the result never depends on input order); anything else: itself.
 */
export function canonical(value: AnswerValue): AnswerValue {
  if (!Array.isArray(value)) return value
  return [...new Set(value)].sort((a, b) => compareCodePoints(casefold(a), casefold(b)) || compareCodePoints(a, b))
}

/** Two canonical values are equal (strings by ===, lists element-wise). */
export function sameValue(a: AnswerValue | undefined, b: AnswerValue | undefined): boolean {
  const ca = canonical(a ?? null)
  const cb = canonical(b ?? null)
  if (Array.isArray(ca) || Array.isArray(cb)) {
    if (!Array.isArray(ca) || !Array.isArray(cb) || ca.length !== cb.length) return false
    return ca.every((item, i) => item === cb[i])
  }
  return ca === cb
}

/** Two answers are the same when their states are equal and canonical values are equal. */
export function sameAnswer(a: Answer, b: Answer): boolean {
  return a.state === b.state && sameValue(a.value, b.value)
}

function instant(iso: string): number {
  return Date.parse(iso)
}

/** What a probe asks the gold resolver: which slot, in which scope, as of when. */
export interface GoldQuery {
  slot: string
  scope: string
  /** ISO-8601 UTC instant the question is asked as of. */
  asOf: string
}

/**
 * Resolve the gold answer for `query` over `events` (already cut to the
 * ingested prefix). Replays (a repeated event_id) have no effect; noop and
 * assertion-less events are skipped; assertions effective after `asOf` never
 * matter; expiry yields `expired` and never resurrects an earlier value.
 */
export function resolveGold(events: readonly Pick<TivarqEvent, 'event_id' | 'assertion'>[], query: GoldQuery): Answer {
  const asOf = instant(query.asOf)
  const seen = new Set<string>()
  const kept: { assertion: Assertion; effective: number; arrival: number }[] = []
  events.forEach((event, arrival) => {
    if (seen.has(event.event_id)) return
    seen.add(event.event_id)
    const assertion = event.assertion
    if (!assertion || assertion.op === 'noop') return
    if (assertion.slot !== query.slot || assertion.scope !== query.scope) return
    const effective = instant(assertion.effective_at)
    if (effective > asOf) return
    kept.push({ assertion, effective, arrival })
  })
  kept.sort((a, b) => a.effective - b.effective || a.arrival - b.arrival)

  let answer: Answer = { state: 'unknown', value: null }
  let expiresAt: string | undefined
  for (const { assertion } of kept) {
    switch (assertion.op) {
      case 'set':
        answer = { state: 'known', value: canonical(assertion.value) }
        expiresAt = assertion.expires_at
        break
      case 'add': {
        const previous: string[] = answer.state !== 'known' ? [] : Array.isArray(answer.value) ? answer.value : answer.value === null ? [] : [answer.value]
        const added = assertion.value === null ? previous : [...previous, assertion.value]
        answer = { state: 'known', value: canonical(added) }
        expiresAt = assertion.expires_at
        break
      }
      case 'withdraw':
        answer = { state: 'withdrawn', value: null }
        expiresAt = undefined
        break
      case 'uncertain':
        answer = { state: 'needs_clarification', value: null }
        expiresAt = undefined
        break
      case 'noop':
        break
    }
  }
  if (answer.state === 'known' && expiresAt !== undefined && asOf >= instant(expiresAt)) {
    return { state: 'expired', value: null }
  }
  return answer
}
