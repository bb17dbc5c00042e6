/**
 * Built-in agents that show the instrument works. `honest` and
 * `ingestion-order` are scripted readers of our corpora (the authored twelve
 * and any generated one): they know how each question is read (which
 * sentence, which comparison) and differ only in where they take time from —
 * so the probe-versus-control delta separates them and nothing else does.
 * `seededAccuracy` is the honest reader made wrong on a seeded share of the
 * questions, to measure how many questions tell two accuracies apart.
 * `referenceReader` writes each turn's instant into its own prompt (a ceiling
 * by construction, not a memory system); `openAiCompatibleAgent` is that
 * reader over a real model.
 */
import { isoInstant, readSessionDate } from './dates.js'
import type { AnswerContext, TimestampedHistoryAgent } from './agent.js'
import type { TimestampedHistory } from './grounding.js'
import { chatCompletion, type ChatEndpoint } from '../chat/client.js'
import { answerText, evaluateReading, type TimedTurn } from './corpus/reading.js'
import { readingOf } from './corpus/index.js'
import { seededRandom } from '../stats/random.js'
import { TimegroundedError } from '../errors.js'

/** What a scripted reader says when it does not know the question or cannot place it in time. */
export const UNKNOWN_ANSWER = "I don't know."

/**
 * The note a scripted reader leaves, once, on the first question it was not
 * written for: it answers "I don't know." to every such question, so its score
 * on a file it does not know says nothing about the file.
 */
function unknownQuestionNote(name: string): { check(question: string, questionId: string): void; notes(): readonly string[] } {
  let note: string | null = null
  return {
    check(question, questionId) {
      if (note !== null || readingOf(question, questionId) !== undefined) return
      note =
        `agent "${name}" does not know question ${JSON.stringify(questionId)} (nor, likely, the rest of this file): it is a scripted reader of the bundled corpora ` +
        `(the authored twelve and generated ones) and answers "${UNKNOWN_ANSWER}" to any other question, so its score here says nothing about the file. Put your own agent, or builtin:llm, under the probe.`
    },
    notes: () => (note === null ? [] : [note]),
  }
}

/** Answers a corpus question (authored, or generated: found by `questionId`) from turns with times; `I don't know.` for anything else. */
export function answerFromTimedTurns(question: string, turns: readonly TimedTurn[], queryTime: Date, questionId?: string): string {
  const reading = readingOf(question, questionId)
  if (reading === undefined) return UNKNOWN_ANSWER
  const outcome = evaluateReading(reading, turns, queryTime)
  return outcome.ok ? answerText(outcome.value) : UNKNOWN_ANSWER
}

/** Dates printed in the text channel: `Session Date:` headers and the `Current Date:` prefix, if any. */
export interface DatesFromText {
  turns: TimedTurn[]
  queryTime: Date
}

/** Reads turns and their session dates out of rendered text; null when the text carries no dates. */
export function readDatesFromText(historyText: string, prompt: string): DatesFromText | null {
  const current = /^Current Date: (.+)$/m.exec(prompt)
  const query = current ? readSessionDate((current[1] as string).trim()) : null
  if (query === null || !query.ok) return null
  const turns: TimedTurn[] = []
  let sessionTime: Date | null = null
  for (const line of historyText.split('\n')) {
    const header = /^Session Date: (.+)$/.exec(line)
    if (header) {
      const read = readSessionDate((header[1] as string).trim())
      sessionTime = read.ok ? read.instant : null
      continue
    }
    const turn = /^[a-z]+: (.*)$/.exec(line)
    if (turn && sessionTime !== null) turns.push({ content: turn[1] as string, time: sessionTime })
  }
  return turns.length > 0 ? { turns, queryTime: query.instant } : null
}

