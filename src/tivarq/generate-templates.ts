/**
 * The TIVARQ v1 templates and parameter rules, recovered from the published
 * rows (every one of the 240 episodes follows them exactly).
 *
 * What varies per episode, and what decides it (f = family index in FAMILIES,
 * i = episode number within the family, 0..19):
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
import type { Answer, AnswerValue, Family, Op, Scope, Split } from './schema.js'
import { FAMILIES } from './schema.js'
import { canonical } from './gold.js'

/** A topic: the episode's main slot, how the text names it, and its three values. */
export interface Topic {
  readonly slot: string
  readonly words: string
  readonly values: readonly [string, string, string]
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

/** The control fact every episode states and checks it survives the change. */
const CONTROL_TOPIC = { slot: 'interface_language', words: 'interface language' } as const
/** The values the control fact takes: episode i states INTERFACE_LANGUAGES[i mod 3]. */
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
const DAY_MS = 86_400_000

/** Everything that varies between two episodes of one family. */
export interface EpisodeParameters {
  readonly family: Family
  readonly familyIndex: number
  readonly episodeIndex: number
  readonly episodeId: string
  /** Day 0 of the episode, as epoch milliseconds (midnight UTC). */
  readonly dayZeroMs: number
  readonly topic: Topic
  /** V0, V1, V2: the topic's values rotated for this family. */
  readonly values: readonly [string, string, string]
  readonly interfaceLanguage: string
}

/** The parameters of episode `episodeIndex` of `family` (see the file banner for the rules). */
export function episodeParameters(family: Family, episodeIndex: number): EpisodeParameters {
  const f = FAMILIES.indexOf(family)
  const topic = TOPICS[(f + episodeIndex) % TOPICS.length] as Topic
  const value = (k: number): string => topic.values[(((k - f) % 3) + 3) % 3] as string
  return {
    family,
    familyIndex: f,
    episodeIndex,
    episodeId: `${family}-${String(episodeIndex).padStart(2, '0')}`,
    dayZeroMs: FIRST_DAY_MS + (FAMILY_SPACING_DAYS * f + EPISODE_SPACING_DAYS * episodeIndex) * DAY_MS,
    topic,
    values: [value(0), value(1), value(2)],
    interfaceLanguage: INTERFACE_LANGUAGES[episodeIndex % INTERFACE_LANGUAGES.length] as string,
  }
}

/** An event as a family script describes it (days relative to day 0): a new statement or a replay. */
export type EventPlan = StatementPlan | ReplayPlan

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
    readonly effectiveDay: number
    readonly expiresDay?: number
  }
}

/** Event number `eventNumber` (1-based) sent again on `arrivedDay`, with its id, text and assertion. */
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

/** Helpers a family script builds with, bound to one episode's parameters. */
export interface ScriptKit {
  readonly V0: string
  readonly V1: string
  readonly V2: string
  /** How the text names the topic, e.g. `notification channel`. */
  readonly words: string
  /** `YYYY-MM-DD` of a day relative to day 0, as the texts write dates. */
  date(day: number): string
  topicEvent(arrivedDay: number, text: string, op: Op, value: string | null, more?: { scope?: Scope; effectiveDay?: number }): StatementPlan
  topicProbe(afterEventIndex: number, asOfDay: number, intended: Answer, more: Partial<Omit<ProbePlan, 'afterEventIndex' | 'asOfDay' | 'intended'>>): ProbePlan
}

const known = (value: AnswerValue): Answer => ({ state: 'known', value })
const none = (state: Exclude<Answer['state'], 'known'>): Answer => ({ state, value: null })

/** The middle of an episode: what the family adds between the shared opening and the closing control. */
interface FamilyScript {
  /** Expiry day of the opening fact, if the family makes it expire. */
  readonly openingExpiresDay?: number
  build(kit: ScriptKit): { events: EventPlan[]; probes: ProbePlan[] }
}

