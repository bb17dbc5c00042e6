/**
 * The agent a user puts under the time-grounded probe. Every agent answers
 * questions from the text channel; an agent that can store time implements
 * the typed channel too (`injectTimestampedHistory`). Methods may be sync or async.
 */
import { TimegroundedError } from '../errors.js'
import { deliversTimestamps, type GroundingMode, type PlainTurn, type TimestampedHistory } from './grounding.js'

type MaybePromise<T> = T | Promise<T>

/** What the harness hands an agent with each question (fresh copies; no gold). */
export interface AnswerContext {
  questionId: string
  questionType: string
  mode: GroundingMode
  /** The bare question, without any date prefix. */
  question: string
  /** The haystack as text, `Session Date:` headers included unless the mode is `timestamps-only`. */
  historyText: string
  /** The haystack's turns session by session, without time. */
  sessions: PlainTurn[][]
}

/** An agent under the probe: it answers each question, given its haystack through the text channel. */
export interface TimeGroundedAgent {
  /** Shown in results and in error messages. */
  readonly name: string
  /**
   * Answers one question. `prompt` is the question as the harness renders it
   * (`Current Date: …` first unless the mode is `timestamps-only`).
   */
  answer(prompt: string, context: AnswerContext): MaybePromise<string>
  /** Called once after the last question. */
  close?(): MaybePromise<void>
  /**
   * What the agent wants a run to say once, read after each question (the
   * built-in agents use it to say that a file is not one they know). Shown
   * under the verdict, and as `notes` in results. @default none
   */
  notes?(): readonly string[]
}

/** An agent's notes so far; an agent whose `notes` throws or returns something else has none. */
export function agentNotes(agent: TimeGroundedAgent): string[] {
  try {
    const notes: unknown = agent.notes?.()
    return Array.isArray(notes) ? notes.filter((note): note is string => typeof note === 'string') : []
  } catch {
    return []
  }
}

/** An agent with the typed channel: before each question it receives that question's timestamped history. */
export interface TimestampedHistoryAgent extends TimeGroundedAgent {
  /**
   * Replaces the agent's history with this one. Each turn's `timestamp` is
   * when it happened (valid time, not ingestion time); `queryTime` is "now".
   */
  injectTimestampedHistory(history: TimestampedHistory): MaybePromise<void>
}

/** Whether an agent implements the typed timestamped-history channel. */
export function hasTimestampedHistory(agent: TimeGroundedAgent): agent is TimestampedHistoryAgent {
  return typeof (agent as Partial<TimestampedHistoryAgent>).injectTimestampedHistory === 'function'
}

/** The codes of `GroundingModeError`, each with what it means. */
export interface GroundingModeErrorCodes {
  /** A grounding mode needs the typed channel the agent lacks. */
  GROUNDING_CHANNEL_MISSING: 'GroundingModeError'
}

/**
 * A mode other than `none` was asked of an agent without the typed channel
 * (code `GROUNDING_CHANNEL_MISSING`). Raised before any agent or model call.
 */
export class GroundingModeError extends TimegroundedError<keyof GroundingModeErrorCodes> {
  readonly mode: GroundingMode
  readonly agentName: string

  constructor(mode: GroundingMode, agentName: string) {
    super(
      'GROUNDING_CHANNEL_MISSING',
      `Grounding mode \`${mode}\` delivers session dates as timestamps through the typed channel, ` +
        `but agent ${JSON.stringify(agentName)} does not implement \`injectTimestampedHistory(history)\`. ` +
        (mode === 'timestamps-only'
          ? 'There is no text fallback for this mode: the dates a fallback would read are exactly what the mode removes. '
          : 'There is no text fallback for this mode: it is the control of `timestamps-only`, and the dates a fallback would read are exactly what that mode removes. ') +
        'Implement `injectTimestampedHistory` on the agent, or run with mode `none`.',
    )
    this.mode = mode
    this.agentName = agentName
  }
}

/** Throws `GroundingModeError` when `mode` needs the typed channel and the agent lacks it. */
export function assertGroundingChannel(agent: TimeGroundedAgent, mode: GroundingMode): void {
  if (deliversTimestamps(mode) && !hasTimestampedHistory(agent)) throw new GroundingModeError(mode, agentName(agent))
}

/** The name an agent goes by in results. */
export function agentName(agent: TimeGroundedAgent): string {
  return typeof agent.name === 'string' && agent.name !== '' ? agent.name : 'unnamed agent'
}
