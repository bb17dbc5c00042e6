/**
 * A request made plain and written in one canonical way, so that the same
 * call gives the same key on every machine and every run: keys sorted, no
 * undefined member, bytes as base64 and a URL without its credentials.
 */
import * as crypto from 'node:crypto'

/** Plain JSON, as a cassette holds it. */
export type PlainJson = null | boolean | number | string | PlainJson[] | { [key: string]: PlainJson }

/** What a URL inside a request is written as: no user name, password or query value survives. */
export function plainUrl(url: URL): string {
  const copy = new URL(url.href)
  if (copy.username !== '') copy.username = '***'
  if (copy.password !== '') copy.password = '***'
  for (const name of [...copy.searchParams.keys()]) copy.searchParams.set(name, '***')
  return copy.href
}

/** `value` as plain JSON: functions, symbols, signals and undefined members dropped; a non-finite number becomes null. */
export function plainJson(value: unknown): PlainJson | undefined {
  if (value === null) return null
  if (typeof value === 'string' || typeof value === 'boolean') return value
  if (typeof value === 'number') return Number.isFinite(value) ? value : null
  if (typeof value === 'bigint') return value.toString()
  if (typeof value !== 'object') return undefined
  if (value instanceof Uint8Array) return { base64: Buffer.from(value).toString('base64') }
  if (value instanceof URL) return plainUrl(value)
  if (value instanceof Date) return value.toISOString()
  if (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) return undefined
  if (Array.isArray(value)) return value.map((item) => plainJson(item) ?? null)
  const out: { [key: string]: PlainJson } = {}
  for (const key of Object.keys(value).sort()) {
    const member = plainJson((value as Record<string, unknown>)[key])
    if (member !== undefined) out[key] = member
  }
  return out
}

/** Compact JSON with every object's keys sorted by code unit (`plainJson` builds each object in that order). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(plainJson(value) ?? null)
}

/** Node's one-call hash (20.12 and later): a replay hashes every entry it reads and every call it answers, and a hash object per text costs more than the hashing. */
const hashOnce = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash

/** Lower-case hex SHA-256 of a string's UTF-8 bytes. */
export function sha256(text: string): string {
  return hashOnce === undefined ? crypto.createHash('sha256').update(text, 'utf8').digest('hex') : hashOnce('sha256', text, 'hex')
}