/** Stores each turn at its typed timestamp (valid time) and answers against the typed query time. */
export function honestAgent(): TimestampedHistoryAgent {
  let history: TimestampedHistory | null = null
  const unknown = unknownQuestionNote('honest')
  return {
    name: 'honest',
    notes: unknown.notes,
    injectTimestampedHistory(injected) {
      history = injected
    },
    answer(prompt, context) {
      unknown.check(context.question, context.questionId)
      if (history === null) {
        // Mode `none`: no typed channel, so read the dates the text carries.
        const fromText = readDatesFromText(context.historyText, prompt)
        return fromText === null ? UNKNOWN_ANSWER : answerFromTimedTurns(context.question, fromText.turns, fromText.queryTime, context.questionId)
      }
      const turns = history.turns.map((turn) => ({ content: turn.content, time: new Date(turn.timestamp) }))
      const answer = answerFromTimedTurns(context.question, turns, new Date(history.queryTime), context.questionId)
      history = null
      return answer
    },
  }
}

/** Options of the seeded-accuracy agent. */
export interface SeededAccuracyOptions {
  /** Share of questions answered right, from 0 to 1. */
  accuracy: number
  /** Which questions those are: the same seed always picks the same ones. @default 1 */
  seed?: number
  /** @default `seeded-accuracy-<accuracy>` */
  name?: string
}

/** The codes of `AgentOptionError`, each with what it means. */
export interface AgentOptionErrorCodes {
  /** An option of a built-in agent cannot work. */
  AGENT_OPTION_INVALID: 'AgentOptionError'
}

/** An agent option out of range (code `AGENT_OPTION_INVALID`). */
export class AgentOptionError extends TimegroundedError<keyof AgentOptionErrorCodes> {
  constructor(message: string) {
    super('AGENT_OPTION_INVALID', message)
  }
}

/**
 * The honest reader with a known accuracy: each question is answered right
 * with probability `accuracy` (drawn once per seed and question id, so the
 * same in every mode), else "I don't know.". It honours timestamps, so its
 * probe-versus-control delta is zero; two of them with different accuracies
 * are what it takes to measure how many questions tell systems apart.
 */
export function seededAccuracyAgent(options: SeededAccuracyOptions): TimestampedHistoryAgent {
  const { accuracy, seed = 1 } = options
  if (typeof accuracy !== 'number' || !(accuracy >= 0 && accuracy <= 1))
    throw new AgentOptionError(`\`accuracy\` must be a number from 0 to 1, got ${JSON.stringify(accuracy)}.`)
  if (!Number.isSafeInteger(seed)) throw new AgentOptionError(`\`seed\` must be a whole number, got ${JSON.stringify(seed)}.`)
  const honest = honestAgent()
  return {
    name: options.name ?? `seeded-accuracy-${accuracy}`,
    notes: () => honest.notes?.() ?? [],
    injectTimestampedHistory: (history) => honest.injectTimestampedHistory(history),
    async answer(prompt, context) {
      const answer = await honest.answer(prompt, context)
      return seededRandom(`seeded-accuracy/${seed}/${context.questionId}`).next() < accuracy ? answer : UNKNOWN_ANSWER
    },
  }
}

/** Options of the ingestion-order agent. */
export interface IngestionOrderOptions {
  /** The agent's clock. @default () => new Date() */
  clock?: () => Date
}

/**
 * Accepts the typed history but stamps every turn with the moment it was
 * ingested (one second apart, in order) — the failure the probe exists to
 * catch. When the text carries dates it reads them, like a reader that takes
 * dates from the prompt; without them it falls back on its own stamps.
 */
export function ingestionOrderAgent(options: IngestionOrderOptions = {}): TimestampedHistoryAgent {
  const clock = options.clock ?? (() => new Date())
  let stored: TimedTurn[] = []
  const unknown = unknownQuestionNote('ingestion-order')
  return {
    name: 'ingestion-order',
    notes: unknown.notes,
    injectTimestampedHistory(history) {
      const start = clock().getTime()
      stored = history.turns.map((turn, i) => ({ content: turn.content, time: new Date(start + i * 1000) }))
    },
    answer(prompt, context) {
      unknown.check(context.question, context.questionId)
      const fromText = readDatesFromText(context.historyText, prompt)
      const answer =
        fromText !== null
          ? answerFromTimedTurns(context.question, fromText.turns, fromText.queryTime, context.questionId)
          : answerFromTimedTurns(context.question, stored, clock(), context.questionId)
      stored = []
      return answer
    },
  }
}