/** One script per family; a family without a script fails to type-check. */
const FAMILY_SCRIPTS: Record<Family, FamilyScript> = {
  replacement: {
    build: (k) => ({
      events: [k.topicEvent(3, `I changed my personal ${k.words} to ${k.V1}. Use ${k.V1} from now on.`, 'set', k.V1)],
      probes: [k.topicProbe(4, 4, known(k.V1), { phase: 'post', oldValue: k.V0 })],
    }),
  },
  reversal: {
    build: (k) => ({
      events: [
        k.topicEvent(3, `Please switch my personal ${k.words} to ${k.V1}.`, 'set', k.V1),
        k.topicEvent(6, `I have changed back: my personal ${k.words} is ${k.V0} again.`, 'set', k.V0),
      ],
      probes: [
        k.topicProbe(4, 3, known(k.V1), { transition: 'first', phase: 'post', oldValue: k.V0 }),
        k.topicProbe(5, 7, known(k.V0), { phase: 'post', oldValue: k.V1 }),
      ],
    }),
  },
  withdrawal: {
    build: (k) => ({
      events: [k.topicEvent(3, `I no longer have a personal ${k.words} preference. Please remove it.`, 'withdraw', null)],
      probes: [k.topicProbe(4, 4, none('withdrawn'), { phase: 'post', oldValue: k.V0 })],
    }),
  },
  add_vs_replace: {
    build: (k) => ({
      events: [
        k.topicEvent(3, `Add ${k.V1} alongside ${k.V0} for my personal ${k.words}; both are fine.`, 'add', k.V1),
        k.topicEvent(6, `Replace those options. My only personal ${k.words} now is ${k.V2}.`, 'set', k.V2),
      ],
      probes: [
        k.topicProbe(4, 4, known(canonical([k.V0, k.V1])), { transition: 'add', phase: 'post' }),
        // The old value keeps the order the user gave (only expected answers are canonical).
        k.topicProbe(5, 7, known(k.V2), { phase: 'post', oldValue: [k.V0, k.V1] }),
      ],
    }),
  },
  scoped_change: {
    build: (k) => ({
      events: [
        k.topicEvent(2, `At work, I prefer ${k.V1} as my ${k.words}.`, 'set', k.V1, { scope: 'work' }),
        k.topicEvent(4, `For work only, change my ${k.words} from ${k.V1} to ${k.V2}.`, 'set', k.V2, { scope: 'work' }),
      ],
      probes: [
        k.topicProbe(4, 2, known(k.V1), { scope: 'work' }),
        k.topicProbe(5, 5, known(k.V2), { scope: 'work', phase: 'post', oldValue: k.V1 }),
        k.topicProbe(5, 5, known(k.V0), { role: 'scope_control', phase: 'post' }),
      ],
    }),
  },
  future_effective: {
    build: (k) => ({
      events: [k.topicEvent(2, `Starting on ${k.date(5)}, my personal ${k.words} will be ${k.V1}.`, 'set', k.V1, { effectiveDay: 5 })],
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
      events: [
        k.topicEvent(4, `From today, my personal ${k.words} is ${k.V1}.`, 'set', k.V1),
        k.topicEvent(6, `Correction: on ${k.date(2)} I actually preferred ${k.V2}, not ${k.V0}. My later choice still stands.`, 'set', k.V2, {
          effectiveDay: 2,
        }),
      ],
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
        k.topicEvent(3, `As of ${k.date(3)}, my personal ${k.words} is ${k.V1}.`, 'set', k.V1),
        k.topicEvent(6, `This message arrived late: on ${k.date(2)} I tried ${k.V2} as my personal ${k.words}.`, 'set', k.V2, {
          effectiveDay: 2,
        }),
      ],
      probes: [
        k.topicProbe(4, 4, known(k.V1), { transition: 'late' }),
        k.topicProbe(5, 7, known(k.V1), { transition: 'late', phase: 'post', oldValue: k.V2 }),
      ],
    }),
  },
  duplicate_event: {
    build: (k) => ({
      events: [k.topicEvent(3, `Now my personal ${k.words} is ${k.V1}.`, 'set', k.V1), replay(1, 6)],
      probes: [
        k.topicProbe(4, 3, known(k.V1), { transition: 'duplicate' }),
        k.topicProbe(5, 7, known(k.V1), { transition: 'duplicate', phase: 'post', oldValue: k.V0 }),
      ],
    }),
  },
  third_party_quote: {
    build: (k) => ({
      events: [k.topicEvent(3, `A colleague said they prefer ${k.V1} as their ${k.words}; that was about them, not me.`, 'noop', k.V1)],
      probes: [k.topicProbe(4, 4, known(k.V0), { phase: 'post', oldValue: k.V1 })],
    }),
  },
  ambiguity: {
    build: (k) => ({
      events: [
        k.topicEvent(3, `I might prefer ${k.V1} for my personal ${k.words}, but I am not sure yet.`, 'uncertain', k.V1),
        k.topicEvent(6, `I have decided: set my personal ${k.words} to ${k.V1}.`, 'set', k.V1),
      ],
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
  return new Date(dayZeroMs + day * DAY_MS).toISOString().slice(0, 10)
}

/**
 * The whole script of one episode: the shared opening (the topic's first value,
 * the interface-language control fact, an unrelated assistant turn; a pre-change
 * probe of each), the family's middle, and the closing control probe on day 8.
 */
export function planEpisode(params: EpisodeParameters): EpisodePlan {
  const { topic, values } = params
  const [V0, V1, V2] = values
  const script = FAMILY_SCRIPTS[params.family]
  const kit: ScriptKit = {
    V0,
    V1,
    V2,
    words: topic.words,
    date: (day) => isoDate(params.dayZeroMs, day),
    topicEvent: (arrivedDay, text, op, value, more = {}) => ({
      kind: 'statement',
      arrivedDay,
      speaker: 'user',
      text,
      assertion: { op, slot: topic.slot, scope: more.scope ?? 'personal', value, effectiveDay: more.effectiveDay ?? arrivedDay },
    }),
    topicProbe: (afterEventIndex, asOfDay, intended, more) => ({
      afterEventIndex,
      asOfDay,
      slot: topic.slot,
      scope: 'personal',
      role: 'target',
      transition: 'main',
      phase: 'pre',
      capability: 'basic',
      oldValue: null,
      intended,
      ...more,
    }),
  }
  const opening: StatementPlan[] = [
    {
      kind: 'statement',
      arrivedDay: 0,
      speaker: 'user',
      text: `For my personal setup, I prefer ${V0} as my ${topic.words}.`,
      assertion: {
        op: 'set',
        slot: topic.slot,
        scope: 'personal',
        value: V0,
        effectiveDay: 0,
        ...(script.openingExpiresDay === undefined ? {} : { expiresDay: script.openingExpiresDay }),
      },
    },
    {
      kind: 'statement',
      arrivedDay: 0,
      speaker: 'user',
      text: `My interface language is ${params.interfaceLanguage} for personal use.`,
      assertion: { op: 'set', slot: CONTROL_TOPIC.slot, scope: 'personal', value: params.interfaceLanguage, effectiveDay: 0 },
    },
    {
      kind: 'statement',
      arrivedDay: 1,
      speaker: 'assistant',
      text: 'The shared workspace has a weekly status meeting.',
      assertion: { op: 'noop', slot: topic.slot, scope: 'personal', value: null, effectiveDay: 1 },
    },
  ]
  const middle = script.build(kit)
  const events = [...opening, ...middle.events]
  const controlProbe = (afterEventIndex: number, asOfDay: number, phase: 'pre' | 'post'): ProbePlan => ({
    ...kit.topicProbe(afterEventIndex, asOfDay, known(params.interfaceLanguage), { phase }),
    slot: CONTROL_TOPIC.slot,
    role: 'control',
  })
  const probes = [
    kit.topicProbe(3, 1, known(V0), {}),
    controlProbe(3, 1, 'pre'),
    ...middle.probes,
    controlProbe(events.length, 8, 'post'),
  ]
  return { events, probes }
}

/** How a probe's question reads: `As of 2025-01-02, what is my notification channel for personal?` */
export function questionText(slot: string, scope: Scope, asOfDate: string): string {
  const words = slot === CONTROL_TOPIC.slot ? CONTROL_TOPIC.words : (TOPICS.find((topic) => topic.slot === slot)?.words ?? slot.replace(/_/g, ' '))
  return `As of ${asOfDate}, what is my ${words} for ${scope}?`
}
