/**
 * What a TIVARQ variant draws from: topics with more values than v1's, other
 * control facts, and a bank of paraphrases per sentence of every family script
 * (none of them v1's own wording), several question phrasings and date styles.
 * All written for this project. A variant picks one entry per bank per episode
 * (variant.ts); the gold never depends on the words, only on the assertions.
 */
import type { Phrase, PhraseKey, QuestionPhrase, Topic } from './generate-templates.js'
import { TOPICS, isoDay } from './generate-templates.js'

const topic = (words: string, values: readonly string[]): Topic => ({ slot: words.replace(/[^a-z]+/gi, '_').toLowerCase(), words, values })

/** The topics a variant episode is about: v1's six with more values, and new ones. Every topic has at least four values. */
export const VARIANT_TOPICS: readonly Topic[] = [
  topic('notification channel', ['email', 'chat', 'push', 'SMS', 'phone call']),
  topic('workspace theme', ['dark', 'system', 'light', 'high contrast', 'solarized']),
  topic('meeting window', ['evening', 'morning', 'afternoon', 'lunchtime', 'early morning']),
  topic('note format', ['markdown', 'plain text', 'rich text', 'outline', 'org mode']),
  topic('music genre', ['ambient', 'classical', 'jazz', 'lo-fi', 'folk', 'drum and bass']),
  topic('coding language', ['Rust', 'Python', 'Go', 'TypeScript', 'Kotlin', 'Haskell']),
  topic('reading font', ['serif', 'sans-serif', 'monospace', 'dyslexia-friendly']),
  topic('calendar view', ['week', 'month', 'agenda', 'day']),
  topic('commute mode', ['bike', 'bus', 'train', 'car', 'walking']),
  topic('coffee order', ['flat white', 'espresso', 'oat latte', 'filter coffee', 'café au lait']),
  topic('backup schedule', ['nightly', 'weekly', 'hourly', 'monthly']),
  topic('editor keymap', ['vim', 'emacs', 'default', 'helix']),
  topic('default browser', ['Firefox', 'Chromium', 'Safari', 'Vivaldi']),
  topic('payment method', ['credit card', 'debit card', 'bank transfer', 'PayPal']),
  topic('tea choice', ['green tea', 'rooibos', 'earl grey', 'chai', 'mint tea']),
  topic('alarm sound', ['chimes', 'birdsong', 'radio', 'beeps']),
  topic('video quality', ['720p', '1080p', '4K', 'auto']),
  topic('reminder lead time', ['ten minutes', 'fifteen minutes', 'one hour', 'one day']),
  topic('newsletter frequency', ['daily', 'weekly', 'fortnightly', 'monthly']),
]

// v1's topics keep their slots: a store trained on them meets them again, with other values.
for (const v1 of TOPICS) {
  if (!VARIANT_TOPICS.some((candidate) => candidate.slot === v1.slot)) throw new Error(`variant topics lost v1 topic ${v1.slot}`)
}

/** The control facts a variant episode may state (slot, words and the values it may take). */
export const VARIANT_CONTROLS: readonly { slot: string; words: string; values: readonly string[] }[] = [
  {
    slot: 'interface_language',
    words: 'interface language',
    values: ['English', 'Spanish', 'French', 'German', 'Italian', 'Portuguese', 'Dutch', 'Polish', 'Japanese', 'Korean', 'Swedish', 'Turkish'],
  },
  { slot: 'home_city', words: 'home city', values: ['Lisbon', 'Oslo', 'Nairobi', 'Osaka', 'Montreal', 'Lyon', 'Valparaíso', 'Kraków'] },
  { slot: 'display_currency', words: 'display currency', values: ['euro', 'pound sterling', 'yen', 'Swiss franc', 'rand', 'dollar'] },
  { slot: 'keyboard_layout', words: 'keyboard layout', values: ['QWERTY', 'AZERTY', 'Dvorak', 'Colemak'] },
]