/** Turns a prompt into an answer: a model, or the scripted corpus reader. */
export type Answerer = (prompt: string, questionId?: string) => string | Promise<string>

const STAMP_LINE = /^\[(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)\] [a-z]+: (.*)$/
const NOW_LINE = /^Now: (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)$/m

/** The scripted answerer of the reference reader: reads the instants the reader wrote into its prompt (`questionId` finds a generated question's reading). */
export function scriptedPromptAnswerer(prompt: string, questionId?: string): string {
  const now = NOW_LINE.exec(prompt)
  const question = /^Question: (.*)$/m.exec(prompt)
  if (!now || !question) return UNKNOWN_ANSWER
  const turns: TimedTurn[] = []
  for (const line of prompt.split('\n')) {
    const stamped = STAMP_LINE.exec(line)
    if (stamped) turns.push({ content: stamped[2] as string, time: new Date(stamped[1] as string) })
  }
  return answerFromTimedTurns(question[1] as string, turns, new Date(now[1] as string), questionId)
}

/** The reference reader's prompt: every turn prefixed with its instant, then the query time and the question. */
export function renderReferencePrompt(history: TimestampedHistory, question: string): string {
  const lines = [
    'Below is a conversation history. Each turn starts with the instant it happened (UTC).',
    'Answer the question as of "Now", using those instants. Answer briefly: yes or no, a date as YYYY-MM-DD, a number of days, or a name.',
    '',
    ...history.turns.map((turn) => `[${isoInstant(new Date(turn.timestamp))}] ${turn.role}: ${turn.content.replace(/\n/g, ' ')}`),
    '',
    `Now: ${isoInstant(new Date(history.queryTime))}`,
    `Question: ${question}`,
  ]
  return lines.join('\n')
}

/** Options of the reference reader. */
export interface ReferenceReaderOptions {
  /** @default the scripted corpus reader */
  answerer?: Answerer
  /** @default 'reference-reader' */
  name?: string
}

/**
 * Places every turn in time by construction: writes each turn's instant into
 * its own prompt. A ceiling for the probe, not a memory system. In mode
 * `none` it passes the rendered text on unchanged.
 */
export function referenceReader(options: ReferenceReaderOptions = {}): TimestampedHistoryAgent {
  let history: TimestampedHistory | null = null
  const name = options.name ?? 'reference-reader'
  // Only the scripted answerer is limited to the bundled corpora; a model answerer reads any file.
  const unknown = options.answerer === undefined ? unknownQuestionNote(name) : null
  return {
    name,
    ...(unknown === null ? {} : { notes: unknown.notes }),
    injectTimestampedHistory(injected) {
      history = injected
    },
    async answer(prompt, context: AnswerContext) {
      unknown?.check(context.question, context.questionId)
      const text = history === null ? `${context.historyText}\n\n${prompt}` : renderReferencePrompt(history, context.question)
      history = null
      return options.answerer === undefined ? scriptedPromptAnswerer(text, context.questionId) : options.answerer(text, context.questionId)
    },
  }
}

/**
 * An example LLM-backed agent over any OpenAI-compatible endpoint (a local
 * model server such as llama.cpp's `llama-server` or vLLM at
 * `http://127.0.0.1:8080/v1`). It is the reference reader with a model as
 * answerer: it honours timestamps by writing them into its prompt.
 */
export function openAiCompatibleAgent(endpoint: ChatEndpoint & { name?: string }): TimestampedHistoryAgent {
  return referenceReader({
    name: endpoint.name ?? `openai-compatible:${endpoint.model}`,
    answerer: async (prompt) => (await chatCompletion(endpoint, [{ role: 'user', content: prompt }], { maxTokens: 200 })).content,
  })
}

/** The built-in agents by name (`--agent builtin:NAME`). */
export const BUILTIN_AGENTS = {
  honest: () => honestAgent(),
  'ingestion-order': () => ingestionOrderAgent(),
  'reference-reader': () => referenceReader(),
} as const
export type BuiltinAgentName = keyof typeof BUILTIN_AGENTS
