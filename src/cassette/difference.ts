/**
 * Why a request found no recording: the recorded request nearest to it and
 * the first part that differs, in words a reader acts on ("the system prompt
 * differs at character 212"). A request is compared part by part — provider,
 * model, each message, the tools, each setting — and the nearest recording is
 * the one with the fewest differing parts, ties going to the longest common
 * start of the first differing part.
 */
import { canonicalJson, type PlainJson } from './canonical.js'
import type { CassetteRequest } from './entry.js'

/** One comparable part of a request: what it is called in a message, and its text. */
interface RequestPart {
  label: string
  text: string
}

/** The text of a message's content: a string as it is, text parts joined, anything else as canonical JSON. */
function messageText(message: PlainJson): string {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return canonicalJson(message)
  const content = message.content
  if (typeof content === 'string') return content
  if (Array.isArray(content) && content.every((part) => typeof part === 'object' && part !== null && !Array.isArray(part) && part.type === 'text')) {
    return content.map((part) => String((part as { text?: unknown }).text ?? '')).join('')
  }
  return canonicalJson(content ?? null)
}

function roleOf(message: PlainJson): string {
  return typeof message === 'object' && message !== null && !Array.isArray(message) && typeof message.role === 'string' ? message.role : 'message'
}

function partsOf(request: CassetteRequest): Map<string, RequestPart> {
  const parts = new Map<string, RequestPart>()
  const add = (id: string, label: string, text: string): void => void parts.set(id, { label, text })
  add('provider', 'the provider', request.provider)
  add('model', 'the model id', request.model)
  add('message-count', 'the number of messages', String(request.messages.length))
  request.messages.forEach((message, index) => {
    const role = roleOf(message)
    const label = index === 0 && role === 'system' ? 'the system prompt' : `message ${index + 1} (${role})`
    add(`message-${index}-role`, `the role of message ${index + 1}`, role)
    add(`message-${index}`, label, messageText(message))
  })
  add('tools', 'the tools', canonicalJson(request.tools))
  for (const [name, value] of Object.entries(request.settings)) add(`setting-${name}`, `the setting \`${name}\``, canonicalJson(value))
  return parts
}

/** Where two texts first differ (0-based), or -1 when they are equal. */
function firstDifference(a: string, b: string): number {
  if (a === b) return -1
  const shorter = Math.min(a.length, b.length)
  for (let index = 0; index < shorter; index++) if (a[index] !== b[index]) return index
  return shorter
}

const excerpt = (text: string, at: number): string => JSON.stringify(text.slice(Math.max(0, at - 20), at + 40))

/** Every part that differs between `asked` and `recorded`, the first one worded. */
function compare(asked: Map<string, RequestPart>, recorded: Map<string, RequestPart>): { count: number; first: string | null; agreed: number } {
  let count = 0
  let first: string | null = null
  let agreed = 0
  for (const id of new Set([...asked.keys(), ...recorded.keys()])) {
    const now = asked.get(id)
    const then = recorded.get(id)
    if (now !== undefined && then !== undefined && now.text === then.text) continue
    count++
    if (first !== null) continue
    if (now === undefined) first = `${then!.label} was recorded but is not sent now`
    else if (then === undefined) first = `${now.label} is sent now but was not recorded`
    else if (id === 'message-count') first = `the request has ${now.text} messages, the recording ${then.text}`
    else if (id.startsWith('setting-') || id === 'provider' || id === 'model' || id.endsWith('-role'))
      first = `${now.label} is ${now.text}, recorded ${then.text}`
    else {
      const at = firstDifference(now.text, then.text)
      agreed = at
      first = `${now.label} differs at character ${at + 1} (now ${excerpt(now.text, at)}, recorded ${excerpt(then.text, at)})`
    }
  }
  return { count, first, agreed }
}

/** What changed against the nearest of `recorded`, or null when there is no recording to compare with. */
export function explainMiss(request: CassetteRequest, recorded: readonly CassetteRequest[]): string | null {
  const asked = partsOf(request)
  let best: { count: number; agreed: number; first: string } | null = null
  for (const candidate of recorded) {
    const result = compare(asked, partsOf(candidate))
    if (result.first === null) continue
    if (best === null || result.count < best.count || (result.count === best.count && result.agreed > best.agreed)) {
      best = { count: result.count, agreed: result.agreed, first: result.first }
    }
  }
  if (best === null) return null
  const others = best.count - 1
  return `against the nearest recorded request, ${best.first}${others > 0 ? ` (and ${others} other part${others === 1 ? '' : 's'} differ${others === 1 ? 's' : ''})` : ''}`
}