/** Paraphrases of every sentence a family script says, several each; v1's own sentence is deliberately not among them. */
export const PHRASE_BANK: Readonly<Record<PhraseKey, readonly Phrase[]>> = {
  opening: [
    (c) => `I'd like ${c.V0} as my ${c.words} for personal use.`,
    (c) => `Personally, my ${c.words} is ${c.V0}.`,
    (c) => `Set my personal ${c.words} to ${c.V0}, please.`,
    (c) => `For everything personal, ${c.V0} is the ${c.words} I want.`,
  ],
  control: [
    (c) => `For personal use, my ${c.control.words} is ${c.control.value}.`,
    (c) => `Please keep ${c.control.value} as my personal ${c.control.words}.`,
    (c) => `My personal ${c.control.words}: ${c.control.value}.`,
    (c) => `In my personal life the ${c.control.words} is ${c.control.value}.`,
  ],
  aside: [
    () => 'Noted. The team calendar also lists a planning session each Thursday.',
    () => 'By the way, the office wifi password changes every month.',
    () => 'I have added that to your notes; the quarterly review is coming up.',
    // An aside that names a value: the assistant reporting on others, not a statement of the user's.
    (c) => `Many people keep ${c.V2} as their ${c.words}, for what it is worth.`,
  ],
  replacement: [
    (c) => `Please use ${c.V1} for my personal ${c.words} from now on; I've moved away from ${c.V0}.`,
    (c) => `Update: my personal ${c.words} is now ${c.V1}.`,
    (c) => `Switch my personal ${c.words} over to ${c.V1}, effective immediately.`,
    (c) => `I've gone with ${c.V1} as my personal ${c.words} instead of ${c.V0}.`,
  ],
  reversalSwitch: [
    (c) => `Let's try ${c.V1} as my personal ${c.words}.`,
    (c) => `Change my personal ${c.words} to ${c.V1} for now.`,
    (c) => `I'm switching my personal ${c.words} to ${c.V1}.`,
    (c) => `Make ${c.V1} my personal ${c.words}, please.`,
  ],
  reversalBack: [
    (c) => `That didn't work out; put my personal ${c.words} back to ${c.V0}.`,
    (c) => `Go back to ${c.V0} for my personal ${c.words}.`,
    (c) => `I've returned to ${c.V0} as my personal ${c.words}.`,
    (c) => `Undo the switch: my personal ${c.words} is ${c.V0} once more.`,
  ],
  withdrawal: [
    (c) => `Please forget my personal ${c.words} preference; I don't have one any more.`,
    (c) => `Drop my personal ${c.words} setting entirely.`,
    (c) => `I'd rather not have any personal ${c.words} on record now. Clear it.`,
    (c) => `Remove whatever personal ${c.words} you have stored for me.`,
  ],
  addAlongside: [
    (c) => `Keep ${c.V0}, and add ${c.V1} to my personal ${c.words} options too.`,
    (c) => `Both ${c.V0} and ${c.V1} work as my personal ${c.words}; please add ${c.V1}.`,
    (c) => `For my personal ${c.words}, ${c.V1} is fine as well as ${c.V0}.`,
    (c) => `Add ${c.V1} to my personal ${c.words} list; ${c.V0} stays.`,
  ],
  replaceOptions: [
    (c) => `Scrap the list: my personal ${c.words} is just ${c.V2} now.`,
    (c) => `Forget both of those; use only ${c.V2} as my personal ${c.words}.`,
    (c) => `From now on my personal ${c.words} is ${c.V2} alone.`,
    (c) => `Replace all my personal ${c.words} options with ${c.V2}.`,
  ],
  workPreference: [
    (c) => `For work, my ${c.words} is ${c.V1}.`,
    (c) => `In the office I go with ${c.V1} as my ${c.words}.`,
    (c) => `My work ${c.words} should be ${c.V1}.`,
    (c) => `At the office, please use ${c.V1} for my ${c.words}.`,
  ],
  workChange: [
    (c) => `For work, switch my ${c.words} from ${c.V1} to ${c.V2}; personal stays as it is.`,
    (c) => `My work ${c.words} is now ${c.V2} instead of ${c.V1}.`,
    (c) => `Only at work: change the ${c.words} to ${c.V2}.`,
    (c) => `Update my work ${c.words} to ${c.V2}; leave my personal one alone.`,
  ],
  futureChange: [
    (c) => `From ${c.date(5)} on, I want ${c.V1} as my personal ${c.words}.`,
    (c) => `My personal ${c.words} changes to ${c.V1} on ${c.date(5)}.`,
    (c) => `Beginning ${c.date(5)}, please switch my personal ${c.words} to ${c.V1}.`,
    (c) => `Plan ahead: ${c.V1} becomes my personal ${c.words} on ${c.date(5)}, not before.`,
  ],
  changeToday: [
    (c) => `Starting today, my personal ${c.words} is ${c.V1}.`,
    (c) => `As of today I've switched my personal ${c.words} to ${c.V1}.`,
    (c) => `Today I changed my personal ${c.words} to ${c.V1}.`,
    (c) => `My personal ${c.words} is ${c.V1} from this day on.`,
  ],
  retroCorrection: [
    (c) => `I need to correct the record: on ${c.date(2)} my personal ${c.words} was actually ${c.V2}, not ${c.V0}. Today's choice stands.`,
    (c) => `Looking back, on ${c.date(2)} I was using ${c.V2} for my personal ${c.words}, not ${c.V0}; my current choice is unchanged.`,
    (c) => `Small fix to history: my personal ${c.words} on ${c.date(2)} was ${c.V2} rather than ${c.V0}. Nothing changes now.`,
    (c) => `For the record, ${c.V2} (not ${c.V0}) was my personal ${c.words} on ${c.date(2)}. My latest choice still applies.`,
  ],
  currentAsOf: [
    (c) => `On ${c.date(3)} my personal ${c.words} became ${c.V1}.`,
    (c) => `Since ${c.date(3)}, my personal ${c.words} has been ${c.V1}.`,
    (c) => `Effective ${c.date(3)}, my personal ${c.words} is ${c.V1}.`,
    (c) => `My personal ${c.words} is ${c.V1}, starting ${c.date(3)}.`,
  ],
  lateArrival: [
    (c) => `An old note that only just got through: on ${c.date(2)} I used ${c.V2} as my personal ${c.words}.`,
    (c) => `Belatedly: I had ${c.V2} as my personal ${c.words} on ${c.date(2)}.`,
    (c) => `This is from a while back, sent late: my personal ${c.words} was ${c.V2} on ${c.date(2)}.`,
    (c) => `Delayed message: on ${c.date(2)}, my personal ${c.words} was briefly ${c.V2}.`,
  ],
  duplicateChange: [
    (c) => `My personal ${c.words} is ${c.V1} now.`,
    (c) => `Go ahead and set my personal ${c.words} to ${c.V1}.`,
    (c) => `I've moved my personal ${c.words} to ${c.V1}.`,
    (c) => `New personal ${c.words} for me: ${c.V1}.`,
  ],
  duplicateSlip: [
    (c) => `My personal ${c.words} is ${c.V2} now.`,
    (c) => `Set my personal ${c.words} to ${c.V2}.`,
    (c) => `I've switched my personal ${c.words} to ${c.V2}.`,
    (c) => `New personal ${c.words} for me: ${c.V2}.`,
  ],
  duplicateFix: [
    (c) => `Sorry, typo: I meant ${c.V1}, not ${c.V2}, for my personal ${c.words}.`,
    (c) => `Scratch that, my personal ${c.words} is ${c.V1} rather than ${c.V2}.`,
    (c) => `Correction to my last message: ${c.V1}, not ${c.V2}, as my personal ${c.words}.`,
    (c) => `I mistyped: it should be ${c.V1} for my personal ${c.words}, not ${c.V2}.`,
  ],
  thirdPartyQuote: [
    (c) => `My sister swears by ${c.V1} as her ${c.words}, but that's her choice, not mine.`,
    (c) => `Someone on my team uses ${c.V1} for their ${c.words}; it doesn't apply to me.`,
    (c) => `A friend told me ${c.V1} is their favourite ${c.words}. I'm not changing mine.`,
    (c) => `My manager prefers ${c.V1} as a ${c.words}; that's about her, not me.`,
  ],
  unsure: [
    (c) => `I'm thinking about ${c.V1} for my personal ${c.words}, but I haven't decided.`,
    (c) => `Maybe ${c.V1} for my personal ${c.words}? I'm not certain yet.`,
    (c) => `I'm torn: ${c.V1} might suit me better as a personal ${c.words}, but I'm not sure.`,
    (c) => `Possibly ${c.V1} as my personal ${c.words}; I'm still making up my mind.`,
  ],
  decided: [
    (c) => `OK, decision made: ${c.V1} is my personal ${c.words}.`,
    (c) => `I'm sure now. Use ${c.V1} as my personal ${c.words}.`,
    (c) => `Final answer: my personal ${c.words} is ${c.V1}.`,
    (c) => `I've made up my mind: set ${c.V1} for my personal ${c.words}.`,
  ],
}

