/**
 * hybrid-corrections (conversation track, illustrative): the hybrid
 * architecture with a reader that also understands retroactive corrections.
 * One phrasing rule per kind of turn (read off the published episodes) turns
 * each user turn into an assertion, a `VersionTable` stores it, and each
 * question's slot and scope are parsed from its text.
 *
 * How it differs from `hybrid` (upstream's reference reader): a correction
 * that names only the value it replaces ("I actually preferred C, not A") is
 * placed in the slot and scope where A was last stated, so history after a
 * correction is right (test split: transition success 0.923077 of 195, against
 * 0.846154). Expiry is never stated in the text, so neither can know it.
 */
import { casefold } from '../../tivarq/gold.js'
import type { Scope } from '../../tivarq/schema.js'
import type { MemoryStore, StoreAnswer, StoreAssertion, StoreCapabilities, StoreEvent, StoreQuery } from '../types.js'
import { VersionTable } from './versioned.js'
import { REFERENCE_STORE_VERSION } from './version.js'

type Extracted = { op: StoreAssertion['op']; slot?: string; scope?: Scope; value: string | null; replaces?: string }

interface Rule {
  /** Named groups: value, slot, scope, replaces (the value a correction replaces). */
  pattern: RegExp
  op: StoreAssertion['op']
  /** The scope when the sentence names it in other words ("At work", "For work only"). */
  scope?: Scope
}

const SCOPE = '(?<scope>personal|work)'
const SLOT = '(?<slot>[a-z][a-z ]*?)'
const VALUE = '(?<value>[^.;,]+?)'

/** First match wins; order matters (specific phrasings before the general one). */
const RULES: readonly Rule[] = [
  // Someone else's preference is not the user's.
  { pattern: /\b(?:colleague|friend|they) said\b|\babout them\b/i, op: 'noop' },
  { pattern: new RegExp(`\\bno longer have a ${SCOPE} ${SLOT} preference\\b`, 'i'), op: 'withdraw' },
  { pattern: new RegExp(`\\bmight prefer ${VALUE} for my ${SCOPE} ${SLOT}(?:,|\\.|$)`, 'i'), op: 'uncertain' },
  { pattern: new RegExp(`\\bAdd ${VALUE} alongside .+? for my ${SCOPE} ${SLOT}(?:;|\\.|$)`, 'i'), op: 'add' },
  { pattern: new RegExp(`\\bFor work only, change my ${SLOT} from .+? to ${VALUE}\\.`, 'i'), op: 'set', scope: 'work' },
  { pattern: new RegExp(`\\bAt work, I prefer ${VALUE} as my ${SLOT}\\.`, 'i'), op: 'set', scope: 'work' },
  { pattern: new RegExp(`\\bFor my ${SCOPE} setup, I prefer ${VALUE} as my ${SLOT}\\.`, 'i'), op: 'set' },
  { pattern: new RegExp(`^My ${SLOT} is ${VALUE} for ${SCOPE} use\\.`, 'i'), op: 'set' },
  { pattern: new RegExp(`\\btried ${VALUE} as my ${SCOPE} ${SLOT}\\.`, 'i'), op: 'set' },
  { pattern: new RegExp(`\\bI actually preferred ${VALUE}, not (?<replaces>[^.]+?)\\.`, 'i'), op: 'set' },
  { pattern: new RegExp(`\\bmy (?:only )?${SCOPE} ${SLOT} (?:now is|is|to|will be) ${VALUE}(?: again| now)?\\.`, 'i'), op: 'set' },
]

const DATED = /\b(?:on|As of|Starting on) (\d{4}-\d{2}-\d{2})\b/i
const QUESTION = new RegExp(`\\bwhat is my ${SLOT} for ${SCOPE}\\?`, 'i')

function slotName(words: string): string {
  return words.trim().toLowerCase().replace(/\s+/g, '_')
}

/** The slot and scope a conversation-track question asks about (`… what is my meeting window for work?`), or null when it is not phrased that way. */
export function readQuestion(question: string): { slot: string; scope: Scope } | null {
  const parsed = QUESTION.exec(question)
  if (!parsed?.groups?.slot || !parsed.groups.scope) return null
  return { slot: slotName(parsed.groups.slot), scope: parsed.groups.scope.toLowerCase() as Scope }
}

/** One turn → an assertion, or null when no rule recognises it. */
export function extractAssertion(text: string): Extracted | null {
  for (const rule of RULES) {
    const match = rule.pattern.exec(text)
    if (!match) continue
    const groups = match.groups ?? {}
    const scope = (rule.scope ?? groups.scope?.toLowerCase()) as Scope | undefined
    const extracted: Extracted = { op: rule.op, value: rule.op === 'set' || rule.op === 'add' ? (groups.value?.trim() ?? null) : null }
    if (groups.slot !== undefined) extracted.slot = slotName(groups.slot)
    if (scope !== undefined) extracted.scope = scope
    if (groups.replaces !== undefined) extracted.replaces = groups.replaces.trim()
    return extracted
  }
  return null
}

/** The hybrid-corrections reference store: extracts an assertion from each turn's text, corrections included, then answers from a version table (conversation track). */
export class CorrectingHybridStore implements MemoryStore {
  readonly capabilities: StoreCapabilities = { tracks: ['conversation'], clock: true, history: true, adapterVersion: REFERENCE_STORE_VERSION }
  private readonly table = new VersionTable()
  /** Where each value was last stated, to place a correction that names only the value it corrects. */
  private readonly placeOfValue = new Map<string, { slot: string; scope: Scope }>()

  reset(): void {
    this.table.clear()
    this.placeOfValue.clear()
  }

  ingest(event: StoreEvent): void {
    const extracted = event.speaker === 'user' ? extractAssertion(event.text) : null
    if (!extracted || extracted.op === 'noop') {
      this.table.record(event.eventId, undefined)
      return
    }
    const place = extracted.replaces !== undefined ? this.placeOfValue.get(casefold(extracted.replaces)) : undefined
    const slot = extracted.slot ?? place?.slot
    const scope = extracted.scope ?? place?.scope ?? 'personal'
    if (slot === undefined) {
      this.table.record(event.eventId, undefined)
      return
    }
    const dated = DATED.exec(event.text)
    const effectiveAt = dated ? `${dated[1]}T00:00:00Z` : event.arrivedAt
    if (extracted.value !== null) this.placeOfValue.set(casefold(extracted.value), { slot, scope })
    this.table.record(event.eventId, { op: extracted.op, slot, scope, value: extracted.value, effectiveAt })
  }

  query(query: StoreQuery): StoreAnswer {
    const asked = readQuestion(query.question)
    if (asked === null) return { state: 'unknown', value: null }
    return this.table.answer(asked.slot, asked.scope, query.asOf)
  }
}
