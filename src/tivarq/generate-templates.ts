/**
 * The family scripts every TIVARQ generator runs: the v1 templates and
 * parameter rules, recovered from the published rows (every one of the 240
 * episodes follows them exactly), written so that a variant (variant.ts) can
 * swap the wording, the topic, the arrival order and the duplicate script.
 *
 * What varies per v1 episode, and what decides it (f = family index in
 * FAMILIES, i = episode number within the family, 0..19):
 *   - split:               i = 0 smoke, 1..4 dev, 5..19 test
 *   - base day (day 0):    2025-01-01 + (230·f + 11·i) days, midnight UTC
 *   - topic:               TOPICS[(f + i) mod 6]
 *   - the topic's values:  V_k = topic.values[(k − f) mod 3] for k = 0, 1, 2
 *   - interface language:  INTERFACE_LANGUAGES[i mod 3]
 * Everything else (events, days relative to day 0, texts, probes, roles,
 * phases, capabilities, transition names, old values) is fixed per family.
 * No random numbers are drawn: the seed 20261001 is recorded in every row but
 * influences nothing.
 */
import type { Answer, AnswerValue } from './schema.js'
import type { Family, Op, Scope, Split } from './vocabulary.js'
import { FAMILIES } from './vocabulary.js'
import { canonical } from './gold.js'

/** A topic: the episode's main slot, how the text names it, and its values (three in v1, more in a variant's bank). */
export interface Topic {
  readonly slot: string
  readonly words: string
  readonly values: readonly string[]
}

/** The six topics, in the order episodes cycle through them. */
export const TOPICS: readonly Topic[] = [
  { slot: 'notification_channel', words: 'notification channel', values: ['email', 'chat', 'push'] },
  { slot: 'workspace_theme', words: 'workspace theme', values: ['dark', 'system', 'light'] },
  { slot: 'meeting_window', words: 'meeting window', values: ['evening', 'morning', 'afternoon'] },
  { slot: 'note_format', words: 'note format', values: ['markdown', 'plain text', 'rich text'] },
  { slot: 'music_genre', words: 'music genre', values: ['ambient', 'classical', 'jazz'] },
  { slot: 'coding_language', words: 'coding language', values: ['Rust', 'Python', 'Go'] },
]

/** The fact every episode states once and checks survives the change: its slot, its words and the value this episode gives it. */
export interface ControlFact {
  readonly slot: string
  readonly words: string
  readonly value: string
}

/** The values the v1 control fact (interface language) takes: episode i states INTERFACE_LANGUAGES[i mod 3]. */
export const INTERFACE_LANGUAGES = ['English', 'Spanish', 'French'] as const

/** Episodes per family in each split, in file order. */
export const SPLIT_EPISODES: Readonly<Record<Split, readonly number[]>> = {
  smoke: [0],
  dev: [1, 2, 3, 4],
  test: Array.from({ length: 15 }, (_, n) => n + 5),
}

const FIRST_DAY_MS = Date.UTC(2025, 0, 1)
const FAMILY_SPACING_DAYS = 230
const EPISODE_SPACING_DAYS = 11
/** Milliseconds in a day. */
export const DAY_MS = 86_400_000

// ─── Wording ────────────────────────────────────────────────────────────────

/** Every sentence a family script says, by name. */
export const PHRASE_KEYS = [
  'opening',
  'control',
  'aside',
  'replacement',
  'reversalSwitch',
  'reversalBack',
  'withdrawal',
  'addAlongside',
  'replaceOptions',
  'workPreference',
  'workChange',
  'futureChange',
  'changeToday',
  'retroCorrection',
  'currentAsOf',
  'lateArrival',
  'duplicateChange',
  'duplicateSlip',
  'duplicateFix',
  'thirdPartyQuote',
  'unsure',
  'decided',
] as const
/** One of PHRASE_KEYS. */
export type PhraseKey = (typeof PHRASE_KEYS)[number]

/** What a sentence may mention: the topic's words and values, the control fact, and dates relative to day 0. */
export interface PhraseContext {
  readonly V0: string
  readonly V1: string
  readonly V2: string
  /** How the text names the topic, e.g. `notification channel`. */
  readonly words: string
  readonly control: ControlFact
  /** A day relative to day 0, written as the episode writes dates (`2025-01-06` in v1). */
  date(day: number): string
}

