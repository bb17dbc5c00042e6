/**
 * Judges of the time-grounded probe. The deterministic judge grades the
 * machine-checkable gold without a model; the LLM judge asks any
 * OpenAI-compatible endpoint with our wording of the LongMemEval
 * temporal-reasoning instructions, and its prompt template is fingerprinted
 * so that a change of wording is visible in every result.
 */
import { TimegroundedError } from '../errors.js'
import { sha256Hex } from '../tivarq/dataset-files.js'
import { daysBetween, isoDay, MONTH_NAMES } from './dates.js'
import { ChatEndpointError, chatCompletion, type ChatEndpoint } from '../chat/client.js'
import { redactUrl } from '../chat/url.js'
import type { LongMemEvalEntry, MachineGold } from './longmemeval.js'
import { NUMBER_WORDS } from './relative.js'

/** A judge's decision on one response. */
export interface Verdict {
  correct: boolean
  /** Why, in a few words (what was read from the response, or the judge's reply). */
  detail: string
  /** True when the judge could not decide (the deterministic judge on an entry without `machine_gold` whose response lacks the whole answer text): not a wrong answer. @default false */
  unjudged?: boolean
}

/** Grades responses; `fingerprint` identifies the exact judging rules. */
export interface Judge {
  readonly kind: 'deterministic' | 'llm'
  /** SHA-256 of the judge's rules: the prompt template for the LLM judge, a rules version for the deterministic one. */
  readonly fingerprint: string
  /** The judging model, or null. */
  readonly model: string | null
  grade(entry: LongMemEvalEntry, response: string): Promise<Verdict>
  /**
   * Whether this judge can grade any response to the entry. A run refuses a
   * dataset holding entries it cannot grade (or, asked to, leaves them out of
   * every rate) instead of counting their answers wrong. @default every entry
   */
  canJudge?(entry: LongMemEvalEntry): boolean
}

/** The entry's reference answer as text (upstream answers are sometimes numbers or other JSON). */
function referenceAnswer(entry: LongMemEvalEntry): string {
  return typeof entry.answer === 'string' ? entry.answer : JSON.stringify(entry.answer)
}

// ── Deterministic judge ────────────────────────────────────────────────────

const YES_WORDS = new Set(['yes', 'yeah', 'yep', 'correct'])
const NO_WORDS = new Set(['no', 'nope', 'not', 'never'])

