/**
 * An entry's line as the writer writes it, and its key and checksum checked
 * on that text. The writer puts the request and the response in canonical
 * form, so a reader can verify each by hashing the line's own text rather
 * than building its canonical form anew: a replay reads every entry, and
 * those canonical copies were most of its reading. A line laid out otherwise
 * (written before this, or by hand) is checked on the canonical form as
 * before. Either way the verdict is the same: text that hashes to the key is
 * the canonical form of the request the key was made from, so what was parsed
 * from it is that request.
 */
import { plainJson, sha256 } from './canonical.js'

/** The fields of an entry in the order the writer writes them. */
interface WrittenEntry {
  key: string
  repetition: number
  probe: string | null
  request: unknown
  response: unknown
  response_sha256: string
  session: string
  written_at: string
}

/** One line of a cassette or side file, without its newline: the request and the response with their keys sorted. */
export function entryLine(entry: WrittenEntry): string {
  return JSON.stringify({
    key: entry.key,
    repetition: entry.repetition,
    probe: entry.probe,
    request: plainJson(entry.request) ?? null,
    response: plainJson(entry.response) ?? null,
    response_sha256: entry.response_sha256,
    session: entry.session,
    written_at: entry.written_at,
  })
}

/** The texts of a line's request and response as the writer laid them out, or null for a line laid out otherwise. */
export function writtenTexts(line: string, entry: WrittenEntry): { request: string; response: string } | null {
  const response = JSON.stringify(entry.response)
  const before = `{"key":${JSON.stringify(entry.key)},"repetition":${entry.repetition},"probe":${JSON.stringify(entry.probe)},"request":`
  const after = `,"response":${response},"response_sha256":${JSON.stringify(entry.response_sha256)},"session":${JSON.stringify(entry.session)},"written_at":${JSON.stringify(entry.written_at)}}`
  if (line.length <= before.length + after.length || !line.startsWith(before) || !line.endsWith(after)) return null
  return { request: line.slice(before.length, line.length - after.length), response }
}

/** Whether `text`, a request or response as the writer laid it out, hashes to `sha`; false (check the canonical form) for text that is not canonical at its start. */
export function textHashesTo(text: string, sha: string, canonicalStart: string): boolean {
  return text.startsWith(canonicalStart) && sha256(text) === sha
}