/** One sentence template. */
export type Phrase = (c: PhraseContext) => string

/** A probe's question template: the slot's words, the scope and the as-of date as written. */
export type QuestionPhrase = (q: { words: string; scope: Scope; date: string }) => string

/** How an episode is worded: one template per sentence, the question, and how a day is written. */
export interface Wording {
  readonly phrases: Readonly<Record<PhraseKey, Phrase>>
  readonly question: QuestionPhrase
  /** A day (midnight UTC, epoch ms) as the texts write it. */
  readonly date: (dayMs: number) => string
}

/** `YYYY-MM-DD` of a day (epoch ms, UTC). */
export function isoDay(dayMs: number): string {
  return new Date(dayMs).toISOString().slice(0, 10)
}

/** The v1 wording: one template per sentence, exactly as published. */
export const V1_WORDING: Wording = {
  phrases: {
    opening: (c) => `For my personal setup, I prefer ${c.V0} as my ${c.words}.`,
    control: (c) => `My ${c.control.words} is ${c.control.value} for personal use.`,
    aside: () => 'The shared workspace has a weekly status meeting.',
    replacement: (c) => `I changed my personal ${c.words} to ${c.V1}. Use ${c.V1} from now on.`,
    reversalSwitch: (c) => `Please switch my personal ${c.words} to ${c.V1}.`,
    reversalBack: (c) => `I have changed back: my personal ${c.words} is ${c.V0} again.`,
    withdrawal: (c) => `I no longer have a personal ${c.words} preference. Please remove it.`,
    addAlongside: (c) => `Add ${c.V1} alongside ${c.V0} for my personal ${c.words}; both are fine.`,
    replaceOptions: (c) => `Replace those options. My only personal ${c.words} now is ${c.V2}.`,
    workPreference: (c) => `At work, I prefer ${c.V1} as my ${c.words}.`,
    workChange: (c) => `For work only, change my ${c.words} from ${c.V1} to ${c.V2}.`,
    futureChange: (c) => `Starting on ${c.date(5)}, my personal ${c.words} will be ${c.V1}.`,
    changeToday: (c) => `From today, my personal ${c.words} is ${c.V1}.`,
    retroCorrection: (c) => `Correction: on ${c.date(2)} I actually preferred ${c.V2}, not ${c.V0}. My later choice still stands.`,
    currentAsOf: (c) => `As of ${c.date(3)}, my personal ${c.words} is ${c.V1}.`,
    lateArrival: (c) => `This message arrived late: on ${c.date(2)} I tried ${c.V2} as my personal ${c.words}.`,
    duplicateChange: (c) => `Now my personal ${c.words} is ${c.V1}.`,
    // Only the same-instant duplicate script (variants) says these two.
    duplicateSlip: (c) => `Now my personal ${c.words} is ${c.V2}.`,
    duplicateFix: (c) => `Sorry, I meant ${c.V1}, not ${c.V2}, for my personal ${c.words}.`,
    thirdPartyQuote: (c) => `A colleague said they prefer ${c.V1} as their ${c.words}; that was about them, not me.`,
    unsure: (c) => `I might prefer ${c.V1} for my personal ${c.words}, but I am not sure yet.`,
    decided: (c) => `I have decided: set my personal ${c.words} to ${c.V1}.`,
  },
  question: (q) => `As of ${q.date}, what is my ${q.words} for ${q.scope}?`,
  date: isoDay,
}

// ─── Episode parameters ─────────────────────────────────────────────────────

/** When the arriving turns come in: the opening's order and where the assistant's aside lands. */
export interface ArrivalOrder {
  /** The control fact arrives before the topic's first value (v1: after it). */
  readonly controlFirst: boolean
  /** How many of the other events arrive before the assistant's aside; v1: 2, right after the opening pair. */
  readonly asideAfter: number
}

/** The v1 arrival order: topic fact, control fact, aside, then the family's turns. */
export const V1_ARRIVAL_ORDER: ArrivalOrder = { controlFirst: false, asideAfter: 2 }