/** Reads a yes/no from a response: its first word, else a lone `yes` or `no` (or `not yet`) anywhere. */
export function readYesNo(response: string): boolean | null {
  const words = response.toLowerCase().match(/[a-z']+/g) ?? []
  const first = words[0]
  if (first !== undefined && YES_WORDS.has(first)) return true
  if (first !== undefined && NO_WORDS.has(first)) return false
  const yes = words.some((w) => YES_WORDS.has(w))
  const no = words.some((w) => w === 'no' || w === 'nope') || /\bnot yet\b/i.test(response)
  return yes === no ? null : yes
}

const MONTH_WORD = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)'

function monthIndex(word: string): number {
  const prefix = word.toLowerCase().slice(0, 3)
  return MONTH_NAMES.findIndex((m) => m.toLowerCase().startsWith(prefix))
}

/** The first calendar date written in a response (`2024-08-01`, `2024/08/01`, `August 1, 2024`, `1 August 2024`), or null. */
export function readDate(response: string): Date | null {
  const candidates: { at: number; date: Date }[] = []
  for (const m of response.matchAll(/\b(\d{4})[-/](\d{1,2})[-/](\d{1,2})\b/g)) {
    candidates.push({ at: m.index ?? 0, date: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) })
  }
  for (const m of response.matchAll(new RegExp(`\\b${MONTH_WORD}\\.? (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})\\b`, 'gi'))) {
    candidates.push({ at: m.index ?? 0, date: new Date(Date.UTC(Number(m[3]), monthIndex(m[1] as string), Number(m[2]))) })
  }
  for (const m of response.matchAll(new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH_WORD},? (\\d{4})\\b`, 'gi'))) {
    candidates.push({ at: m.index ?? 0, date: new Date(Date.UTC(Number(m[3]), monthIndex(m[2] as string), Number(m[1]))) })
  }
  candidates.sort((a, b) => a.at - b.at)
  return candidates[0]?.date ?? null
}

/** Number words a count answer may use: zero to twelve (never "a" or "an": "a few" is no count). */
const COUNT_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  ...Object.fromEntries(Object.entries(NUMBER_WORDS).filter(([word, value]) => value <= 12 && word !== 'a' && word !== 'an')),
}
const COUNT = new RegExp(`\\b(\\d+|${Object.keys(COUNT_WORDS).join('|')})\\b`, 'i')

/** The first whole number in a response (digits, or a number word up to twelve), or null. */
export function readCount(response: string): number | null {
  const match = COUNT.exec(response)
  if (!match) return null
  const word = (match[1] as string).toLowerCase()
  return /^\d+$/.test(word) ? Number(word) : (COUNT_WORDS[word] as number)
}

function containsPhrase(response: string, phrase: string): boolean {
  const escaped = phrase.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`(^|[^a-z0-9])${escaped}($|[^a-z0-9])`).test(response.toLowerCase())
}

/** Grades a response against a machine-checkable gold. */
export function gradeMachineGold(gold: MachineGold, response: string): Verdict {
  switch (gold.kind) {
    case 'yes_no': {
      const read = readYesNo(response)
      if (read === null) return { correct: false, detail: 'no yes/no could be read' }
      return { correct: read === gold.value, detail: `read ${read ? 'yes' : 'no'}, expected ${gold.value ? 'yes' : 'no'}` }
    }
    case 'date': {
      const read = readDate(response)
      if (read === null) return { correct: false, detail: 'no date could be read' }
      const expected = new Date(`${gold.value}T00:00:00Z`)
      const gap = Math.abs(daysBetween(expected, read))
      return { correct: gap <= gold.tolerance_days, detail: `read ${isoDay(read)}, expected ${gold.value} ±${gold.tolerance_days} day` }
    }
    case 'count': {
      const read = readCount(response)
      if (read === null) return { correct: false, detail: 'no number could be read' }
      return { correct: Math.abs(read - gold.value) <= gold.tolerance, detail: `read ${read}, expected ${gold.value} ±${gold.tolerance} ${gold.unit}` }
    }
    case 'entity': {
      const names = [gold.value, ...gold.aliases]
      const found = names.find((name) => containsPhrase(response, name))
      return { correct: found !== undefined, detail: found !== undefined ? `names ${found}` : `does not name ${gold.value}` }
    }
  }
}

/** Rules version of the deterministic judge; its SHA-256 is the judge's fingerprint. */
export const DETERMINISTIC_JUDGE_RULES =
  'timegrounded deterministic judge v1: yes_no by first word or lone yes/no; date: first written date within tolerance_days; ' +
  'count: first whole number within tolerance; entity: name or alias as a phrase; no machine_gold: correct if the whole answer text is a phrase of the response, else not judged.'

/**
 * The model-free judge: grades `machine_gold`. It cannot grade a free-text
 * answer: on an entry without `machine_gold` it credits only a response that
 * contains the whole answer text and otherwise says it cannot judge
 * (`unjudged`), never "wrong"; `canJudge` is false for such entries, so a run
 * refuses them unless told to leave them out.
 */
export function deterministicJudge(): Judge {
  return {
    kind: 'deterministic',
    fingerprint: sha256Hex(DETERMINISTIC_JUDGE_RULES),
    model: null,
    canJudge: (entry) => entry.machine_gold !== undefined,
    async grade(entry, response) {
      if (entry.machine_gold !== undefined) return gradeMachineGold(entry.machine_gold, response)
      if (containsPhrase(response, referenceAnswer(entry).trim())) return { correct: true, detail: 'contains the whole answer text (no machine_gold)' }
      return { correct: false, unjudged: true, detail: NO_MACHINE_GOLD }
    },
  }
}

/** Why the deterministic judge cannot grade an entry. */
export const NO_MACHINE_GOLD = 'not judged: no machine_gold, and the deterministic judge cannot grade a free-text answer'

// ── Entries a judge cannot grade ───────────────────────────────────────────

/** What a run does with entries its judge cannot grade: refuse the run (the default), or ask them and leave them out of every rate. */
export type UnjudgedPolicy = 'refuse' | 'skip'
export const UNJUDGED_POLICIES: readonly UnjudgedPolicy[] = ['refuse', 'skip']

/** The ids of the entries a judge cannot grade, in dataset order. */
export function unjudgeableEntries(items: readonly LongMemEvalEntry[], judge: Judge): string[] {
  const canJudge = judge.canJudge
  return canJudge === undefined ? [] : items.filter((entry) => !canJudge.call(judge, entry)).map((entry) => entry.question_id)
}

/** How the refusal names its fixes: as command-line flags, or as options in code. */
export type FixWording = 'cli' | 'code'

/** The codes of `UnjudgeableEntriesError`, each with what it means. */
export interface UnjudgeableEntriesErrorCodes {
  /** The dataset holds entries the judge cannot grade (no `machine_gold` for the deterministic judge), and the run was not told to leave them out. */
  JUDGE_CANNOT_GRADE: 'UnjudgeableEntriesError'
}

/** A dataset holds entries the judge cannot grade, and the run was not told to leave them out (code `JUDGE_CANNOT_GRADE`). */
export class UnjudgeableEntriesError extends TimegroundedError<keyof UnjudgeableEntriesErrorCodes> {
  readonly questionIds: readonly string[]
  constructor(questionIds: readonly string[], total: number, datasetId: string, wording: FixWording) {
    const shown = questionIds
      .slice(0, 5)
      .map((id) => JSON.stringify(id))
      .join(', ')
    const more = questionIds.length > 5 ? ` and ${questionIds.length - 5} more` : ''
    const [llm, skip] =
      wording === 'cli'
        ? ['`--judge llm --judge-base-url URL --judge-model NAME`', '`--unjudged skip`']
        : ['`judge: { baseUrl, model }` (the LLM judge)', "`unjudged: 'skip'`"]
    super(
      'JUDGE_CANNOT_GRADE',
      `${questionIds.length} of ${total} entries of ${datasetId} have no machine-checkable gold (\`machine_gold\`): ${shown}${more}. ` +
        'The deterministic judge cannot grade their free-text answers, and would count a right answer worded differently as wrong, so nothing was asked. ' +
        `Judge them with a model (${llm}), add \`machine_gold\` to each entry ({ "kind": "yes_no", "value": false }, or a date, count or entity: see docs/time-grounded-probe.md#the-corpus), ` +
        `or run them and leave them out of every rate (${skip}).`,
    )
    this.questionIds = questionIds
  }
}