/** Question phrasings (v1's "As of D, what is my X for S?" is not among them). */
export const QUESTION_BANK: readonly QuestionPhrase[] = [
  (q) => `What was my ${q.scope} ${q.words} on ${q.date}?`,
  (q) => `On ${q.date}, which ${q.words} did I have for ${q.scope === 'work' ? 'work' : 'personal use'}?`,
  (q) => `Which ${q.words} applied to my ${q.scope} setup on ${q.date}?`,
  (q) => `Tell me my ${q.scope} ${q.words} as it stood on ${q.date}.`,
]

// Built on first use: an Intl formatter costs milliseconds to make, and most commands import this module without writing a variant.
let monthFormat: Intl.DateTimeFormat | undefined
let weekdayFormat: Intl.DateTimeFormat | undefined
const monthName = (dayMs: number): string => {
  monthFormat ??= new Intl.DateTimeFormat('en', { timeZone: 'UTC', month: 'long' })
  return monthFormat.format(dayMs)
}
const weekdayName = (dayMs: number): string => {
  weekdayFormat ??= new Intl.DateTimeFormat('en', { timeZone: 'UTC', weekday: 'long' })
  return weekdayFormat.format(dayMs)
}

/** How a variant writes a day in its texts (always the UTC calendar day): `2025-03-04`, `4 March 2025`, `March 4, 2025`, `Tuesday 4 March 2025`. */
export const DATE_STYLES: readonly ((dayMs: number) => string)[] = [
  isoDay,
  (dayMs) => `${new Date(dayMs).getUTCDate()} ${monthName(dayMs)} ${new Date(dayMs).getUTCFullYear()}`,
  (dayMs) => `${monthName(dayMs)} ${new Date(dayMs).getUTCDate()}, ${new Date(dayMs).getUTCFullYear()}`,
  (dayMs) => `${weekdayName(dayMs)} ${new Date(dayMs).getUTCDate()} ${monthName(dayMs)} ${new Date(dayMs).getUTCFullYear()}`,
]

/** The UTC offsets instants are written with (`Z` and `+00:00` are both UTC), in minutes east of UTC. */
export const UTC_OFFSETS_MINUTES: readonly (number | 'Z')[] = ['Z', 0, 60, 120, 330, 540, 765, -180, -300, -480, -570, 840, -660]