/** Everything that varies between two episodes of one family. */
export interface EpisodeParameters {
  readonly family: Family
  readonly familyIndex: number
  readonly episodeIndex: number
  readonly episodeId: string
  /** Day 0 of the episode, as epoch milliseconds (midnight UTC). */
  readonly dayZeroMs: number
  readonly topic: Topic
  /** V0, V1, V2: three distinct values of the topic, in the order the episode uses them. */
  readonly values: readonly [string, string, string]
  readonly control: ControlFact
  readonly wording: Wording
  readonly arrival: ArrivalOrder
  /**
   * duplicate_event only: a statement is corrected at its own instant and then
   * replayed, so re-applying the replay changes the answer (v1: the replay
   * sorts before the change and cannot).
   */
  readonly sameInstantReplay: boolean
}

/** The parameters of v1 episode `episodeIndex` of `family` (see the file banner for the rules). */
export function episodeParameters(family: Family, episodeIndex: number): EpisodeParameters {
  const f = FAMILIES.indexOf(family)
  const topic = TOPICS[(f + episodeIndex) % TOPICS.length] as Topic
  const value = (k: number): string => topic.values[(((k - f) % 3) + 3) % 3] as string
  return {
    family,
    familyIndex: f,
    episodeIndex,
    episodeId: episodeIdOf(family, episodeIndex),
    dayZeroMs: FIRST_DAY_MS + (FAMILY_SPACING_DAYS * f + EPISODE_SPACING_DAYS * episodeIndex) * DAY_MS,
    topic,
    values: [value(0), value(1), value(2)],
    control: { slot: 'interface_language', words: 'interface language', value: INTERFACE_LANGUAGES[episodeIndex % INTERFACE_LANGUAGES.length] as string },
    wording: V1_WORDING,
    arrival: V1_ARRIVAL_ORDER,
    sameInstantReplay: false,
  }
}

/** `<family>-<NN>` */
export function episodeIdOf(family: Family, episodeIndex: number): string {
  return `${family}-${String(episodeIndex).padStart(2, '0')}`
}

// ─── Plans ──────────────────────────────────────────────────────────────────

/** An event as a family script describes it (days relative to day 0): a new statement or a replay. */
export type EventPlan = StatementPlan | ReplayPlan

/** When an assertion takes effect: the moment it arrives, midnight (UTC) of a day the text names, or the instant another event takes effect. */
export type EffectivePlan = { readonly on: 'arrival' } | { readonly on: 'day'; readonly day: number } | { readonly on: 'event'; readonly eventNumber: number }

/** A new turn: its text and the gold assertion it carries. */
export interface StatementPlan {
  readonly kind: 'statement'
  readonly arrivedDay: number
  readonly speaker: 'user' | 'assistant'
  readonly text: string
  readonly assertion: {
    readonly op: Op
    readonly slot: string
    readonly scope: Scope
    readonly value: string | null
    readonly effective: EffectivePlan
    readonly expiresDay?: number
  }
}

/** Event number `eventNumber` (1-based, in arrival order) sent again on `arrivedDay`, with its id, text and assertion. */
export interface ReplayPlan {
  readonly kind: 'replay'
  readonly arrivedDay: number
  readonly eventNumber: number
}

/** A probe as a family script describes it; `intended` is checked against the gold resolver. */
export interface ProbePlan {
  readonly afterEventIndex: number
  readonly asOfDay: number
  readonly slot: string
  readonly scope: Scope
  /** The question as the episode words it. */
  readonly question: string
  readonly role: 'target' | 'control' | 'scope_control'
  /** Suffix of the transition id (`<episode_id>-<transition>`). */
  readonly transition: string
  readonly phase: 'pre' | 'post' | 'check'
  readonly capability: 'basic' | 'clock' | 'history'
  readonly oldValue: AnswerValue
  readonly intended: Answer
}

/** One episode's script: events in arrival order, probes in id order. */
export interface EpisodePlan {
  readonly events: readonly EventPlan[]
  readonly probes: readonly ProbePlan[]
}

type ProbeExtras = Partial<Omit<ProbePlan, 'afterEventIndex' | 'asOfDay' | 'intended' | 'question'>>

/** Helpers a family script builds with, bound to one episode's parameters. */
interface ScriptKit extends PhraseContext {
  /** The episode's sentence `key`. */
  say(key: PhraseKey): string
  topicEvent(
    arrivedDay: number,
    text: string,
    op: Op,
    value: string | null,
    more?: { scope?: Scope; effectiveDay?: number; sameInstantAs?: number },
  ): StatementPlan
  topicProbe(afterEventIndex: number, asOfDay: number, intended: Answer, more: ProbeExtras): ProbePlan
}