/** Refuses, before any agent call, a dataset holding entries the judge cannot grade, unless `policy` is `skip`. */
export function assertJudgeable(
  dataset: { datasetId: string; items: readonly LongMemEvalEntry[] },
  judge: Judge,
  policy: UnjudgedPolicy = 'refuse',
  wording: FixWording = 'code',
): void {
  if (policy === 'skip') return
  const ids = unjudgeableEntries(dataset.items, judge)
  if (ids.length > 0) throw new UnjudgeableEntriesError(ids, dataset.items.length, dataset.datasetId, wording)
}

// ── LLM judge ──────────────────────────────────────────────────────────────

/** Our wording of the LongMemEval temporal-reasoning judging instructions. Placeholders: {question}, {answer}, {response}. */
export const TEMPORAL_JUDGE_TEMPLATE = [
  'You are grading one answer to a question that depends on time.',
  '',
  'Question: {question}',
  'Reference answer: {answer}',
  'Answer to grade: {response}',
  '',
  'Reply "yes" if the answer to grade contains the reference answer, says something equivalent to it, or sets out the',
  'intermediate steps that arrive at it. Reply "no" if it is wrong, or if it gives only part of what the reference answer',
  'needs. Do not penalise an off-by-one error in a count of days, weeks or months: an answer of 19 days where the',
  'reference says 18 is still correct.',
  '',
  'Is the answer to grade correct? Reply with the single word yes or no.',
].join('\n')

/** Our wording of the abstention instructions, used for question ids ending in `_abs`. */
export const ABSTENTION_JUDGE_TEMPLATE = [
  'You are grading one answer to a question that cannot be answered from the conversation it is about.',
  '',
  'Question: {question}',
  'Why it cannot be answered: {answer}',
  'Answer to grade: {response}',
  '',
  'Reply "yes" if the answer to grade recognises that the question cannot be answered (it says the information is',
  'missing, or that it does not know). Reply "no" if it answers as though the information were there.',
  '',
  'Does the answer to grade recognise this? Reply with the single word yes or no.',
].join('\n')

/** SHA-256 over both templates: changes whenever either wording does. */
export const LLM_JUDGE_FINGERPRINT = sha256Hex(`${TEMPORAL_JUDGE_TEMPLATE}\n\u0000\n${ABSTENTION_JUDGE_TEMPLATE}`)

