/**
 * Agents in any language, as a subprocess speaking `timegrounded.agent.v1`:
 * one JSON request per line on stdin, exactly one JSON reply per line on
 * stdout, diagnostics on stderr. Timeouts, stray lines, crashes and stderr
 * floods are handled by the shared NDJSON process client of the adapters
 * (`src/adapters/command.ts`); a process that dies is restarted for the next
 * question, and the question it died on is recorded as an agent error.
 *
 *   → {"type":"capabilities"}
 *   ← {"protocol":"timegrounded.agent.v1","name":"my-agent","timestamped_history":true}
 *   → {"type":"history","query_time":"…Z","turns":[{"role","content","timestamp","session_index"}]}
 *   ← {"ok":true}
 *   → {"type":"ask","question_id":"q1","question_type":"…","mode":"timestamps-only","prompt":"Question: …",
 *      "question":"…","history_text":"…","sessions":[[{"role","content"}]]}
 *   ← {"answer":"…"}
 *   Any request may be answered {"error":"…"}. End of stdin means shut down.
 */
import { AdapterProcess } from '../adapters/adapter-process.js'
import { AdapterFault } from '../adapters/errors.js'
import { MAX_ANSWER_CHARS } from '../limits.js'
import { commandAdapter, describeCommand, DEFAULT_TIMEOUT_MS } from '../adapters/command.js'
import type { WireRequest } from '../adapters/protocol.js'
import { TimegroundedError } from '../errors.js'
import type { AnswerContext, TimeGroundedAgent, TimestampedHistoryAgent } from './agent.js'
import type { TimestampedHistory } from './grounding.js'

/** Protocol identifier a command agent must declare. */
export const AGENT_PROTOCOL = 'timegrounded.agent.v1'

/** The codes of `AgentStartError`, each with what it means. */
export interface AgentStartErrorCodes {
  /** An agent process could not be started, or failed its handshake. */
  AGENT_START_FAILED: 'AgentStartError'
}

/** The command agent could not be started or refused the protocol (code `AGENT_START_FAILED`). */
export class AgentStartError extends TimegroundedError<keyof AgentStartErrorCodes> {
  constructor(message: string) {
    super('AGENT_START_FAILED', message)
  }
}

/** Options of a command agent. */
export interface CommandAgentOptions {
  /** Working directory of the agent process. @default the current directory */
  cwd?: string
  /** Variables added to the environment the process inherits. @default none */
  env?: Record<string, string>
  /** Milliseconds per request before the process is killed. @default 30000 */
  timeoutMs?: number
}

// The adapters' process client types its requests as TIVARQ wire requests; it
// only serialises them and labels messages by `type`, so ours pass through.
type AgentRequest =
  | { type: 'capabilities' }
  | { type: 'history'; query_time: string; turns: { role: string; content: string; timestamp: string; session_index: number }[] }
  | {
      type: 'ask'
      question_id: string
      question_type: string
      mode: string
      prompt: string
      question: string
      history_text: string
      sessions: { role: string; content: string }[][]
    }

function send(process: AdapterProcess, request: AgentRequest): Promise<Record<string, unknown>> {
  return process.call(request as unknown as WireRequest)
}

interface Declared {
  name: string
  timestampedHistory: boolean
}

async function handshake(process: AdapterProcess, command: string): Promise<Declared> {
  let reply: Record<string, unknown>
  try {
    reply = await send(process, { type: 'capabilities' })
  } catch (error) {
    process.kill()
    throw new AgentStartError(`agent \`${command}\` failed the capabilities handshake: ${(error as Error).message}`)
  }
  if (reply.protocol !== AGENT_PROTOCOL) {
    await process.close()
    throw new AgentStartError(
      `agent \`${command}\` declared protocol ${JSON.stringify(reply.protocol)}, expected ${JSON.stringify(AGENT_PROTOCOL)}; ` +
        `answer {"type":"capabilities"} with {"protocol":"${AGENT_PROTOCOL}","timestamped_history":true}.`,
    )
  }
  return {
    name: typeof reply.name === 'string' && reply.name !== '' ? reply.name : command,
    timestampedHistory: reply.timestamped_history === true,
  }
}

/** A started command agent; call `close()` when done. */
export type CommandAgent = (TimeGroundedAgent | TimestampedHistoryAgent) & { readonly command: string; close(): Promise<void> }

/**
 * Starts an agent process and reads its capabilities. The returned agent has
 * `injectTimestampedHistory` only when the process declared
 * `timestamped_history: true`, so a typed mode fails before the first question
 * exactly as it would for an in-process agent.
 */
export async function startCommandAgent(argv: string[], options: CommandAgentOptions = {}): Promise<CommandAgent> {
  const spec = commandAdapter(argv, options)
  const command = describeCommand(argv)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  let current = new AdapterProcess(spec, timeoutMs, 'agent')
  const declared = await handshake(current, command)

  // A dead process is replaced before the next request, and must declare the same channel.
  const live = async (): Promise<AdapterProcess> => {
    if (current.alive) return current
    current = new AdapterProcess(spec, timeoutMs, 'agent')
    const again = await handshake(current, command)
    if (again.timestampedHistory !== declared.timestampedHistory) throw new AgentStartError(`agent \`${command}\` changed its declared capabilities on restart`)
    return current
  }
  const call = async (request: AgentRequest): Promise<Record<string, unknown>> => send(await live(), request)

  const answer = async (prompt: string, context: AnswerContext): Promise<string> => {
    const reply = await call({
      type: 'ask',
      question_id: context.questionId,
      question_type: context.questionType,
      mode: context.mode,
      prompt,
      question: context.question,
      history_text: context.historyText,
      sessions: context.sessions,
    })
    if (typeof reply.answer !== 'string')
      throw new Error(`agent \`${command}\` replied to ask without an "answer" string: ${JSON.stringify(reply).slice(0, 200)}`)
    if (reply.answer.length > MAX_ANSWER_CHARS) {
      throw new AdapterFault(
        'ADAPTER_INVALID_ANSWER',
        `agent \`${command}\` answered with ${reply.answer.length} characters, over the limit of ${MAX_ANSWER_CHARS} (MAX_ANSWER_CHARS)`,
      )
    }
    return reply.answer
  }
  const close = async (): Promise<void> => {
    await current.close()
  }
  const base = { name: declared.name, command, answer, close }
  if (!declared.timestampedHistory) return base
  return {
    ...base,
    async injectTimestampedHistory(history: TimestampedHistory) {
      // Replaces the process's history; the ask that follows carries the question id.
      await call({
        type: 'history',
        query_time: history.queryTime,
        turns: history.turns.map((turn) => ({ role: turn.role, content: turn.content, timestamp: turn.timestamp, session_index: turn.sessionIndex })),
      })
    },
  }
}