const known = (value: AnswerValue): Answer => ({ state: 'known', value })
const none = (state: Exclude<Answer['state'], 'known'>): Answer => ({ state, value: null })

/** The middle of an episode: what the family adds between the shared opening and the closing control. */
interface FamilyScript {
  /** Expiry day of the opening fact, if the family makes it expire. */
  readonly openingExpiresDay?: number
  build(kit: ScriptKit, params: EpisodeParameters): { events: EventPlan[]; probes: ProbePlan[] }
}

/** One script per family; a family without a script fails to type-check. */
const FAMILY_SCRIPTS: Record<Family, FamilyScript> = {
  replacement: {
    build: (k) => ({
      events: [k.topicEvent(3, k.say('replacement'), 'set', k.V1)],
      probes: [k.topicProbe(4, 4, known(k.V1), { phase: 'post', oldValue: k.V0 })],
    }),
  },
  reversal: {
    build: (k) => ({
      events: [k.topicEvent(3, k.say('reversalSwitch'), 'set', k.V1), k.topicEvent(6, k.say('reversalBack'), 'set', k.V0)],
      probes: [
        k.topicProbe(4, 3, known(k.V1), { transition: 'first', phase: 'post', oldValue: k.V0 }),
        k.topicProbe(5, 7, known(k.V0), { phase: 'post', oldValue: k.V1 }),
      ],
    }),
  },
  withdrawal: {
    build: (k) => ({
      events: [k.topicEvent(3, k.say('withdrawal'), 'withdraw', null)],
      probes: [k.topicProbe(4, 4, none('withdrawn'), { phase: 'post', oldValue: k.V0 })],
    }),
  },
  add_vs_replace: {
    build: (k) => ({
      events: [k.topicEvent(3, k.say('addAlongside'), 'add', k.V1), k.topicEvent(6, k.say('replaceOptions'), 'set', k.V2)],
      probes: [
        k.topicProbe(4, 4, known(canonical([k.V0, k.V1])), { transition: 'add', phase: 'post' }),
        // The old value keeps the order the user gave (only expected answers are canonical).
        k.topicProbe(5, 7, known(k.V2), { phase: 'post', oldValue: [k.V0, k.V1] }),
      ],
    }),
  },
  scoped_change: {
    build: (k) => ({
      events: [k.topicEvent(2, k.say('workPreference'), 'set', k.V1, { scope: 'work' }), k.topicEvent(4, k.say('workChange'), 'set', k.V2, { scope: 'work' })],
      probes: [
        k.topicProbe(4, 2, known(k.V1), { scope: 'work' }),
        k.topicProbe(5, 5, known(k.V2), { scope: 'work', phase: 'post', oldValue: k.V1 }),
        k.topicProbe(5, 5, known(k.V0), { role: 'scope_control', phase: 'post' }),
      ],
    }),
  },
  future_effective: {
    build: (k) => ({
      events: [k.topicEvent(2, k.say('futureChange'), 'set', k.V1, { effectiveDay: 5 })],
      probes: [
        k.topicProbe(4, 4, known(k.V0), { transition: 'future', capability: 'clock' }),
        k.topicProbe(4, 5, known(k.V1), { transition: 'future', phase: 'post', capability: 'clock', oldValue: k.V0 }),
      ],
    }),
  },
  expiration: {
    openingExpiresDay: 5,
    build: (k) => ({
      events: [],
      probes: [
        k.topicProbe(3, 4, known(k.V0), { transition: 'expiry', capability: 'clock' }),
        k.topicProbe(3, 5, none('expired'), { transition: 'expiry', phase: 'post', capability: 'clock', oldValue: k.V0 }),
      ],
    }),
  },
  retro_correction: {
    build: (k) => ({
      events: [k.topicEvent(4, k.say('changeToday'), 'set', k.V1), k.topicEvent(6, k.say('retroCorrection'), 'set', k.V2, { effectiveDay: 2 })],
      probes: [
        k.topicProbe(4, 5, known(k.V1), { phase: 'post', oldValue: k.V0 }),
        k.topicProbe(4, 3, known(k.V0), { transition: 'history', capability: 'history' }),
        k.topicProbe(5, 3, known(k.V2), { transition: 'history', phase: 'post', capability: 'history', oldValue: k.V0 }),
        k.topicProbe(5, 7, known(k.V1), { transition: 'current', phase: 'check' }),
      ],
    }),
  },
  delayed_arrival: {
    build: (k) => ({
      events: [
        k.topicEvent(3, k.say('currentAsOf'), 'set', k.V1, { effectiveDay: 3 }),
        k.topicEvent(6, k.say('lateArrival'), 'set', k.V2, { effectiveDay: 2 }),
      ],
      probes: [k.topicProbe(4, 4, known(k.V1), { transition: 'late' }), k.topicProbe(5, 7, known(k.V1), { transition: 'late', phase: 'post', oldValue: k.V2 })],
    }),
  },
  duplicate_event: {
    build: (k, params) =>
      params.sameInstantReplay
        ? {
            // A slip (V2) corrected at its own instant (V1), then the slip replayed: re-applying it brings V2 back.
            events: [
              k.topicEvent(3, k.say('duplicateSlip'), 'set', k.V2),
              k.topicEvent(3, k.say('duplicateFix'), 'set', k.V1, { sameInstantAs: 4 }),
              replay(4, 6),
            ],
            probes: [
              k.topicProbe(5, 3, known(k.V1), { transition: 'duplicate' }),
              k.topicProbe(6, 7, known(k.V1), { transition: 'duplicate', phase: 'post', oldValue: k.V2 }),
            ],
          }
        : {
            events: [k.topicEvent(3, k.say('duplicateChange'), 'set', k.V1), replay(1, 6)],
            probes: [
              k.topicProbe(4, 3, known(k.V1), { transition: 'duplicate' }),
              k.topicProbe(5, 7, known(k.V1), { transition: 'duplicate', phase: 'post', oldValue: k.V0 }),
            ],
          },
  },
  third_party_quote: {
    build: (k) => ({
      events: [k.topicEvent(3, k.say('thirdPartyQuote'), 'noop', k.V1)],
      probes: [k.topicProbe(4, 4, known(k.V0), { phase: 'post', oldValue: k.V1 })],
    }),
  },
  ambiguity: {
    build: (k) => ({
      events: [k.topicEvent(3, k.say('unsure'), 'uncertain', k.V1), k.topicEvent(6, k.say('decided'), 'set', k.V1)],
      probes: [
        k.topicProbe(4, 4, none('needs_clarification'), { phase: 'post', oldValue: k.V0 }),
        k.topicProbe(5, 7, known(k.V1), { transition: 'resolution', phase: 'post', oldValue: k.V0 }),
      ],
    }),
  },
}