/** The judging prompt for one entry and response. */
export function renderJudgePrompt(entry: LongMemEvalEntry, response: string): string {
  const template = entry.question_id.endsWith('_abs') ? ABSTENTION_JUDGE_TEMPLATE : TEMPORAL_JUDGE_TEMPLATE
  const answer = referenceAnswer(entry)
  // One pass, so a placeholder inside a substituted value is left alone.
  return template.replace(/\{(question|answer|response)\}/g, (_, key: string) => (key === 'question' ? entry.question : key === 'answer' ? answer : response))
}

/** The codes of `JudgeUnreachableError`, each with what it means. */
export interface JudgeUnreachableErrorCodes {
  /** The LLM judge's endpoint cannot be reached. */
  JUDGE_UNREACHABLE: 'JudgeUnreachableError'
}

/** The judge endpoint stopped answering; later judgments fail at once (code `JUDGE_UNREACHABLE`). */
export class JudgeUnreachableError extends TimegroundedError<keyof JudgeUnreachableErrorCodes> {
  readonly url: string
  constructor(url: string, failures: number, lastDetail: string, urlOption: string) {
    super(
      'JUDGE_UNREACHABLE',
      `judge endpoint ${url} is unreachable (${failures} judgments in a row got no reply; last: ${lastDetail}), so this response was not judged. ` +
        `Is the model server running? Check ${urlOption} (it ends before \`/chat/completions\`, e.g. http://127.0.0.1:8080/v1).`,
    )
    this.url = url
  }
}

/** Options of the LLM judge beyond its endpoint. */
export interface LlmJudgeOptions {
  /**
   * Judgments in a row that may fail without reaching the endpoint (refused,
   * DNS, timeout) before every later one fails at once with
   * `JudgeUnreachableError` instead of being retried. @default 2
   */
  maxUnreachable?: number
  /** How error messages name the setting that holds the URL, e.g. `` `--judge-base-url` ``. @default '`baseUrl`' */
  urlOption?: string
}

/** Asks a judging model one prompt; `questionId` names the question for a recording. */
export type JudgeAsker = (prompt: string, questionId: string) => Promise<string>

/**
 * The LLM judge over any model `ask` reaches (`timegrounded/ai-sdk` gives it an AI SDK model): the same
 * prompts, fingerprint and reading of the reply as `llmJudge`, which adds the endpoint's unreachable rule.
 */
export function modelJudge(model: string, ask: JudgeAsker): Judge {
  return {
    kind: 'llm',
    fingerprint: LLM_JUDGE_FINGERPRINT,
    model,
    async grade(entry, response) {
      return verdictOf(await ask(renderJudgePrompt(entry, response), entry.question_id))
    },
  }
}

/** A judge's reply read like a response to a yes/no question: its first word, else a lone yes or no. */
function verdictOf(reply: string): Verdict {
  return { correct: readYesNo(reply) === true, detail: `judge replied ${JSON.stringify(reply.trim().slice(0, 40))}` }
}

/**
 * The LLM judge over an OpenAI-compatible endpoint. A reply that is neither
 * yes nor no counts as incorrect. Once `maxUnreachable` judgments in a row
 * found no server, the rest fail at once: a dead endpoint costs seconds, not
 * retries on every question. Any HTTP reply resets the count.
 */
export function llmJudge(endpoint: ChatEndpoint, options: LlmJudgeOptions = {}): Judge {
  const maxUnreachable = options.maxUnreachable ?? 2
  const urlOption = options.urlOption ?? '`baseUrl`'
  let unreachableInARow = 0
  let lastDetail = ''
  let lastUrl = redactUrl(endpoint.baseUrl)
  return {
    kind: 'llm',
    fingerprint: LLM_JUDGE_FINGERPRINT,
    model: endpoint.model,
    async grade(entry, response) {
      if (unreachableInARow >= maxUnreachable) throw new JudgeUnreachableError(lastUrl, unreachableInARow, lastDetail, urlOption)
      let reply: string
      try {
        reply = (await chatCompletion(endpoint, [{ role: 'user', content: renderJudgePrompt(entry, response) }], { maxTokens: 10 })).content
      } catch (error) {
        if (error instanceof ChatEndpointError && error.unreachable) {
          unreachableInARow++
          lastUrl = error.url
          lastDetail = error.detail
        } else {
          unreachableInARow = 0
        }
        throw error
      }
      unreachableInARow = 0
      return verdictOf(reply)
    },
  }
}