function replay(eventNumber: number, arrivedDay: number): ReplayPlan {
  return { kind: 'replay', arrivedDay, eventNumber }
}

/** `YYYY-MM-DD` of `day` days after day 0. */
export function isoDate(dayZeroMs: number, day: number): string {
  return isoDay(dayZeroMs + day * DAY_MS)
}

/**
 * The whole script of one episode: the shared opening (the topic's first value,
 * the control fact, an unrelated assistant turn; a pre-change probe of each),
 * the family's middle, and the closing control probe on day 8; then put in the
 * episode's arrival order (see `arrange`).
 */
export function planEpisode(params: EpisodeParameters): EpisodePlan {
  const { values, control, wording } = params
  const [V0] = values
  const script = FAMILY_SCRIPTS[params.family]
  const kit = scriptKit(params)
  const middle = script.build(kit, params)
  const events = [...openingEvents(kit, params, script.openingExpiresDay), ...middle.events]
  const controlProbe = (afterEventIndex: number, asOfDay: number, phase: 'pre' | 'post'): ProbePlan => ({
    ...kit.topicProbe(afterEventIndex, asOfDay, known(control.value), { phase }),
    slot: control.slot,
    question: wording.question({ words: control.words, scope: 'personal', date: kit.date(asOfDay) }),
    role: 'control',
  })
  const probes = [kit.topicProbe(3, 1, known(V0), {}), controlProbe(3, 1, 'pre'), ...middle.probes, controlProbe(events.length, 8, 'post')]
  return arrange({ events, probes }, params.arrival)
}

/** What a family's script writes with: the episode's wording, and events and probes of its topic with the usual defaults. */
function scriptKit(params: EpisodeParameters): ScriptKit {
  const { topic, values, control, wording } = params
  const [V0, V1, V2] = values
  const date = (day: number): string => wording.date(params.dayZeroMs + day * DAY_MS)
  const context: PhraseContext = { V0, V1, V2, words: topic.words, control, date }
  return {
    ...context,
    say: (key) => wording.phrases[key](context),
    topicEvent: (arrivedDay, text, op, value, more = {}) => ({
      kind: 'statement',
      arrivedDay,
      speaker: 'user',
      text,
      assertion: {
        op,
        slot: topic.slot,
        scope: more.scope ?? 'personal',
        value,
        effective:
          more.sameInstantAs !== undefined
            ? { on: 'event', eventNumber: more.sameInstantAs }
            : more.effectiveDay !== undefined
              ? { on: 'day', day: more.effectiveDay }
              : { on: 'arrival' },
      },
    }),
    topicProbe: (afterEventIndex, asOfDay, intended, more) => {
      const scope = more.scope ?? 'personal'
      return {
        afterEventIndex,
        asOfDay,
        slot: topic.slot,
        scope,
        question: wording.question({ words: topic.words, scope, date: date(asOfDay) }),
        role: 'target',
        transition: 'main',
        phase: 'pre',
        capability: 'basic',
        oldValue: null,
        intended,
        ...more,
      }
    },
  }
}

/** The shared opening of every episode: the topic's first value, the control fact, an unrelated assistant turn. */
function openingEvents(kit: ScriptKit, params: EpisodeParameters, openingExpiresDay: number | undefined): StatementPlan[] {
  const { topic, values, control } = params
  return [
    {
      kind: 'statement',
      arrivedDay: 0,
      speaker: 'user',
      text: kit.say('opening'),
      assertion: {
        op: 'set',
        slot: topic.slot,
        scope: 'personal',
        value: values[0],
        effective: { on: 'arrival' },
        ...(openingExpiresDay === undefined ? {} : { expiresDay: openingExpiresDay }),
      },
    },
    {
      kind: 'statement',
      arrivedDay: 0,
      speaker: 'user',
      text: kit.say('control'),
      assertion: { op: 'set', slot: control.slot, scope: 'personal', value: control.value, effective: { on: 'arrival' } },
    },
    {
      kind: 'statement',
      arrivedDay: 1,
      speaker: 'assistant',
      text: kit.say('aside'),
      assertion: { op: 'noop', slot: topic.slot, scope: 'personal', value: null, effective: { on: 'arrival' } },
    },
  ]
}

/** Position of the assistant's aside in a script (the third opening turn). */
const ASIDE = 2

/**
 * Puts a script written in v1 order into `order`: the opening pair may swap,
 * and the aside (a noop that no answer depends on) moves to just after
 * `asideAfter` of the other events. Replays and same-instant references are
 * renumbered, and each probe is asked once the same statements have arrived.
 * The v1 order returns the script unchanged.
 */
function arrange(plan: EpisodePlan, order: ArrivalOrder): EpisodePlan {
  const others = plan.events.map((_, i) => i).filter((i) => i !== ASIDE)
  if (order.controlFirst) [others[0], others[1]] = [others[1] as number, others[0] as number]
  const asideAfter = Math.min(Math.max(order.asideAfter, 0), others.length)
  const arrived = [...others.slice(0, asideAfter), ASIDE, ...others.slice(asideAfter)]
  const numberOf = (scriptNumber: number): number => arrived.indexOf(scriptNumber - 1) + 1
  const events = arrived.map((scriptIndex, position): EventPlan => {
    const event = plan.events[scriptIndex] as EventPlan
    if (event.kind === 'replay') return { ...event, eventNumber: numberOf(event.eventNumber) }
    if (scriptIndex === ASIDE) {
      // Between its neighbours in time: day 1 right after the opening pair (as in v1), else the day of the turn before it.
      const before = position === 0 ? 0 : (plan.events[arrived[position - 1] as number] as EventPlan).arrivedDay
      return { ...event, arrivedDay: position === 2 ? Math.max(1, before) : before }
    }
    const effective = event.assertion.effective
    return effective.on === 'event'
      ? { ...event, assertion: { ...event.assertion, effective: { on: 'event', eventNumber: numberOf(effective.eventNumber) } } }
      : event
  })
  const probes = plan.probes.map((probe) => {
    // The statements the script's probe follows, and the aside too when it has arrived by then.
    const statements = probe.afterEventIndex - (probe.afterEventIndex > ASIDE ? 1 : 0)
    return { ...probe, afterEventIndex: statements + (asideAfter <= statements ? 1 : 0) }
  })
  return { events, probes }
}
